import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Photos and files")
struct AttachmentTests {
    static let png = TestImages.png(width: 8, height: 8, shade: 9)

    static func upload(_ data: Data, as person: Person, in api: API) async throws -> Wire.Blob {
        try await api.request(.post, "/api/blobs?kind=file", as: person, body: data).decode(Wire.Blob.self)
    }

    static func attach(_ hash: String, name: String, in conversation: ConversationID, as person: Person, api: API) async throws -> Reply {
        try await api.post("/api/conversations/\(conversation)/messages", as: person, json: [
            "id": .string(UUID().uuidString), "attachment": ["hash": .string(hash), "name": .string(name)],
        ])
    }

    @Test("A photo sent to a conversation is seen by its members only, and only once sent; a file is served as a download")
    func photosAndFiles() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])

            let photo = try await Self.upload(Self.png, as: alice, in: api)
            #expect(photo.contentType == "image/png" && photo.size == Int64(Self.png.count))
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "an upload is its uploader's until a message uses it")

            let sent = try await Self.attach(photo.hash, name: "Beach.png", in: direct.id, as: alice, api: api)
            #expect(sent.status == .created)
            let message = try sent.decode(Wire.Message.self)
            #expect(message.kind == "attachment")
            let attachment = try #require(message.attachment)
            #expect(attachment.url == photo.url && attachment.name == "Beach.png" && attachment.isImage && attachment.size == Int64(Self.png.count))
            let served = try await api.get(photo.url, as: bob)
            #expect(served.status == .ok && served.body == Self.png && served.headers[.contentType] == "image/png")
            #expect(try await api.get(photo.url, as: carol).status == .notFound, "someone outside the conversation gets nothing")
            let etag = try #require(served.headers[.eTag])
            #expect(served.headers[.cacheControl] == "private, no-cache", "a browser asks again before reusing it")
            let again = try await api.request(.get, photo.url, as: bob, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.isEmpty, "but the bytes are not sent twice")
            #expect(try await api.request(.get, photo.url, as: carol, headers: [.ifNoneMatch: etag]).status == .notFound,
                    "knowing the tag is no key either")
            #expect(try await api.get(photo.url).status == .unauthorized)
            let list = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(list.preview == "Alice sent a photo")

            let notes = Data("<html><script>alert(1)</script></html>".utf8)
            let file = try await Self.upload(notes, as: alice, in: api)
            #expect(file.contentType == "application/octet-stream", "whatever is not a known image is only bytes")
            let fileMessage = try await Self.attach(file.hash, name: "notes.html", in: direct.id, as: alice, api: api).decode(Wire.Message.self)
            #expect(fileMessage.attachment?.isImage == false)
            let download = try await api.get(file.url, as: bob)
            #expect(download.headers[.contentType] == "application/octet-stream")
            #expect(download.headers[.contentDisposition] == "attachment", "a file is downloaded, never shown as a page")
            let found = try await SearchTests.search("beach", as: bob, in: api).decode(Wire.SearchResults.self)
            #expect(found.results.map(\.message.id) == [message.id], "found by its name")
        }
    }

    @Test("Sending what one cannot see, a bad name, or a file too large is refused; an unsent photo is no longer shared")
    func refusals() async throws {
        try await TestServer { $0.maxBlobBytes = 1024 }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let dave = try await api.signUp("dave")
            let direct = try await api.conversation(of: alice, with: [bob])
            let elsewhere = try await api.conversation(of: carol, with: [dave])
            let photo = try await Self.upload(Self.png, as: alice, in: api)

            let guessed = try await Self.attach(photo.hash, name: "mine.png", in: elsewhere.id, as: carol, api: api)
            #expect(guessed.status == .notFound && guessed.errorCode == "attachmentNotFound", "a hash is not a key to someone's photo")
            #expect(try await api.get(photo.url, as: dave).status == .notFound)
            for name in ["", "a/b.png", "bad\u{202E}gnp.exe", String(repeating: "n", count: 256), "line\nbreak.png"] {
                let reply = try await Self.attach(photo.hash, name: name, in: direct.id, as: alice, api: api)
                #expect(reply.errorCode == "invalidFileName", "\(name.prefix(20))")
            }
            #expect(try await api.request(.post, "/api/blobs?kind=other", as: alice, body: Self.png).errorCode == "invalidValue")
            let empty = try await api.request(.post, "/api/blobs?kind=file", as: alice, body: Data())
            #expect(empty.status == .badRequest && empty.errorCode == "emptyUpload")
            let big = try await api.request(.post, "/api/blobs?kind=file", as: alice, body: Data(repeating: 1, count: 2048))
            #expect(big.status == .contentTooLarge && big.errorCode == "mediaExceedsMaxSize")
            let both = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "text": "hi", "attachment": ["hash": .string(photo.hash), "name": "a.png"],
            ])
            #expect(both.status == .badRequest, "one of text, sticker or attachment")

            let sent = try await Self.attach(photo.hash, name: "a.png", in: direct.id, as: alice, api: api).decode(Wire.Message.self)
            #expect(try await api.get(photo.url, as: bob).status == .ok)
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.send("unsend", ["conversation": .string(direct.id.description), "message": .string(sent.id.description)])
            _ = try await socket.framesQueued()
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "unsent, the photo is no longer shared")
            #expect(try await api.get(photo.url, as: alice).status == .ok, "its uploader still has it")
            await socket.disconnect()
        }
    }
}
