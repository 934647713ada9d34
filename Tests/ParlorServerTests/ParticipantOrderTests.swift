import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// Apps never learn names, yet list people by them: the host gives a view the other participants
/// in the order of their display names (`ViewEnvironment.remoteParticipantIdentifiers`).
@Suite("Participants in the order of their names")
struct ParticipantOrderTests {
    @Test("Their names order them, case and accents aside: not their usernames, the order they were added, nor the bytes of their names")
    func byName() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let host = try await api.signUp("host")
            // Usernames, and the order added, run the other way; in bytes "Zoë" < "bob" < "émile".
            let aaron = try await api.signUp("aaron")
            let bert = try await api.signUp("bert")
            let cleo = try await api.signUp("cleo")
            for (person, name) in [(aaron, "Zoë"), (bert, "émile"), (cleo, "bob")] {
                #expect(try await api.request(.patch, "/api/me", as: person, json: ["displayName": .string(name)]).status == .ok)
            }
            let group = try await api.conversation(of: host, with: [aaron, bert, cleo], title: "Names")
            let socket = try await TestSocket.session(port: port, as: host, since: [group.id: 0])
            let view = try await socket.openApp(RollCall.id.rawValue, in: group.id)
            let names = view.view.visibleTexts.map { token in view.names[String(token.dropFirst())] ?? token }
            #expect(names == ["bob", "émile", "Zoë"], "\(names)")
            await socket.disconnect()
        }
    }
}
