import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// Apps never learn names, yet list people by them: the host gives a view the other participants
/// in the order of their display names (`ViewEnvironment.remoteParticipantIdentifiers`).
@Suite("Participants in the order of their names")
struct ParticipantOrderTests {
    @Test("Zoe's group with Émile, carl and Amy (added in that order): her view lists Amy, carl, Émile; case and accents aside")
    func byName() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let zoe = try await api.signUp("zoe")
            let emile = try await api.signUp("emile")
            let carl = try await api.signUp("carl")
            let amy = try await api.signUp("amy")
            for (person, name) in [(emile, "Émile"), (carl, "carl")] {
                #expect(try await api.request(.patch, "/api/me", as: person, json: ["displayName": .string(name)]).status == .ok)
            }
            let group = try await api.conversation(of: zoe, with: [emile, carl, amy], title: "Names")
            let socket = try await TestSocket.session(port: port, as: zoe, since: [group.id: 0])
            let view = try await socket.openApp(RollCall.id.rawValue, in: group.id)
            let names = view.view.visibleTexts.map { token in view.names[String(token.dropFirst())] ?? token }
            #expect(names == ["Amy", "carl", "Émile"], "\(names)")
            await socket.disconnect()
        }
    }
}
