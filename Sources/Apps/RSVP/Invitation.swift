import Foundation
import ParlorKit

/// An RSVP as its message URL carries it: the title, who organized it, and who answered what.
///
/// The URL keeps the seed's items (`title`, `yesCount`, `noCount`) and adds `organizer`, `yes` and
/// `no`: participant ids in their 22-character base64url form, written one after another. The
/// counts always equal the lists: a URL where they differ is malformed. With any valid title the
/// URL holds at least 160 answers within the 5,000-character limit.
///
/// ```swift
/// let invitation = try Invitation(title: "Party at 8", organizer: me).answering(.yes, for: guest)
/// let read = try Invitation(url: invitation.url())
/// // read.yesCount == 1, read.answer(of: guest) == .yes
/// ```
public struct Invitation: Sendable, Hashable, Codable {
    /// A title has at most this many characters.
    public static let maxTitleLength = 100
    /// A title takes at most this many bytes of UTF-8, so that it never crowds the answers out of
    /// the URL (100 emoji fit; 100 family emoji, 25 bytes each, do not).
    public static let maxTitleBytes = 400
    static let baseURL = "https://parlor.example/rsvp"

    /// What the organizer asks, shown as the bubble's caption.
    public let title: String
    /// Who sent the session's first message.
    public let organizer: ParticipantID
    /// Who answered Yes, in the order they answered.
    public private(set) var yes: [ParticipantID]
    /// Who answered No, in the order they answered.
    public private(set) var no: [ParticipantID]

    /// A new RSVP that nobody has answered yet.
    /// - Throws: `.invalidValue` for an empty title, `.textExceedsMaxSize` for one over the limits.
    public init(title: String, organizer: ParticipantID) throws(MessagesError) {
        if let problem = Self.titleProblem(title) { throw problem }
        self.init(title: title, organizer: organizer, yes: [], no: [])
    }

    init(title: String, organizer: ParticipantID, yes: [ParticipantID], no: [ParticipantID]) {
        self.title = title
        self.organizer = organizer
        self.yes = yes
        self.no = no
    }

    public var yesCount: Int { yes.count }
    public var noCount: Int { no.count }

    /// The answer `participant` gave, if any.
    public func answer(of participant: ParticipantID) -> Answer? {
        if yes.contains(participant) { return .yes }
        if no.contains(participant) { return .no }
        return nil
    }

    /// This RSVP with `participant`'s answer set to `answer` (nil withdraws it): an answer moves
    /// a previous one, so each participant is counted once.
    public func answering(_ answer: Answer?, for participant: ParticipantID) -> Invitation {
        var updated = self
        updated.yes.removeAll { $0 == participant }
        updated.no.removeAll { $0 == participant }
        switch answer {
        case .yes: updated.yes.append(participant)
        case .no: updated.no.append(participant)
        case nil: break
        }
        return updated
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

    // MARK: The URL

    /// The message URL carrying this RSVP.
    /// - Throws: `.urlExceedsMaxSize` when the RSVP has no room for more answers.
    public func url() throws(MessagesError) -> URL {
        let items: QueryItems = [
            "title": title,
            "yesCount": String(yesCount),
            "noCount": String(noCount),
            "organizer": organizer.compactString,
            "yes": yes.map(\.compactString).joined(),
            "no": no.map(\.compactString).joined(),
        ]
        do throws(MessagesError) {
            return try items.url(base: Self.baseURL)
        } catch let error where error.code == .urlExceedsMaxSize {
            throw MessagesError(.urlExceedsMaxSize, "This RSVP is full: its message has no room for another answer. Start a new RSVP.")
        }
    }

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
        guard try items.int("yesCount") == yes.count, try items.int("noCount") == no.count else {
            throw MessagesError(.malformedURLState, "The RSVP's counts do not match the answers it lists.")
        }
        guard Set(yes + no).count == yes.count + no.count else {
            throw MessagesError(.malformedURLState, "The RSVP counts someone's answer more than once.")
        }
        self.init(title: title, organizer: organizer, yes: yes, no: no)
    }
}
