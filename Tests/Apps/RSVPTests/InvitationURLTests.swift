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
        #expect(read[bob] == .no)
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

    @Test("When, where and maybes: carried only when given (an RSVP without them keeps the seed's URL), read back the same; 130 answers fit with the heaviest of each")
    func detailsAndMaybe() throws {
        let (organizer, ann, bob) = (ParticipantID(), ParticipantID(), ParticipantID())
        let plain = try Invitation(title: "Games", when: "  ", place: nil, organizer: organizer)
        #expect(plain.when == nil, "a blank time is no time")
        let plainItems = try QueryItems(url: plain.url())
        #expect(plainItems["when"] == nil && plainItems["place"] == nil && plainItems["maybe"] == nil && plainItems["maybeCount"] == nil)

        let invitation = try Invitation(title: "Games", when: "Friday at 8 PM", place: "Ann's place", organizer: organizer)
            .answering(.maybe, for: ann).answering(.yes, for: bob)
        let items = try QueryItems(url: invitation.url())
        #expect(items["when"] == "Friday at 8 PM" && items["place"] == "Ann's place" && items["maybeCount"] == "1")
        let read = try Invitation(url: invitation.url())
        #expect(read == invitation)
        #expect(read[ann] == .maybe)
        #expect(read.countsText == "1 going · 1 maybe · 0 can't go")
        #expect(read.layout.imageTitle == "Friday at 8 PM" && read.layout.imageSubtitle == "Ann's place")
        #expect(read.accessibilityLabel == "RSVP: Games. Friday at 8 PM · Ann's place. 1 going, 1 maybe, 0 can't go.")
        #expect(read.answering(.no, for: ann).maybe.isEmpty, "an answer moves the maybe")

        #expect(throws: MessagesError.self) { try Invitation(title: "Games", when: String(repeating: "x", count: 61), organizer: organizer) }
        #expect(throws: MessagesError.self) { try Invitation(title: "Games", place: "line\nbreak", organizer: organizer) }

        var heaviest = try Invitation(
            title: String(repeating: "🎉", count: Invitation.maxTitleLength), when: String(repeating: "🕗", count: 30),
            place: String(repeating: "🏠", count: 30), organizer: organizer)
        for index in 0..<130 { heaviest = heaviest.answering(Answer.allCases[index % 3], for: ParticipantID()) }
        #expect(try heaviest.url().absoluteString.count <= Limits.maxURLLength)
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
        #expect(view.selectedAnswer == nil, "no answer control on an unreadable RSVP")
        try await bob.tap("Create RSVP")
        #expect(await bob.view().visibleTexts.contains("New RSVP"))
    }
}

/// Message URLs the app must not trust.
enum MalformedURL: String, CaseIterable, Sendable, CustomStringConvertible {
    case missingTitle, countDiffersFromList, notAParticipant, answeredTwice, cutShortList, notANumber, noURL
    case maybeCountWithoutList, yesAndMaybe, paddedPlace, placeTooLong

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
        case .maybeCountWithoutList: items["maybeCount"] = "2"
        case .yesAndMaybe: (items["maybe"], items["maybeCount"]) = (yes, "1")
        case .paddedPlace: items["place"] = " Ann's place "
        case .placeTooLong: items["place"] = String(repeating: "x", count: Invitation.maxDetailLength + 1)
        }
        return try items.url(base: "https://parlor.example/rsvp")
    }
}
