import Foundation
import HTTPTypes
import ParlorInput
@testable import ParlorServer
import ParlorSeedApps
import Testing

@Suite("The store, the drawer, assets and uploads")
struct AppRouteTests {
    static let png = TestImages.png(width: 8, height: 8, shade: 7)

    @Test("A new user's drawer holds every app and pack; the directory lists them with icons")
    func directory() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let directory = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self)
            let ids = directory.apps.map(\.id.rawValue)
            #expect(Set(ids).isSuperset(of: ["org.parlor.iconstore", "org.parlor.tictactoe", "org.parlor.rsvp", "org.parlor.todo", "org.parlor.hello"]))
            #expect(directory.apps.allSatisfy { $0.installed })
            #expect(directory.apps.filter { $0.summary.isEmpty }.map(\.name).isEmpty, "every app says in the store what it does")
            #expect(directory.packs.allSatisfy { $0.installed && $0.drawerID == "sticker:\($0.id)" && !$0.stickers.isEmpty })
            #expect(directory.drawer == ids + directory.packs.map(\.drawerID))
            let iconStore = try #require(directory.apps.first { $0.id == "org.parlor.iconstore" })
            #expect(iconStore.hasHomeSurface)
            #expect(iconStore.iconURL == "/assets/apps/org.parlor.iconstore/iconstore.png")
            #expect(try await api.get("/api/apps").status == .unauthorized)
        }
    }

    @Test("An example app (Hello) is in the store but not in a new person's drawer, and can be got from it")
    func storeOnlyApps() async throws {
        let base = try TestServer.builtIn()
        let directory = AppDirectory(apps: base.apps, packs: base.packs, storeOnly: SeedApps.examples)
        try await TestServer(directory: directory).run { api in
            let alice = try await api.signUp("alice")
            let listed = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self)
            let hello = try #require(listed.apps.first { $0.id == "org.parlor.hello" }, "Hello is in the store")
            #expect(!hello.installed)
            #expect(!listed.drawer.contains("org.parlor.hello"))
            #expect(listed.drawer.contains("org.parlor.tictactoe") && listed.apps.filter(\.installed).count == listed.apps.count - 1)
            let got = try await api.post("/api/apps/org.parlor.hello/install", as: alice).decode(Wire.Directory.self)
            #expect(got.drawer.last == "org.parlor.hello")
            #expect(got.apps.allSatisfy { $0.installed })
        }
    }

    @Test("Uninstall and install move an app out of and back into the drawer (at its end); unknown items are 404 unknownApp")
    func installAndUninstall() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let removed = try await api.request(.delete, "/api/apps/org.parlor.hello/install", as: alice)
            #expect(removed.status == .ok)
            let afterRemoval = try removed.decode(Wire.Directory.self)
            #expect(!afterRemoval.drawer.contains("org.parlor.hello"))
            #expect(afterRemoval.apps.first { $0.id == "org.parlor.hello" }?.installed == false)
            let added = try await api.post("/api/apps/org.parlor.hello/install", as: alice).decode(Wire.Directory.self)
            #expect(added.drawer.last == "org.parlor.hello")
            #expect(try await api.post("/api/apps/org.parlor.hello/install", as: alice).decode(Wire.Directory.self).drawer.filter { $0 == "org.parlor.hello" }.count == 1)

            let pack = try #require(added.packs.first)
            let packRemoved = try await api.request(.delete, "/api/apps/\(pack.drawerID)/install", as: alice).decode(Wire.Directory.self)
            #expect(packRemoved.packs.first?.installed == false)

            let unknown = try await api.post("/api/apps/org.example.nothing/install", as: alice)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "unknownApp")
            #expect(try await api.request(.delete, "/api/apps/sticker:nothing/install", as: alice).errorCode == "unknownApp")
        }
    }

    @Test("PUT /api/drawer reorders the drawer; duplicates are 400, items not in the store 404 unknownApp")
    func reorderDrawer() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let ordered = try await api.request(.put, "/api/drawer", as: alice, json: ["items": ["org.parlor.rsvp", "org.parlor.hello"]])
            #expect(ordered.status == .ok)
            let directory = try ordered.decode(Wire.Directory.self)
            #expect(directory.drawer == ["org.parlor.rsvp", "org.parlor.hello"])
            #expect(directory.apps.filter(\.installed).map(\.id.rawValue).sorted() == ["org.parlor.hello", "org.parlor.rsvp"])
            let duplicate = try await api.request(.put, "/api/drawer", as: alice, json: ["items": ["org.parlor.rsvp", "org.parlor.rsvp"]])
            #expect(duplicate.status == .badRequest)
            let unknown = try await api.request(.put, "/api/drawer", as: alice, json: ["items": ["org.example.nothing"]])
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "unknownApp")
            #expect(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).drawer == ["org.parlor.rsvp", "org.parlor.hello"])
            let bob = try await api.signUp("bob")
            #expect(try await api.get("/api/apps", as: bob).decode(Wire.Directory.self).drawer.count > 2, "drawers are per user")
        }
    }

    @Test("App assets and sticker images are served with their image content type; unknown files are 404")
    func assets() async throws {
        try await TestServer().run { api in
            let icon = try await api.get("/assets/apps/org.parlor.iconstore/iconstore.png")
            #expect(icon.status == .ok)
            #expect(icon.headers[.contentType] == "image/png")
            #expect(icon.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(icon.headers[.cacheControl]?.contains("max-age") == true)
            #expect(try await api.get("/assets/apps/org.parlor.iconstore/missing.png").status == .notFound)
            #expect(try await api.get("/assets/apps/org.example.nothing/iconstore.png").status == .notFound)
            let traversal = try await api.get("/assets/apps/org.parlor.iconstore/..%2F..%2F..%2FPackage.swift")
            #expect([.notFound, .badRequest].contains(traversal.status), "a path out of the assets folder is not served")
            #expect(!traversal.text.contains("PackageDescription"))

            let alice = try await api.signUp("alice")
            let directory = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self)
            let stickers = directory.packs.flatMap(\.stickers)
            #expect(!stickers.isEmpty)
            for sticker in stickers {
                let image = try await api.get(sticker.url)
                #expect(image.status == .ok, "\(sticker.url)")
                let type = image.headers[.contentType] ?? ""
                #expect(["image/png", "image/apng", "image/gif", "image/jpeg", "image/webp"].contains(type), "\(sticker.url): \(type)")
                let isPNG = image.body.starts(with: [0x89, 0x50, 0x4E, 0x47])
                #expect(!type.contains("png") || isPNG, "\(sticker.url) is labelled \(type)")
            }
            #expect(try await api.get("/assets/stickers/nothing/none.png").status == .notFound)
        }
    }

    @Test("An uploaded PNG is stored by its hash and served back as image/png")
    func uploadPNG() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let reply = try await api.request(.post, "/api/blobs", as: alice, body: Self.png)
            #expect(reply.status == .created)
            let blob = try reply.decode(Wire.Blob.self)
            #expect(blob.hash.count == 64)
            #expect(blob.url == "/blobs/\(blob.hash)")
            let again = try await api.request(.post, "/api/blobs", as: alice, body: Self.png).decode(Wire.Blob.self)
            #expect(again.hash == blob.hash, "the same bytes have the same address")
            let served = try await api.get(blob.url, as: alice)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/png")
            #expect(served.headers[.cacheControl]?.hasPrefix("private") == true, "no shared cache keeps a private upload")
            #expect(served.body == Self.png)
            #expect(try await api.get("/blobs/\(String(repeating: "0", count: 64))", as: alice).status == .notFound)
            #expect(try await api.get("/blobs/short", as: alice).status == .notFound)
        }
    }

    @Test("Uploads refuse what is not a PNG, JPEG or GIF (400 improperFileType), oversize files (413), and anonymous users")
    func uploadRefusals() async throws {
        try await TestServer(configure: { $0.maxBlobBytes = 1024 }).run { api in
            let alice = try await api.signUp("alice")
            let text = try await api.request(.post, "/api/blobs", as: alice, body: Data("<script>alert(1)</script>".utf8))
            #expect(text.status == .badRequest)
            #expect(text.errorCode == "improperFileType")
            let big = try await api.request(.post, "/api/blobs", as: alice, body: TestImages.png(width: 64, height: 32))
            #expect(big.status == .contentTooLarge)
            #expect(big.errorCode == "mediaExceedsMaxSize")
            #expect(big.text.contains("A file can be at most 1 KB; this one is larger."), "the limit in the units the page shows sizes in: \(big.text)")
            let anonymous = try await api.request(.post, "/api/blobs", body: Self.png)
            #expect(anonymous.status == .unauthorized)
        }
    }
}

@Suite("Sizes in sentences")
struct ByteCountTests {
    @Test("A size reads as the page shows a file's: bytes, then whole KB, then MB with one decimal", arguments: [
        (820, "820 bytes"), (999, "999 bytes"), (1000, "1 KB"), (14_400, "14 KB"), (999_499, "999 KB"),
        (1_000_000, "1.0 MB"), (10 * 1024 * 1024, "10.5 MB"),
    ])
    func text(bytes: Int, expected: String) {
        #expect(ByteCount.text(bytes) == expected)
    }

    @Test("A limit is rounded down: it never promises more than is allowed")
    func limit() {
        #expect(ByteCount.limit(10 * 1024 * 1024) == "10.4 MB")
        #expect(ByteCount.limit(1999) == "1 KB")
        #expect(ByteCount.limit(1024) == "1 KB")
    }
}
