import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Pinning, archiving and marking a conversation unread")
struct ListPlaceTests {
    @Test("Each is one person's: their tabs hear of it at once, the others are not told; DELETE undoes it; an outsider gets 404")
    func ownListOnly() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            try await api.send("hi", in: direct.id, as: bob)
            let aliceOtherTab = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)
            let path = "/api/conversations/\(direct.id)"

            let pinned = try await api.request(.put, "\(path)/pinned", as: alice).decode(Wire.Conversation.self)
            #expect(pinned.pinnedAt != nil)
            #expect(try await aliceOtherTab.next("conversation").conversationInfo?.pinnedAt == pinned.pinnedAt, "her other tab shows it pinned")
            let archived = try await api.request(.put, "\(path)/archived", as: alice).decode(Wire.Conversation.self)
            #expect(archived.isArchived && archived.pinnedAt != nil, "archiving keeps the pin")
            #expect(try await aliceOtherTab.next("conversation").conversationInfo?.isArchived == true)
            let marked = try await api.request(.put, "\(path)/unread", as: alice).decode(Wire.Conversation.self)
            #expect(marked.isMarkedUnread)
            #expect(try await aliceOtherTab.next("conversation").conversationInfo?.isMarkedUnread == true)
            #expect(try await bobSocket.framesQueued().isEmpty, "bob is told none of it")
            let bobs = try await api.get(path, as: bob).decode(Wire.Conversation.self)
            #expect(bobs.pinnedAt == nil && !bobs.isArchived && !bobs.isMarkedUnread, "bob's list is his own")

            // Bob writes: the conversation leaves Archived for Alice, and her tab's list says so.
            try await api.send("are you there?", in: direct.id, as: bob)
            let back = try await api.get(path, as: alice).decode(Wire.Conversation.self)
            #expect(!back.isArchived, "a new message brings an archived conversation back")

            for setting in ["pinned", "unread"] {
                let off = try await api.request(.delete, "\(path)/\(setting)", as: alice).decode(Wire.Conversation.self)
                #expect(off.pinnedAt == nil || setting != "pinned")
                #expect(!off.isMarkedUnread || setting != "unread")
                #expect(try await api.request(.put, "\(path)/\(setting)", as: carol).status == .notFound, "\(setting) by an outsider")
                #expect(try await api.request(.put, "/api/conversations/\(UUID())/\(setting)", as: alice).status == .notFound)
                #expect(try await api.request(.put, "\(path)/\(setting)").status == .unauthorized)
            }
            await aliceOtherTab.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("A sixth pin is refused with tooManyPinned and a sentence that says what to do")
    func pinLimit() async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            var ids: [ConversationID] = []
            for index in 0...ListPlace.maxPinned {
                let other = try await api.signUp("friend\(index)")
                ids.append(try await api.conversation(of: alice, with: [other]).id)
            }
            for id in ids.dropLast() {
                #expect(try await api.request(.put, "/api/conversations/\(id)/pinned", as: alice).status == .ok)
            }
            let refused = try await api.request(.put, "/api/conversations/\(try #require(ids.last))/pinned", as: alice)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "tooManyPinned")
            #expect(refused.text.contains("unpin one"), "\(refused.text)")
            let list = try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self)
            #expect(list.filter { $0.pinnedAt != nil }.count == ListPlace.maxPinned)
        }
    }
}

@Suite("List changes across nodes")
struct ListPlaceClusterTests {
    @Test("A list change is published as the person's alone: another node tells their connections and nobody else's")
    func scopedToThePerson() async throws {
        try await OtherNodeScene.run { scene in
            // Here: Alice pins; the bus carries it as hers, not as a change of the conversation.
            let before = scene.bus.published.count
            let pinned = try await scene.api.request(.put, "/api/conversations/\(scene.conversation)/pinned", as: scene.alice)
            #expect(pinned.status == .ok)
            #expect(Array(scene.bus.published.dropFirst(before)) == [.listChanged(user: scene.alice.id, conversation: scene.conversation)],
                    "one event, the person's: the other members' nodes are not woken")
            // Elsewhere: Alice pinned on another node; Bob, connected here, hears nothing of it.
            scene.bus.announce(.listChanged(user: scene.alice.id, conversation: scene.conversation))
            let heard = try await scene.bobSocket.framesQueued()
            #expect(heard.isEmpty, "bob is not told alice changed her list")
        }
    }
}
