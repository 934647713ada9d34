import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

@Suite("RSVP: answers")
struct AnswerTests {
    @Test("Each participant has one answer, shown selected; choosing Can't go moves it")
    func oneAnswerPerParticipant() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        try await ann.createRSVP(titled: "Board games")
        let bobID = try await bob.rsvpID()

        try await bob.answerRSVP("Board games", "Going")
        let answered = await bob.view()
        #expect(answered.selectedAnswer == "Going", "shown selected, not disabled")
        #expect(answered.text(withID: "your-answer") == "Your answer: Going")
        #expect(try await simulator.latestRSVP().invitation.yes == [bobID])

        // Bob changes his mind in the same open view.
        try await bob.answer("Can't go")
        #expect(await bob.appError() == nil)
        let moved = try await simulator.latestRSVP().invitation
        #expect(moved.yes.isEmpty)
        #expect(moved.no == [bobID])
        #expect(await bob.view().text(withID: "yes-count") == "0 going")
        #expect(await bob.view().text(withID: "no-count") == "1 can't go")

        // Reopened later, the bubble still knows Bob's answer.
        try await bob.dismissApp()
        let reopened = try await bob.tapMessage(containing: "Board games")
        #expect(reopened.text(withID: "your-answer") == "Your answer: Can't go")
        #expect(reopened.selectedAnswer == "Can't go")
        #expect(await simulator.rsvpMessages().count == 3)
    }

    @Test("An invitation with a time and a place shows them in the bubble and the app; Maybe is counted and listed, and leaves its own line")
    func detailsAndMaybe() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [RSVP()])
        let ann = simulator.participant("Ann"), bob = simulator.participant("Bob")
        try await ann.openApp(named: "RSVP")
        try await ann.tap("Create RSVP")
        try await ann.type("Board games", into: "Title")
        try await ann.type("Friday at 8 PM", into: "when")
        try await ann.type("Ann's place", into: "place")
        try await ann.tap("Create")
        let staged = try #require(await ann.staged()?.message?.template)
        #expect(staged.imageTitle == "Friday at 8 PM" && staged.imageSubtitle == "Ann's place")
        try await ann.sendStaged()

        try await bob.answerRSVP("Board games", "Maybe")
        let view = await bob.view()
        #expect(view.text(withID: "when") == "When: Friday at 8 PM")
        #expect(view.text(withID: "place") == "Where: Ann's place")
        #expect(view.selectedAnswer == "Maybe")
        #expect(view.text(withID: "maybe-count") == "1 maybe")
        #expect(try await simulator.latestRSVP().message.template?.subcaption == "0 going · 1 maybe · 0 can't go")
        try await bob.answer("Going")
        #expect(try await simulator.latestRSVP().message.template?.subcaption == "1 going · 0 can't go", "no maybe left: the seed's line")
        let lines = try await ann.transcript().map(\.namedText)
        #expect(lines.contains("Bob might go"), "\(lines)")

        let organizerView = try await ann.tapMessage(containing: "Board games")
        #expect(organizerView.text(withID: "maybe-names") == "Maybe (0): nobody yet")
        #expect(organizerView.answered("yes")?.count == 1)
    }

    @Test("Everyone sees who is going and who cannot, by name, as the transcript's lines say it")
    func organizerSeesWhoAnswered() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol", "Dan"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        let dan = simulator.participant("Dan")
        try await ann.createRSVP(titled: "Dinner")
        try await bob.answerRSVP("Dinner", "Going")
        try await carol.answerRSVP("Dinner", "Can't go")
        try await dan.answerRSVP("Dinner", "Going")

        let organizerView = try await ann.tapMessage(containing: "Dinner")
        let bobID = try await bob.rsvpID()
        let carolID = try await carol.rsvpID()
        let danID = try await dan.rsvpID()
        #expect(organizerView.answered("yes") == [bobID.mention, danID.mention])
        #expect(organizerView.answered("no") == [carolID.mention])
        #expect(organizerView.answered("maybe") == [])
        #expect(organizerView.text(withID: "yes-names") == "Going (2): \(bobID.mention), \(danID.mention)")
        #expect(organizerView.text(withID: "maybe-names") == "Maybe (0): nobody yet")

        let guestView = try await carol.tapMessage(containing: "Dinner")
        #expect(guestView.answered("yes") == [bobID.mention, danID.mention])
        #expect(guestView.text(withID: "no-names") == "Can't go (1): \(carolID.mention)")
        #expect(guestView.text(withID: "yes-count") == "2 going")
    }

    @Test("Who answered says 'nobody yet' before anyone answers, and fills in while it is open")
    func organizerListUpdatesLive() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        try await ann.createRSVP(titled: "Karaoke")
        let before = try await ann.tapMessage(containing: "Karaoke")
        #expect(before.answered("yes") == [])

        try await bob.answerRSVP("Karaoke", "Going")
        #expect(await ann.view().answered("yes") == [try await bob.rsvpID().mention])
    }

    @Test("Answers leave readable lines: who asked, who answered what, who changed their answer; the RSVP stays in its organizer's name")
    func summaryLines() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        try await ann.createRSVP(titled: "Movie night")
        try await bob.answerRSVP("Movie night", "Going")
        try await bob.answer("Can't go")
        try await carol.answerRSVP("Movie night", "Going")

        let (annID, bobID, carolID) = try await (ann.rsvpID(), bob.rsvpID(), carol.rsvpID())
        let transcript = try await carol.transcript()
        #expect(transcript.filter { $0.kind == .summary }.map(\.text) == [
            "\(annID.mention) asked: Movie night",
            "\(bobID.mention) is going",
            "\(bobID.mention) changed to Can't go",
            "\(carolID.mention) is going",
        ])
        #expect(try await simulator.latestRSVP().message.summaryText == "\(carolID.mention) is going")
        #expect(transcript.last?.kind == .bubble && transcript.last?.sender == "Ann", "Carol's answer leaves the RSVP on Ann's side")
    }

    @Test("100 participants answer one RSVP: all are counted and listed, and the URL stays within 5,000 characters")
    func hundredParticipants() async throws {
        let guests = (1...100).map { "Guest \($0)" }
        let simulator = ConversationSimulator(participants: ["Ann"] + guests, apps: [RSVP()])
        let ann = simulator.participant("Ann")
        try await ann.createRSVP(titled: "Company picnic")
        for (index, name) in guests.enumerated() {
            let guest = simulator.participant(name)
            try await guest.answerRSVP("Company picnic", index.isMultiple(of: 3) ? "Can't go" : "Going")
            #expect(await guest.appError() == nil, "\(name) could not answer")
            try await guest.dismissApp()
        }

        let (invitation, message) = try await simulator.latestRSVP()
        #expect(invitation.yesCount == 66)
        #expect(invitation.noCount == 34)
        let url = try #require(message.url)
        #expect(url.absoluteString.count <= Limits.maxURLLength)
        #expect(message.template?.subcaption.map { $0.hasPrefix("66 going · ") } == true)

        var expected: Set<ParticipantID> = []
        for name in guests { expected.insert(try await simulator.participant(name).rsvpID()) }
        #expect(Set(invitation.yes + invitation.no) == expected)
        let organizerView = try await ann.tapMessage(containing: "Company picnic")
        #expect((organizerView.answered("yes")?.count ?? 0) + (organizerView.answered("no")?.count ?? 0) == 100)
    }
}
