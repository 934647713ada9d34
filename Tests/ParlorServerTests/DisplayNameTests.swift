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

    @Test("A change of several settings is all or nothing: a refused part leaves the name, about, picture and receipts as they were, and uses none of the hourly allowance")
    func allOrNothing() async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            let someoneElses = String(repeating: "a", count: 64)
            let refusals: [(JSON, String)] = [
                (["displayName": "Alicia", "about": "two\nlines", "sharesReadReceipts": false], "invalidValue"),
                (["displayName": "Alicia", "about": "Fine", "avatar": .string(someoneElses), "sharesReadReceipts": false], "avatarNotFound"),
                (["displayName": "Bob\u{202E}evil", "about": "Fine", "sharesReadReceipts": false], "invalidValue"),
            ]
            for (body, code) in refusals {
                let reply = try await api.request(.patch, "/api/me", as: alice, json: body)
                #expect(reply.errorCode == code, "\(reply.text)")
                let me = try await api.get("/api/me", as: alice).decode(Wire.Me.self)
                #expect(me.user.displayName == "Alice" && me.user.about == nil && me.sharesReadReceipts, "nothing of \(code)'s change was kept")
            }
            for index in 0..<Accounts.nameChangesPerHour {
                let both = try await api.request(.patch, "/api/me", as: alice, json: ["displayName": .string("Alice \(index)"), "about": .string("About \(index)")])
                #expect(both.status == .ok, "a name and an about changed together count once (\(index))")
            }
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

@Suite("What a person says about themselves")
struct AboutTests {
    @Test("A line about oneself is kept trimmed, shown with the person to everyone they talk to at once, and removed when blank; a broken rule is refused with it")
    func about() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, _, direct) = try await api.threePeople().cast
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let set = try await api.request(.patch, "/api/me", as: alice, json: ["about": "  Out until Monday 🏖️  "])
            #expect(try set.decode(Wire.Me.self).user.about == "Out until Monday 🏖️")
            let told = try await bobSocket.next("conversation") { $0.conversationInfo?.id == direct.id }
            #expect(told.conversationInfo?.members.first { $0.id == alice.id }?.about == "Out until Monday 🏖️", "Bob's details show it at once")
            let seen = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(seen.members.first { $0.id == alice.id }?.about == "Out until Monday 🏖️")
            // Not for strangers, nor in a group's member list (only a 1:1's details show it).
            let carol = try await api.signUp("carolyn")
            let found = try await api.get("/api/users?query=alice", as: carol).decode([Wire.User].self)
            #expect(!found.isEmpty && found.allSatisfy { $0.about == nil }, "a search does not show what people wrote about themselves")
            let group = try await api.conversation(of: bob, with: [alice], title: "Plans")
            let members = try await api.get("/api/conversations/\(group.id)", as: bob).decode(Wire.Conversation.self).members
            #expect(members.allSatisfy { $0.about == nil })

            for bad in [String(repeating: "a", count: Accounts.maxAboutLength + 1), "Hi\u{202E}there", "two\nlines", "trailing break\n"] {
                let reply = try await api.request(.patch, "/api/me", as: alice, json: ["about": .string(bad)])
                #expect(reply.status == .badRequest && reply.errorCode == "invalidValue", "\(bad.prefix(12).debugDescription)")
            }
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.about == "Out until Monday 🏖️", "a refusal changes nothing")
            let rules = try await api.get("/api/rules").decode(Wire.Rules.self)
            #expect(rules.maxAboutLength == Accounts.maxAboutLength)

            for cleared in [JSON.string("   "), .null] {
                _ = try await api.request(.patch, "/api/me", as: alice, json: ["about": "again"])
                let reply = try await api.request(.patch, "/api/me", as: alice, json: ["about": cleared])
                #expect(try reply.decode(Wire.Me.self).user.about == nil, "\(cleared) removes it")
            }
            await bobSocket.disconnect()
        }
    }
}
