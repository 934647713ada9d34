import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

@Suite("RSVP: the seed's flow")
struct SeedFlowTests {
    let title = "Are you coming to my party?"

    @Test("Ann creates an RSVP and four friends answer: every answer updates one message in the same session")
    func fiveParticipants() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol", "Dan", "Eve"], apps: [RSVP()])
        let ann = simulator.participant("Ann")

        let drawer = try await ann.openApp(named: "RSVP")
        #expect(await ann.presentationStyle() == .compact)
        #expect(drawer.isButtonDisabled("Create RSVP") == false)
        try await ann.tap("Create RSVP")
        let form = await ann.view()
        #expect(await ann.presentationStyle() == .expanded)
        #expect(form.visibleTexts.contains("Title"))
        try await ann.type(title, into: "Title")
        try await ann.tap("Create")
        #expect(await ann.presentationStyle() == .compact)

        let staged = try #require(await ann.staged()?.message)
        #expect(staged.template == TemplateLayout(
            image: .asset("partyballoons.png"), caption: title, subcaption: "0 going · 0 can't go"))
        let created = try QueryItems(url: #require(staged.url))
        #expect(created["title"] == title)
        #expect(created["yesCount"] == "0")
        #expect(created["noCount"] == "0")
        let session = try #require(staged.session)
        try await ann.sendStaged()

        for (name, choice) in [("Bob", "Going"), ("Carol", "Going"), ("Dan", "Can't go"), ("Eve", "Going")] {
            let guest = simulator.participant(name)
            let selection = try await guest.tapMessage(containing: title)
            #expect(await guest.presentationStyle() == .expanded)
            #expect(selection.text(withID: "title") == title)
            #expect(selection.selectedAnswer == "", "nothing chosen yet")
            try await guest.answer(choice)
            #expect(await guest.appError() == nil)
        }

        let messages = await simulator.rsvpMessages()
        #expect(messages.count == 5)
        #expect(messages.allSatisfy { $0.session == session })
        let final = try QueryItems(url: #require(messages.last?.url))
        #expect(final["title"] == title)
        #expect(final["yesCount"] == "3")
        #expect(final["noCount"] == "1")

        // The session is one bubble with the latest counts, still Ann's; each answer left its summary line.
        let transcript = try await ann.transcript()
        let bubbles = transcript.filter { $0.kind == .bubble }
        #expect(bubbles.count == 1)
        #expect(bubbles.first?.sender == "Ann")
        #expect(bubbles.first?.template?.caption == title)
        #expect(bubbles.first?.template?.subcaption == "3 going · 1 can't go")
        #expect(bubbles.first?.template?.trailingSubcaption == nil)
        #expect(transcript.filter { $0.kind == .summary }.count == 5)
    }

    @Test("Create stays disabled while the title is empty or blank; Return in the field creates the RSVP")
    func createNeedsATitle() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        try await ann.openApp(named: "RSVP")
        try await ann.tap("Create RSVP")
        #expect(await ann.view().isButtonDisabled("Create") == true)
        try await ann.type("   ", into: "Title")
        #expect(await ann.view().isButtonDisabled("Create") == true)
        await #expect(throws: SimulatorError.self) { try await ann.tap("Create") }
        #expect(await ann.staged() == nil)

        try await ann.submit("Picnic on Sunday", in: "Title")
        #expect(await ann.staged()?.message?.template?.caption == "Picnic on Sunday")
        #expect(await ann.presentationStyle() == .compact)
    }

    @Test("A title over 100 characters is refused with the limit; one too heavy to fit in a message says so")
    func titleLimit() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        try await ann.openApp(named: "RSVP")
        try await ann.tap("Create RSVP")

        try await ann.type(String(repeating: "a", count: 101), into: "Title")
        let refusal = try #require(await ann.appError())
        #expect(refusal.code == .textExceedsMaxSize)
        #expect(refusal.message.contains("100"))

        // 100 characters, but each a family emoji of 25 bytes: too large for the message URL.
        try await ann.type(String(repeating: "👨‍👩‍👧‍👦", count: 100), into: "Title")
        let view = await ann.view()
        #expect(view.text(withID: "title-problem") == "This title uses too many symbols to fit in a message; shorten it.")
        #expect(view.isButtonDisabled("Create") == true)

        try await ann.type(String(repeating: "🎉", count: 100), into: "Title")
        #expect(await ann.view().isButtonDisabled("Create") == false)
    }

    @Test("The party image ships in the app's Assets folder and the bubble names it")
    func partyImage() throws {
        let assets = try #require(RSVP().assetsDirectory)
        let image = assets.appendingPathComponent(Invitation.imageName)
        let data = try Data(contentsOf: image)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // PNG signature
        let invitation = try Invitation(title: "Party", organizer: ParticipantID())
        #expect(invitation.layout.image == .asset(Invitation.imageName))
    }

    @Test("Every screen's controls are labelled, and the bubble reads out the title and counts")
    func accessibility() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [RSVP()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        #expect(try await ann.openApp(named: "RSVP").accessibilityProblems.isEmpty)
        try await ann.tap("Create RSVP")
        #expect(await ann.view().accessibilityProblems.isEmpty)
        try await ann.type("Party", into: "Title")
        try await ann.tap("Create")
        try await ann.sendStaged()
        try await bob.answerRSVP("Party", "Going")
        #expect(await bob.view().accessibilityProblems.isEmpty)
        #expect(try await ann.tapMessage(containing: "Party").accessibilityProblems.isEmpty)
        #expect(try await simulator.latestRSVP().message.accessibilityLabel == "RSVP: Party. 1 going, 0 can't go.")
    }
}
