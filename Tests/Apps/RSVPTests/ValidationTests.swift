import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

@Suite("RSVP: the host refuses forged messages")
struct ValidationTests {
    @Test("A forged message sent through the host is refused with actionRefused and the RSVP is unchanged", arguments: Forgery.allCases)
    func forgedMessageRefusedByHost(_ forgery: Forgery) async throws {
        let mallory = ForgingClient { head, sender in try forgery.message(head: head, sender: sender) }
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Mallory"], apps: [mallory])
        let ann = simulator.participant("Ann")
        try await ann.createRSVP(titled: "Party")
        try await simulator.participant("Bob").answerRSVP("Party", "Going")
        let before = await simulator.rsvpMessages()

        let forger = simulator.participant("Mallory")
        if forgery.startsSession {
            try await forger.openApp(named: "RSVP")
        } else {
            try await forger.tapMessage(containing: "Party")
        }
        try await forger.tap("Forge")

        let refusal = try #require(await forger.appError())
        #expect(refusal.code == .actionRefused)
        #expect(refusal.message.contains(forgery.reason))
        #expect(await simulator.rsvpMessages() == before)
    }

    @Test("The forging client's honest answer is accepted, so the refusals above come from validation")
    func honestAnswerThroughForgingClientAccepted() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Mallory"], apps: [ForgingClient { _, _ in Message() }])
        try await simulator.participant("Ann").createRSVP(titled: "Party")
        let forger = simulator.participant("Mallory")
        try await forger.answerRSVP("Party", "Going")
        #expect(await forger.appError() == nil)
        #expect(try await simulator.latestRSVP().invitation.yes == [try await forger.rsvpID()])
    }

    @Test("validate refuses each forgery on its own, with a reason", arguments: Forgery.allCases)
    func validateRefusesForgery(_ forgery: Forgery) throws {
        let (head, sender) = try Self.answeredHead()
        var forged = try forgery.message(head: forgery.startsSession ? nil : head, sender: sender)
        forged.senderParticipantIdentifier = sender
        let error = #expect(throws: MessagesError.self) {
            try RSVP().validate(forged, replacing: forgery.startsSession ? nil : head)
        }
        #expect(error?.code == .actionRefused)
        #expect(error?.message == "RSVP refused this message. \(forgery.reason)")
    }

    @Test("validate accepts an honest new RSVP, an honest answer and an honest change of answer")
    func validateAcceptsHonestMessages() throws {
        let (head, sender) = try Self.answeredHead()
        let session = try #require(head.session)
        let current = try Invitation(url: head.url)

        var answer = try current.answering(.yes, for: sender)
            .message(session: session, summary: Invitation.answerSummary(by: sender, answer: .yes, previous: nil))
        answer.senderParticipantIdentifier = sender
        try RSVP().validate(answer, replacing: head)

        var change = try current.answering(.yes, for: sender).answering(.no, for: sender)
            .message(session: session, summary: Invitation.answerSummary(by: sender, answer: .no, previous: .yes))
        change.senderParticipantIdentifier = sender
        try RSVP().validate(change, replacing: answer)

        let fresh = try Invitation(title: "Brunch", organizer: sender)
        var created = try fresh.message(session: Session(), summary: fresh.creationSummary)
        created.senderParticipantIdentifier = sender
        try RSVP().validate(created, replacing: nil)

        // Whose name the bubble is drawn in is part of the message: an answer that would take
        // the RSVP over (drawn as the answerer's own), or an RSVP created as an answer, is refused.
        var takeover = answer
        takeover.answersSession = false
        #expect(throws: MessagesError.self) { try RSVP().validate(takeover, replacing: head) }
        var createdAsAnswer = created
        createdAsAnswer.answersSession = true
        #expect(throws: MessagesError.self) { try RSVP().validate(createdAsAnswer, replacing: nil) }
    }

    @Test("An answer that reorders other people's answers is refused: RSVP lists them in the order given")
    func reorderingOthersIsRefused() throws {
        let (first, second, sender) = (ParticipantID(), ParticipantID(), ParticipantID())
        let current = try Invitation(title: "Party", organizer: first).answering(.yes, for: first).answering(.yes, for: second)
        var head = try current.message(session: Session(), summary: Invitation.answerSummary(by: second, answer: .yes, previous: nil))
        head.senderParticipantIdentifier = second
        let session = try #require(head.session)
        // The sender's honest No, with the Yes list turned round.
        let reordered = current.answering(nil, for: first).answering(.yes, for: first).answering(.no, for: sender)
        #expect(reordered.participants(answering: .yes) == [second, first])
        var forged = try reordered.message(session: session, summary: Invitation.answerSummary(by: sender, answer: .no, previous: nil))
        forged.senderParticipantIdentifier = sender
        let error = #expect(throws: MessagesError.self) { try RSVP().validate(forged, replacing: head) }
        #expect(error?.code == .actionRefused)
        var honest = try current.answering(.no, for: sender)
            .message(session: session, summary: Invitation.answerSummary(by: sender, answer: .no, previous: nil))
        honest.senderParticipantIdentifier = sender
        try RSVP().validate(honest, replacing: head)
    }

    /// A head where one guest answered Yes, and another participant about to send.
    static func answeredHead() throws -> (head: Message, sender: ParticipantID) {
        let organizer = ParticipantID()
        let guest = ParticipantID()
        let invitation = try Invitation(title: "Party", organizer: organizer).answering(.yes, for: guest)
        var head = try invitation.message(
            session: Session(), summary: Invitation.answerSummary(by: guest, answer: .yes, previous: nil))
        head.senderParticipantIdentifier = guest
        return (head, ParticipantID())
    }
}
