import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import Testing

/// An image an app produces, uploaded once (`conversation.upload(image:)`) under the upload rules
/// and shown afterwards by its id, in views and messages (Painter, a test app).
@Suite("Images apps upload")
struct AppUploadTests {
    static let painter = Painter.id.rawValue

    @Test("Uploaded once: the photo loses its position, shows in the view and in messages by its id; members fetch it, outsiders cannot, and nobody can show an upload they cannot see")
    func uploadedOnceShownAfterwards() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let dave = try await api.signUp("dave")
            let direct = try await api.conversation(of: alice, with: [bob])
            let other = try await api.conversation(of: carol, with: [dave])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])

            let opened = try await aliceSocket.openApp(Self.painter, in: direct.id)
            try await aliceSocket.activate("Paint", in: opened, conversation: direct.id)
            let received = try #require(try await bobSocket.messages(1).first)
            let url = try #require(received.app?.layout.imageURL)
            #expect(url.hasPrefix("/blobs/") && url.count == "/blobs/".count + 64, "\(url)")
            let hash = String(url.dropFirst("/blobs/".count))

            // The bytes as stored: an image, without the photo's GPS position.
            let fetched = try await api.get(url, as: bob)
            #expect(fetched.status == .ok && fetched.headers[.contentType] == "image/jpeg")
            #expect(!ImageUploadTests.gpsPointers.contains { ImageUploadTests.contains(fetched.body, $0) }, "no GPS position reaches Bob")
            #expect(try await api.get(url, as: carol).status == .notFound, "not a member: as if it did not exist")

            // Her view shows it by the same id; sent again, it is the same upload, not a new one.
            let view = try await aliceSocket.next("app") { $0.update?.view.allNodes.contains { if case .image = $0 { true } else { false } } == true }
            let image = view.update?.view.allNodes.compactMap { node -> ImageSource? in if case .image(let image) = node { image.source } else { nil } }.first
            #expect(image == .upload(hash))
            try await aliceSocket.activate("Send again", in: try #require(view.update), conversation: direct.id)
            let again = try #require(try await bobSocket.messages(1).first)
            #expect(again.app?.layout.imageURL == url)

            // Carol knows the id (say, from a screenshot of the address) but cannot see the image:
            // her message showing it is refused, and Dave still cannot fetch it.
            let carolSocket = try await TestSocket.session(port: port, as: carol, since: [other.id: 0])
            let forged: JSON = [
                "id": .string(MessageID().description), "url": "https://parlor.example/painter",
                "layout": ["template": ["image": ["upload": .string(hash)], "caption": "Look"]],
            ]
            try await carolSocket.send("sendAppMessage", SendAppMessageTests.frame(other.id, app: Self.painter, message: forged, request: "c1"))
            let refused = try await carolSocket.reply(to: "c1")
            #expect(refused.error?.code == "fileNotFound", "\(String(describing: refused.error?.message))")
            #expect(try await api.messages(in: other.id, as: carol).isEmpty)
            #expect(try await api.get(url, as: dave).status == .notFound)

            // What is not an image is refused with the upload rules' sentence.
            try await aliceSocket.activate("Upload text", in: try #require(view.update), conversation: direct.id)
            let notImage = try await aliceSocket.next("app") { $0.update?.error != nil }
            #expect(notImage.update?.error?.code == "improperFileType")
            for socket in [aliceSocket, bobSocket, carolSocket] { await socket.disconnect() }
        }
    }

    @Test("An app outside the server uploads through the app protocol (AppRunner's upload frame): the same rules, the same id, the same reach")
    func uploadedFromOutside() async throws {
        try await RemoteAppTests.withRegisteredProbe(manifest: Painter().manifest) { setting in
            try await RemoteAppTests.withRunner(Painter(), port: setting.port, secret: setting.secret) {
                let since = [setting.direct.id: Int64(0)]
                let aliceSocket = try await TestSocket.session(port: setting.port, as: setting.alice, since: since)
                let bobSocket = try await TestSocket.session(port: setting.port, as: setting.bob, since: since)
                let opened = try await aliceSocket.openApp(Self.painter, in: setting.direct.id)
                try await aliceSocket.activate("Paint", in: opened, conversation: setting.direct.id)
                let received = try #require(try await bobSocket.messages(1).first)
                let url = try #require(received.app?.layout.imageURL)
                let fetched = try await setting.api.get(url, as: setting.bob)
                #expect(fetched.status == .ok && fetched.headers[.contentType] == "image/jpeg")
                #expect(!ImageUploadTests.gpsPointers.contains { ImageUploadTests.contains(fetched.body, $0) }, "cleaned as any upload")
                #expect(String(url.dropFirst("/blobs/".count)) == Digest.sha256Hex(fetched.body), "its id is its bytes' SHA-256")
                let view = try await aliceSocket.next("app") { $0.update?.view.action("Upload text") != nil }
                try await aliceSocket.activate("Upload text", in: try #require(view.update), conversation: setting.direct.id)
                let refused = try await aliceSocket.next("app") { $0.update?.error != nil }
                #expect(refused.update?.error?.code == "improperFileType", "\(String(describing: refused.update?.error?.message))")
                for socket in [aliceSocket, bobSocket] { await socket.disconnect() }
            }
        }
    }
}
