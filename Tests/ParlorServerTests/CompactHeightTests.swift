import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// An app's size hint for its compact tray (`AppManifest.compactHeight`, Parlor's
/// `contentSizeThatFits`): checked when an app is added, carried in every `app` frame.
@Suite("compactHeight: the compact tray's size an app asks for")
struct CompactHeightTests {
    static func manifest(compactHeight: Int?) -> AppManifest {
        AppManifest(id: "org.example.icecream", name: "Ice Cream", icon: .url(URL(string: "https://example.org/icon.png")!), compactHeight: compactHeight)
    }

    @Test("A manifest asking for a tray under 120 or over 480 points is refused with a sentence; 120, 480 and none are taken")
    func checkedWhenAdded() throws {
        for height in [0, 119, 481, -5, 10_000] {
            #expect {
                _ = try AppRegistrations.checked(Self.manifest(compactHeight: height))
            } throws: { error in
                guard let error = error as? MessagesError else { return false }
                return error.code == .invalidValue && error.message.contains("from 120 to 480") && error.message.contains("asks for \(height)")
            }
        }
        for height in [120, 200, 480, nil] {
            #expect(try AppRegistrations.checked(Self.manifest(compactHeight: height)).compactHeight == height)
        }
        let decoded = try JSONDecoder().decode(
            AppManifest.self, from: Data(#"{"id":"org.example.dice","name":"Dice","icon":{"url":"https://example.org/d.png"},"compactHeight":200}"#.utf8))
        #expect(decoded.compactHeight == 200, "a manifest file names it")
    }

    @Test("The app frame carries the app's compactHeight to the client; an app without one sends none")
    func carriedToTheClient() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            #expect(try await socket.openApp(ShowOfHands.id.rawValue, in: direct.id).compactHeight == 160)
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": "org.parlor.hello"])
            let hello = try await socket.next("app") { $0.update?.appID.rawValue == "org.parlor.hello" }
            #expect(hello.update?.isActive == true && hello.update?.compactHeight == nil)
            await socket.disconnect()
        }
    }
}
