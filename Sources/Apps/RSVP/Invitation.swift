import Foundation
import ParlorKit

/// An RSVP as its message URL carries it: the title, when and where (both optional), who organized
/// it, and who answered what.
///
/// The URL keeps the seed's items (`title`, `yesCount`, `noCount`) and adds `organizer`, `yes` and
/// `no`: participant ids in their 22-character base64url form, written one after another; `when`,
/// `place`, `maybe` and `maybeCount` only when they have something to say, so an RSVP without them
/// has the seed's URL. The counts always equal the lists: a URL where they differ is malformed.
/// Within the 5,000-character limit the URL holds at least 160 answers with any valid title, and
/// at least 130 with the heaviest title, time and place too.
///
/// ```swift
/// let invitation = try Invitation(title: "Party at 8", organizer: me).answering(.yes, for: guest)
/// let read = try Invitation(url: invitation.url())
/// // read.yesCount == 1, read[guest] == .yes
/// ```
public struct Invitation: SessionState, Sendable, Hashable, Codable {
    /// A title has at most this many characters.
    public static let maxTitleLength = 100
    /// A title takes at most this many bytes of UTF-8, so that it never crowds the answers out of
    /// the URL (100 emoji fit; 100 family emoji, 25 bytes each, do not).
    public static let maxTitleBytes = 400
    /// When and where each have at most this many characters, and this many bytes.
    public static let maxDetailLength = 60
    public static let maxDetailBytes = 120
    static let baseURL = "https://parlor.example/rsvp"

    /// What the organizer asks, shown as the bubble's caption.
    public let title: String
    /// When it happens, as the organizer wrote it ("Friday at 8 PM"); nil when not said.
    public let when: String?
    /// Where it happens; nil when not said.
    public let place: String?
    /// Who sent the session's first message.
    public let organizer: ParticipantID
    /// Who answered Yes, in the order they answered.
    public private(set) var yes: [ParticipantID]
    /// Who answered No, in the order they answered.
    public private(set) var no: [ParticipantID]
    /// Who answered Maybe, in the order they answered.
    public private(set) var maybe: [ParticipantID]

    /// A new RSVP that nobody has answered yet.
    /// - Parameters:
    ///   - when: when it happens, as people write it; blank or nil when not said.
    ///   - place: where it happens; blank or nil when not said.
    /// - Throws: `.invalidValue` for an empty title, `.textExceedsMaxSize` for a title, time or
    ///   place over the limits.
    public init(title: String, when: String? = nil, place: String? = nil, organizer: ParticipantID) throws(MessagesError) {
        if let problem = Self.titleProblem(title) { throw problem }
        let when = Self.detail(when), place = Self.detail(place)
        if let problem = Self.detailProblem(when, name: "The time") ?? Self.detailProblem(place, name: "The place") { throw problem }
        self.init(title: title, when: when, place: place, organizer: organizer, yes: [], no: [], maybe: [])
    }

    init(title: String, when: String?, place: String?, organizer: ParticipantID, yes: [ParticipantID], no: [ParticipantID], maybe: [ParticipantID]) {
        self.title = title
        self.when = when
        self.place = place
        self.organizer = organizer
        self.yes = yes
        self.no = no
        self.maybe = maybe
    }

    /// What the organizer set, which no answer changes (`SessionState`'s `fixed`).
    public struct Details: Equatable, Sendable {
        let title: String, when: String?, place: String?, organizer: ParticipantID
    }

    /// The title, time, place and organizer.
    public var fixed: Details { Details(title: title, when: when, place: place, organizer: organizer) }

    /// Everyone who answered.
    public var participants: Set<ParticipantID> { Set(yes + maybe + no) }

    public var yesCount: Int { yes.count }
    public var noCount: Int { no.count }
    public var maybeCount: Int { maybe.count }

    /// A participant's answer. Setting one moves an earlier one, so each participant is counted
    /// once, in the order of their latest answer; nil withdraws it.
    public subscript(participant: ParticipantID) -> Answer? {
        get { Answer.allCases.first { participants(answering: $0).contains(participant) } }
        set {
            for list in [\Self.yes, \.maybe, \.no] { self[keyPath: list].removeAll { $0 == participant } }
            switch newValue {
            case .yes: yes.append(participant)
            case .maybe: maybe.append(participant)
            case .no: no.append(participant)
            case nil: break
            }
        }
    }

    /// This RSVP with `participant`'s answer set to `answer` (nil withdraws it).
    public func answering(_ answer: Answer?, for participant: ParticipantID) -> Invitation {
        var updated = self
        updated[participant] = answer
        return updated
    }

    /// Who gave `answer`, in the order they answered.
    public func participants(answering answer: Answer) -> [ParticipantID] {
        switch answer {
        case .yes: yes
        case .maybe: maybe
        case .no: no
        }
    }

    /// What is wrong with `title` as an RSVP title, or nil when it is fine.
    public static func titleProblem(_ title: String) -> MessagesError? {
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return MessagesError(.invalidValue, "Give the RSVP a title.")
        }
        if title.count > maxTitleLength {
            return MessagesError(.textExceedsMaxSize, "A title has at most \(maxTitleLength) characters; this one has \(title.count).")
        }
        if title.utf8.count > maxTitleBytes {
            return MessagesError(.textExceedsMaxSize, "This title uses too many symbols to fit in a message; shorten it.")
        }
        return nil
    }

    /// A time or place as stored: trimmed, nil when blank.
    static func detail(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// What is wrong with a time or place (`name`: "The time"), or nil when it is fine.
    public static func detailProblem(_ text: String?, name: String) -> MessagesError? {
        guard let text else { return nil }
        if text.count > maxDetailLength {
            return MessagesError(.textExceedsMaxSize, "\(name) has at most \(maxDetailLength) characters; this one has \(text.count).")
        }
        if text.utf8.count > maxDetailBytes {
            return MessagesError(.textExceedsMaxSize, "\(name) uses too many symbols to fit in a message; shorten it.")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return MessagesError(.invalidValue, "\(name) is one line of text.")
        }
        return nil
    }

    // MARK: The URL

    /// The message URL carrying this RSVP.
    /// - Throws: `.urlExceedsMaxSize` when the RSVP has no room for more answers.
    public func url() throws(MessagesError) -> URL {
        var items: QueryItems = [
            "title": title,
            "yesCount": String(yesCount),
            "noCount": String(noCount),
            "organizer": organizer.compactString,
            "yes": yes.map(\.compactString).joined(),
            "no": no.map(\.compactString).joined(),
        ]
        if let when { items["when"] = when }
        if let place { items["place"] = place }
        if !maybe.isEmpty {
            items["maybeCount"] = String(maybeCount)
            items["maybe"] = maybe.map(\.compactString).joined()
        }
        do throws(MessagesError) {
            return try items.url(base: Self.baseURL)
        } catch let error where error.code == .urlExceedsMaxSize {
            throw MessagesError(.urlExceedsMaxSize, "This RSVP is full: its message has no room for another answer. Start a new RSVP.")
        }
    }

    /// Reads the RSVP `message` carries.
    /// - Throws: `.malformedURLState`, as `init(url:)`.
    public init(message: Message?) throws(MessagesError) { try self.init(url: message?.url) }

    /// Reads the RSVP a message URL carries.
    /// - Throws: `.malformedURLState` saying what is wrong: a missing item, a count that differs
    ///   from its list, an id that is not one, someone who answered twice, an invalid title.
    public init(url: URL?) throws(MessagesError) {
        guard let url else { throw MessagesError(.malformedURLState, "The message carries no RSVP.") }
        let items = try QueryItems(url: url)
        let title = try items.require("title")
        if let problem = Self.titleProblem(title) {
            throw MessagesError(.malformedURLState, "The RSVP's title is invalid: \(problem.message)")
        }
        guard let organizer = ParticipantID(compactString: try items.require("organizer")) else {
            throw MessagesError(.malformedURLState, "The RSVP's organizer is not a participant.")
        }
        let yes = try ParticipantID.list(compact: items.require("yes"), item: "yes")
        let no = try ParticipantID.list(compact: items.require("no"), item: "no")
        let maybe = try ParticipantID.list(compact: items["maybe"] ?? "", item: "maybe")
        let maybeCount = items["maybeCount"] == nil ? 0 : try items.int("maybeCount")
        guard try items.int("yesCount") == yes.count, try items.int("noCount") == no.count, maybeCount == maybe.count else {
            throw MessagesError(.malformedURLState, "The RSVP's counts do not match the answers it lists.")
        }
        guard Set(yes + no + maybe).count == yes.count + no.count + maybe.count else {
            throw MessagesError(.malformedURLState, "The RSVP counts someone's answer more than once.")
        }
        let when = items["when"], place = items["place"]
        for (value, name) in [(when, "The time"), (place, "The place")] {
            if value.map({ Self.detail($0) != $0 }) == true {
                throw MessagesError(.malformedURLState, "\(name) of the RSVP is blank or padded.")
            }
            if let problem = Self.detailProblem(value, name: name) {
                throw MessagesError(.malformedURLState, "The RSVP's details are invalid: \(problem.message)")
            }
        }
        self.init(title: title, when: when, place: place, organizer: organizer, yes: yes, no: no, maybe: maybe)
    }
}
