import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Changing one's display name")
struct DisplayNameTests {
    @Test("A new name is kept, and everyone in a conversation with the person sees it in their list at once; someone else sees nothing")
    func renameIsToldToContacts() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let carolSocket = try await TestSocket.session(port: port, as: carol)

            let changed = try await api.request(.patch, "/api/me", as: alice, json: ["displayName": "  Ally  "])
            #expect(changed.status == .ok)
            #expect(try changed.decode(Wire.Me.self).user.displayName == "Ally", "kept trimmed")
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.displayName == "Ally")
            let told = try await bobSocket.next("conversation") { $0.conversationInfo?.id == direct.id }
            #expect(told.conversationInfo?.members.first { $0.id == alice.id }?.displayName == "Ally", "bob's list shows her new name")
            #expect(try await carolSocket.framesQueued().isEmpty, "carol shares no conversation with her and hears nothing")
            try await api.send("hello", in: direct.id, as: alice)
            let message = try await bobSocket.next("message")
            #expect(message.message?.senderName == "Ally", "her new messages carry the new name")
            await bobSocket.disconnect()
            await carolSocket.disconnect()
        }
    }

    @Test("A name that breaks a rule is refused with the rule, and changes are limited per hour", arguments: ["", "   ", String(repeating: "n", count: 65), "Bob\u{202E}evil", "a\u{0007}b"])
    func refused(name: String) async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            let reply = try await api.request(.patch, "/api/me", as: alice, json: ["displayName": .string(name)])
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "invalidValue")
            #expect(reply.text.contains("display name"), "\(reply.text)")
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.displayName == "Alice", "unchanged")
        }
    }

    @Test("Past the hourly limit a change is refused with tooManyNameChanges and when to try again")
    func limited() async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            for index in 0..<Accounts.nameChangesPerHour {
                #expect(try await api.request(.patch, "/api/me", as: alice, json: ["displayName": .string("Alice \(index)")]).status == .ok)
            }
            let refused = try await api.request(.patch, "/api/me", as: alice, json: ["displayName": "One more"])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "tooManyNameChanges")
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.displayName == "Alice \(Accounts.nameChangesPerHour - 1)")
        }
    }
}
