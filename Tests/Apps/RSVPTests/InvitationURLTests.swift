import Foundation
import ParlorKit
import ParlorTesting
import RSVP
import Testing

@Suite("RSVP: the message URL")
struct InvitationURLTests {
    @Test("The URL keeps title, yesCount and noCount and adds who answered; it reads back the same")
    func roundTrip() throws {
        let organizer = ParticipantID()
        let (ann, bob, carol) = (ParticipantID(), ParticipantID(), ParticipantID())
        let invitation = try Invitation(title: "Pizza & games = fun? 100%", organizer: organizer)
            .answering(.yes, for: ann).answering(.no, for: bob).answering(.yes, for: carol)
        let url = try invitation.url()
        let items = try QueryItems(url: url)
        #expect(items["title"] == "Pizza & games = fun? 100%")
        #expect(items["yesCount"] == "2")
        #expect(items["noCount"] == "1")
        #expect(items["yes"]?.count == 44)  // two ids, 22 characters each
        let read = try Invitation(url: url)
        #expect(read == invitation)
        #expect(read.answer(of: bob) == .no)
    }

    @Test("With the heaviest title allowed, 160 answers fit in 5,000 characters; a full RSVP says so")
    func capacity() throws {
        var invitation = try Invitation(title: String(repeating: "🎉", count: Invitation.maxTitleLength), organizer: ParticipantID())
        for index in 0..<160 { invitation = invitation.answering(index.isMultiple(of: 2) ? .yes : .no, for: ParticipantID()) }
        #expect(try invitation.url().absoluteString.count <= Limits.maxURLLength)

        for _ in 0..<40 { invitation = invitation.answering(.yes, for: ParticipantID()) }
        let error = #expect(throws: MessagesError.self) { try invitation.url() }
        #expect(error?.code == .urlExceedsMaxSize)
        #expect(error?.message.contains("Start a new RSVP") == true)
    }

    @Test("Malformed URLs are refused with a reason", arguments: MalformedURL.allCases)
    func malformedURLRefused(_ malformed: MalformedURL) throws {
        let error = #expect(throws: MessagesError.self) { try Invitation(url: malformed.url()) }
        #expect(error?.code == .malformedURLState)
    }

    @Test("A message with a malformed URL opens on a clear error, never a crash, and the user can start over", arguments: MalformedURL.allCases)
    func malformedMessageShowsError(_ malformed: MalformedURL) async throws {
        // A host that does not validate lets the message through, as an older app version might.
        let client = ForgingClient(validates: false) { _, _ in
            Message(session: Session(), url: try malformed.url(), layout: .template(TemplateLayout(caption: "Broken party")))
        }
        let simulator = ConversationSimulator(participants: ["Mallory", "Bob"], apps: [client])
        let mallory = simulator.participant("Mallory")
        try await mallory.openApp(named: "RSVP")
        try await mallory.tap("Forge")

        let bob = simulator.participant("Bob")
        let view = try await bob.tapMessage(containing: "Broken party")
        let problem = try #require(view.text(withID: "problem"))
        #expect(problem.hasPrefix("This RSVP could not be read."))
        #expect(view.isButtonDisabled("YES") == nil)
        try await bob.tap("Create RSVP")
        #expect(await bob.view().visibleTexts.contains("New RSVP"))
    }
}

/// Message URLs the app must not trust.
enum MalformedURL: String, CaseIterable, Sendable, CustomStringConvertible {
    case missingTitle, countDiffersFromList, notAParticipant, answeredTwice, cutShortList, notANumber, noURL

    var description: String { rawValue }

    func url() throws -> URL? {
        let voter = try Invitation(title: "Party", organizer: ParticipantID()).answering(.yes, for: ParticipantID())
        var items = try QueryItems(url: voter.url())
        let yes = try #require(items["yes"])
        switch self {
        case .missingTitle: items["title"] = nil
        case .countDiffersFromList: items["yesCount"] = "7"
        case .notAParticipant: items["yes"] = "this-is-not-an-id!!!!!"
        case .answeredTwice: (items["yes"], items["yesCount"]) = (yes + yes, "2")
        case .cutShortList: items["yes"] = String(yes.dropLast())
        case .notANumber: items["noCount"] = "zero"
        case .noURL: return nil
        }
        return try items.url(base: "https://parlor.example/rsvp")
    }
}
