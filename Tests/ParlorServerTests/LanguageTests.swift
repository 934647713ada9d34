import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// The person's language, said by each connection's `hello` (the browser's, or the one chosen in
/// Settings): what their apps draw in, each person in their own.
@Suite("Apps in each person's language on the server")
struct LanguageTests {
    @Test("Alice's hello says French: Hello draws in French for her and in English for Bob; her next connection in German changes her open app")
    func eachInTheirs() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0], language: "fr-FR")
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let french = try await aliceSocket.openApp("org.parlor.hello", in: direct.id)
            #expect(french.view.visibleTexts == ["Salut !", "Bonjour", "C'est la fête 🎉"], "\(french.view.visibleTexts)")
            #expect(try await bobSocket.openApp("org.parlor.hello", in: direct.id).view.visibleTexts == ["Hi!", "Good morning", "Party time 🎉"])

            try await aliceSocket.activate("Salut !", in: french, conversation: direct.id)
            #expect(try await aliceSocket.staged()?.app?.summaryText == "A dit « Salut ! »")

            // Her phone says German: the app open in her tab draws in German at its next look.
            let phone = try await TestSocket.session(port: port, as: alice, since: [:], language: "de")
            try await aliceSocket.send("setStyle", ["conversation": .string(direct.id.description), "style": "expanded"])
            let german = try await aliceSocket.next("app") { $0.update?.presentationStyle == .expanded }
            #expect(german.update?.view.visibleTexts.contains("Guten Morgen") == true, "\(german.update?.view.visibleTexts ?? [])")
            for socket in [aliceSocket, bobSocket, phone] { await socket.disconnect() }
        }
    }

    @Test("A language that is not a language tag is answered with a sentence and ignored: the session starts all the same")
    func refused() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let socket = try await TestSocket.connect(port: port, as: alice)
            _ = try await socket.next("welcome")
            try await socket.send(["type": "hello", "requestId": "h1", "language": "<script>alert(1)</script>"])
            let refusal = try await socket.reply(to: "h1")
            #expect(refusal.error?.code == "invalidValue")
            #expect(refusal.error?.message.contains("language tag") == true)
            _ = try await socket.next("ready")
            #expect(try await socket.openApp("org.parlor.hello", in: try await api.conversation(of: alice, with: [try await api.signUp("bob")]).id)
                .view.visibleTexts.first == "Hi!", "apps keep the default")
            await socket.disconnect()
        }
    }
}
