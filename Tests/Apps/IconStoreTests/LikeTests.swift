import IconStore
import ParlorKit
import ParlorTesting
import Testing

/// The seed's Airbnb idea: the recipient likes the shared icon and the like answers in the same
/// session, so the conversation keeps one bubble for the icon; the bubble still shows the icon in
/// full, with who likes it, and a like can be taken back.
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

    @Test("Like sends a reply at once in the icon's session that still shows the icon in full, with who likes it")
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
        #expect(like.template?.caption == "Cat icon", "the thing liked, not replaced by the like")
        #expect(like.template?.subcaption == "$2.99")
        #expect(like.template?.image == .asset("cat.png"))
        #expect(like.template?.trailingSubcaption == "♥ \(bobID.mention)")
        #expect(like.summaryText == "\(bobID.mention) liked Cat icon")
        #expect(like.accessibilityLabel?.hasSuffix("Liked by \(bobID.mention).") == true)
    }

    @Test("After the like the transcript keeps one bubble showing the icon, still in Alice's name, under the line saying Bob liked it")
    func transcriptCollapses() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        for viewer in [alice, bob, carol] {
            let lines = try await viewer.transcript()
            #expect(lines.map(\.kind) == [.summary, .summary, .bubble])
            #expect(lines.map(\.namedText).prefix(2) == ["Alice shared Cat icon ($2.99)", "Bob liked Cat icon"], "who shared it, who liked it")
            #expect(lines.last?.sender == "Alice", "a like does not move the icon to the liker's side")
            #expect(lines.last?.posted.sender == "Bob", "the bubble is Bob's like, which shows who likes it")
            #expect(lines.last?.message?.template?.caption == "Cat icon")
            #expect(lines.last?.namedText.hasSuffix("Liked by Bob.") == true, "read with names")
            #expect(lines.last?.message?.template?.trailingSubcaption?.contains("♥") == true)
        }
    }

    @Test("Once liked, the button takes the like back: Unlike sends a reply without it; liking again works")
    func unlike() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        let liked = await bob.view()
        #expect(liked.visibleTexts.contains("♥ Liked"))
        #expect(!liked.hasEnabledControl("Like Cat icon"))
        #expect(liked.hasEnabledControl("Unlike Cat icon"))

        try await bob.tap("Unlike Cat icon")
        #expect(await bob.appError() == nil)
        let posted = await simulator.messages
        #expect(posted.count == 3)
        #expect(posted.last?.message?.template?.trailingSubcaption == nil, "nobody likes it now")
        let bobID = try await bob.participantID(in: "Icon Store")
        #expect(posted.last?.message?.summaryText == "\(bobID.mention) unliked Cat icon")
        #expect(await bob.view().hasEnabledControl("Like Cat icon"))

        try await bob.tap("Like Cat icon")
        #expect(await simulator.messages.count == 4)
    }

    @Test("Alice taps Bob's like and sees the Cat icon's detail, with who likes it")
    func tappingTheLikeShowsTheIcon() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.tap("Like Cat icon")

        try await alice.dismissApp()
        let view = try await alice.tapLatestMessage()
        #expect(view.text(id: "detail-name") == "Cat icon")
        #expect(view.text(id: "detail-price") == "$2.99")
        let bobID = try await bob.participantID(in: "Icon Store")
        #expect(view.text(id: "likes") == "♥ \(bobID.mention)")
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
        #expect(lines.map(\.kind) == [.summary, .summary, .summary, .bubble])
        #expect(lines.map(\.namedText).prefix(3) == ["Alice shared Cat icon ($2.99)", "Bob liked Cat icon", "Carol liked Cat icon"])
        #expect(lines.last?.sender == "Alice")
        let (bobID, carolID) = (try await bob.participantID(in: "Icon Store"), try await carol.participantID(in: "Icon Store"))
        #expect(lines.last?.message?.template?.trailingSubcaption == "♥ \(bobID.mention) and \(carolID.mention)")
    }
}
