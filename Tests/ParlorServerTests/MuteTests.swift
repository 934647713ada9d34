import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Muting a conversation")
struct MuteTests {
    @Test("Muting is one person's: their tabs hear of it at once, the others see nothing change; unmuting undoes it; an outsider gets 404")
    func muteAndUnmute() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            let aliceOtherTab = try await TestSocket.session(port: port, as: alice)
            let bobSocket = try await TestSocket.session(port: port, as: bob)

            let muted = try await api.request(.put, "/api/conversations/\(direct.id)/muted", as: alice).decode(Wire.Conversation.self)
            #expect(muted.isMuted)
            let told = try await aliceOtherTab.next("conversation")
            #expect(told.conversationInfo?.isMuted == true, "alice's other tab shows it muted")
            #expect(try await bobSocket.framesQueued().isEmpty, "bob is not told")
            let lists = (
                alice: try await api.get("/api/conversations", as: alice).decode([Wire.Conversation].self),
                bob: try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self))
            #expect(lists.alice.first { $0.id == direct.id }?.isMuted == true)
            #expect(lists.bob.first { $0.id == direct.id }?.isMuted == false, "muting is not the other member's business")

            try await api.send("still counted", in: direct.id, as: bob)
            let unread = try await api.get("/api/conversations/\(direct.id)", as: alice).decode(Wire.Conversation.self)
            #expect(unread.unreadCount == 1 && unread.isMuted, "a muted conversation still counts what is unread")

            let unmuted = try await api.request(.delete, "/api/conversations/\(direct.id)/muted", as: alice).decode(Wire.Conversation.self)
            #expect(!unmuted.isMuted)
            #expect(try await aliceOtherTab.next("conversation") { $0.conversationInfo?.isMuted == false }.conversationInfo != nil)
            #expect(try await api.request(.put, "/api/conversations/\(direct.id)/muted", as: carol).status == .notFound)
            #expect(try await api.request(.put, "/api/conversations/\(UUID())/muted", as: carol).status == .notFound)
            #expect(try await api.request(.put, "/api/conversations/\(direct.id)/muted").status == .unauthorized)
            await aliceOtherTab.disconnect()
            await bobSocket.disconnect()
        }
    }
}
