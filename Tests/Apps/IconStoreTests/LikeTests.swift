import IconStore
import ParlorKit
import ParlorTesting
import Testing

/// The seed's Airbnb idea: the recipient likes the shared icon and the like answers in the same
/// session, so the conversation keeps one bubble for the icon.
@Suite("Icon Store: liking a shared icon")
struct LikeTests {
    let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], apps: [IconStore()])
    var alice: SimulatedParticipant { simulator.participant("Alice") }
    var bob: SimulatedParticipant { simulator.participant("Bob") }
    var carol: SimulatedParticipant { simulator.participant("Carol") }

    func aliceSendsCat() async throws {
        try await alice.openApp(named: "Icon Store")
        try await alice.tap("Cat icon, $2.99")
        try await alice.sendStaged()
    }

    @Test("Like sends a reply at once in the icon's session, captioned with who liked it")
    func likeRepliesInSession() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        #expect(await bob.appError() == nil)
        #expect(await bob.staged() == nil, "a like is sent, not left in the compose field")
        let posted = await simulator.messages
        #expect(posted.count == 2)
        let shared = try #require(posted.first?.message)
        let like = try #require(posted.last?.message)
        #expect(posted.last?.sender == "Bob")
        #expect(like.session == shared.session)
        let bobID = try await bob.participantID(in: "Icon Store")
        #expect(like.template?.caption == "\(bobID.mention) liked Cat icon")
        #expect(like.template?.subcaption == "$2.99")
        #expect(like.template?.image == .asset("cat.png"))
        #expect(like.summaryText == "Liked Cat icon")
        #expect(like.accessibilityLabel == "\(bobID.mention) liked Cat icon, $2.99")
    }

    @Test("After the like the transcript collapses: one bubble (the like) and Alice's summary line")
    func transcriptCollapses() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        let bobID = try await bob.participantID(in: "Icon Store")
        for viewer in [alice, bob, carol] {
            let lines = try await viewer.transcript()
            #expect(lines.map(\.kind) == [.summary, .bubble])
            #expect(lines.first?.text == "Shared Cat icon ($2.99)")
            #expect(lines.last?.message?.template?.caption == "\(bobID.mention) liked Cat icon")
        }
    }

    @Test("Once liked, the button reads Liked and cannot be tapped again")
    func likeOnlyOnce() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        let view = await bob.view()
        #expect(view.visibleTexts.contains("Liked"))
        #expect(!view.hasEnabledControl("Like Cat icon"))
        #expect(!view.hasEnabledControl("You liked Cat icon"))
        #expect(await simulator.messages.count == 2)
    }

    @Test("Alice taps Bob's like and sees the Cat icon's detail")
    func tappingTheLikeShowsTheIcon() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        try await alice.dismissApp()
        let view = try await alice.tapLatestMessage()
        #expect(view.text(id: "detail-name") == "Cat icon")
        #expect(view.text(id: "detail-price") == "$2.99")
    }

    @Test("Bob and Carol like at the same time: both likes land in the session, none is lost")
    func concurrentLikesBothLand() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await carol.tapMessage(containing: "Cat icon")

        try await bob.tap("Like Cat icon")
        try await carol.tap("Like Cat icon")  // her selected message is no longer the session's head

        #expect(await carol.appError() == nil)
        let posted = await simulator.messages
        #expect(posted.map(\.sender) == ["Alice", "Bob", "Carol"])
        #expect(Set(posted.compactMap { $0.message?.session }).count == 1)
        let lines = try await alice.transcript()
        #expect(lines.map(\.kind) == [.summary, .summary, .bubble])
        #expect(lines.map(\.text).prefix(2) == ["Shared Cat icon ($2.99)", "Liked Cat icon"])
        let carolID = try await carol.participantID(in: "Icon Store")
        #expect(lines.last?.message?.template?.caption == "\(carolID.mention) liked Cat icon")
    }
}
