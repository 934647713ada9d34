import Crypto
import Foundation
import HTTPTypes
import NIOCore
@testable import ParlorServer
import Testing

/// Parlor as an installable web app: its manifest, icons and service worker as browsers fetch
/// them, and the worker's version following the client's files.
@Suite("The installable web app")
struct WebAppTests {
    /// The manifest's fields a browser needs to install Parlor.
    struct Manifest: Decodable {
        struct Icon: Decodable {
            let src: String
            let sizes: String
            let type: String
            let purpose: String?
        }

        let name: String
        let short_name: String
        let display: String
        let start_url: String
        let scope: String
        let theme_color: String
        let background_color: String
        let icons: [Icon]
    }

    /// What the server writes above the worker's script.
    struct Build: Decodable {
        let version: String
        let shell: [String: String]
    }

    /// Paths whose answers are private or live: never in the worker's shell.
    static let privatePrefixes = ["/api", "/ws", "/images", "/blobs"]

    @Test("The manifest is served as application/manifest+json: Parlor, standalone at /, its colours, and icons served as PNGs of the sizes it declares")
    func manifest() async throws {
        try await TestServer().run { api in
            let reply = try await api.get("/manifest.webmanifest")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType]?.hasPrefix("application/manifest+json") == true, "\(reply.headers[.contentType] ?? "none")")
            let manifest = try reply.decode(Manifest.self)
            #expect(manifest.name == "Parlor")
            #expect(!manifest.short_name.isEmpty && manifest.short_name.count <= 12)
            #expect(manifest.display == "standalone")
            #expect(manifest.start_url == "/" && manifest.scope == "/")
            for colour in [manifest.theme_color, manifest.background_color] {
                #expect(colour.first == "#" && Self.isHex(colour.dropFirst(), digits: 6), "\(colour)")
            }

            // The page names the manifest, and its light theme colour is the manifest's.
            let page = try await api.get("/").text
            #expect(page.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            #expect(page.contains(#"<meta name="theme-color" content="\#(manifest.theme_color)" media="(prefers-color-scheme: light)">"#))
            #expect(page.contains(#"media="(prefers-color-scheme: dark)""#))

            let any = manifest.icons.filter { ($0.purpose ?? "any").split(separator: " ").contains("any") }
            #expect(Set(any.map(\.sizes)).isSuperset(of: ["192x192", "512x512"]), "installable needs 192 and 512 px icons")
            #expect(manifest.icons.contains { $0.purpose?.split(separator: " ").contains("maskable") == true })
            for icon in manifest.icons {
                #expect(icon.type == "image/png", "\(icon.src)")
                let (width, height) = try await Self.servedPNG(icon.src, api: api)
                #expect("\(width)x\(height)" == icon.sizes, "\(icon.src) is \(width)×\(height), declared \(icon.sizes)")
            }
        }
    }

    /// The manifest's `share_target`, as Chromium reads it.
    struct ShareTarget: Decodable {
        struct Params: Decodable {
            struct Files: Decodable {
                let name: String
                let accept: [String]
            }

            let title: String
            let text: String
            let url: String
            let files: [Files]
        }

        let action: String
        let method: String
        let enctype: String
        let params: Params
    }

    @Test("Another app shares to Parlor with a POST of multipart form data (link, text, photos); without a worker yet, the server keeps nothing and sends the page to its picker")
    func shareTarget() async throws {
        try await TestServer().run { api in
            struct Shares: Decodable { let share_target: ShareTarget }
            let target = try await api.get("/manifest.webmanifest").decode(Shares.self).share_target
            // Files can be shared only by POST with multipart/form-data (the spec's rule).
            #expect(target.method == "POST" && target.enctype == "multipart/form-data")
            #expect(target.action == WebAppRoutes.shareAction)
            #expect(target.params.files.map(\.name) == ["photos"])
            #expect(Set(target.params.files[0].accept).isSuperset(of: ["image/jpeg", "image/png"]))
            // The worker reads these names (sw.js); the page reads what it kept.
            let worker = try await api.get(WebAppRoutes.workerPath).text
            for name in [target.params.title, target.params.text, target.params.url, "photos"] {
                #expect(worker.contains("'\(name)'"), "sw.js reads the field \(name)")
            }
            #expect(worker.contains("const SHARE_ACTION = '\(target.action)'"))

            let boundary = "parlor-test"
            let form = "--\(boundary)\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nprivate words\r\n--\(boundary)--\r\n"
            let reply = try await api.request(
                .post, target.action, body: Data(form.utf8), headers: [.contentType: "multipart/form-data; boundary=\(boundary)"])
            #expect(reply.status == .seeOther)
            #expect(reply.headers[.location] == WebAppRoutes.sharePage)
        }
    }

    @Test("/apple-touch-icon.png is a 180×180 PNG, and the page names it with the tags iOS reads")
    func appleTouchIcon() async throws {
        try await TestServer().run { api in
            let (width, height) = try await Self.servedPNG("/apple-touch-icon.png", api: api)
            #expect(width == 180 && height == 180)
            let page = try await api.get("/").text
            for tag in [
                #"<link rel="apple-touch-icon" href="/apple-touch-icon.png">"#,
                #"<meta name="apple-mobile-web-app-capable" content="yes">"#,
                #"<meta name="mobile-web-app-capable" content="yes">"#,
                #"<meta name="apple-mobile-web-app-title" content="Parlor">"#,
                #"<meta name="apple-mobile-web-app-status-bar-style""#,
            ] {
                #expect(page.contains(tag), "\(tag)")
            }
        }
    }

    @Test("The service worker is served at the root as JavaScript, asked for again each time, with the build above it: a version and a shell of files that are all served and none private")
    func worker() async throws {
        try await TestServer().run { api in
            let reply = try await api.get("/sw.js")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType]?.hasPrefix("text/javascript") == true, "\(reply.headers[.contentType] ?? "none")")
            #expect(reply.headers[.cacheControl] == "no-cache")
            let build = try Self.build(of: reply.text)
            #expect(Self.isHex(build.version, digits: 16), "\(build.version)")
            #expect(reply.text.contains("caches.delete"), "the worker drops the shells of other versions")

            let shell = Set(build.shell.keys)
            #expect(shell.isSuperset(of: ["/", "/js/main.js", "/js/updates.js", "/css/app.css", "/manifest.webmanifest", "/apple-touch-icon.png", "/icons/parlor-192.png"]))
            #expect(!shell.contains("/sw.js") && !shell.contains("/index.html"))
            for (path, digest) in build.shell {
                #expect(!Self.privatePrefixes.contains { path == $0 || path.hasPrefix($0 + "/") }, "\(path)")
                let file = try await api.get(path)
                #expect(file.status == .ok, "\(path)")
                // What the worker checks before it keeps a file: the bytes served are these.
                #expect(SHA256.hash(data: file.body).map { String(format: "%02x", $0) }.joined() == digest, "\(path)")
            }

            let head = try await api.request(.head, "/sw.js")
            #expect(head.status == .ok)
            #expect(head.headers[.contentType]?.hasPrefix("text/javascript") == true)
        }
    }

    @Test("The Content-Security-Policy lets the manifest and the worker come from Parlor only")
    func contentSecurityPolicy() async throws {
        try await TestServer().run { api in
            for path in ["/", "/sw.js", "/manifest.webmanifest"] {
                let csp = try #require(try await api.get(path).headers[.contentSecurityPolicy], "\(path)")
                #expect(csp.contains("manifest-src 'self';"), "\(path)")
                #expect(csp.contains("worker-src 'self';"), "\(path)")
                #expect(!csp.contains("unsafe-inline") && !csp.contains("worker-src blob:"), "\(path)")
            }
        }
    }

    @Test("The worker's version follows every file of the client: one byte changed anywhere gives another worker")
    func versionFollowsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlor-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("js"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!doctype html>".utf8).write(to: folder.appendingPathComponent("index.html"))
        try Data("export {};".utf8).write(to: folder.appendingPathComponent("js/main.js"))
        try Data("self.addEventListener('fetch', () => {});".utf8).write(to: folder.appendingPathComponent("sw.js"))

        let first = try WebAppRoutes(root: folder)
        #expect(first.shell.keys.sorted() == ["/", "/js/main.js"])
        // SHA-256 of "export {};", as `printf 'export {};' | sha256sum` gives it.
        #expect(first.shell["/js/main.js"] == "2e29cd9a98755c46896f7a2d56524db2d6d96b248e36db46de14c30bf47c8d05")
        #expect(try WebAppRoutes(root: folder).version == first.version, "the same files, the same version")

        try Data("export const changed = 1;".utf8).write(to: folder.appendingPathComponent("js/main.js"))
        let second = try WebAppRoutes(root: folder)
        #expect(second.version != first.version)
        let script = String(buffer: second.worker)
        #expect(try Self.build(of: script).version == second.version)
        #expect(script.hasSuffix("self.addEventListener('fetch', () => {});"))
    }

    static func isHex(_ text: Substring, digits: Int) -> Bool {
        text.count == digits && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static func isHex(_ text: String, digits: Int) -> Bool { isHex(text[...], digits: digits) }

    /// The build the server wrote above the worker's script.
    static func build(of script: String) throws -> Build {
        let prefix = "const BUILD = "
        #expect(script.hasPrefix(prefix))
        let line = try #require(script.split(separator: "\n", maxSplits: 1).first)
        let json = try #require(line.dropFirst(prefix.count).split(separator: ";").first)
        return try JSONDecoder().decode(Build.self, from: Data(json.utf8))
    }

    /// Fetches `path`, checks that it is served as a PNG, and reads its size from its header.
    static func servedPNG(_ path: String, api: API) async throws -> (width: Int, height: Int) {
        let reply = try await api.get(path)
        #expect(reply.status == .ok, "\(path)")
        #expect(reply.headers[.contentType] == "image/png", "\(path): \(reply.headers[.contentType] ?? "none")")
        let bytes = [UInt8](reply.body)
        try #require(bytes.count > 24 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(path) is not a PNG")
        try #require(Array(bytes[12..<16]) == Array("IHDR".utf8), "\(path) has no header first")
        let number = { (offset: Int) in bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
