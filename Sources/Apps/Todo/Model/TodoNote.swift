import ParlorKit

/// Names the identifiers of notes.
public enum NoteTag: IdentifierTag { public static let name = "note id" }

/// Identifies a note in a user's list.
public typealias NoteID = Identifier<NoteTag>

/// One to-do: what to do, how urgent it is, and the day it is due.
public struct TodoNote: Sendable, Hashable, Codable, Identifiable {
    /// The longest title a note may have, in characters.
    public static let maxTitleLength = 100

    /// Tells notes apart in the list, even when two have the same title.
    public let id: NoteID
    /// What to do: trimmed, 1 to `maxTitleLength` characters.
    public let title: String
    public let priority: Priority
    /// The day it is due.
    public let date: NoteDate

    /// A note whose title is trimmed of surrounding whitespace.
    /// - Throws: `MessagesError(.invalidValue)` for an empty title, `.textExceedsMaxSize` for one
    ///   longer than `maxTitleLength`.
    public init(id: NoteID = NoteID(), title: String, priority: Priority, date: NoteDate) throws(MessagesError) {
        self.id = id
        self.title = try TodoNote.checkedTitle(title)
        self.priority = priority
        self.date = date
    }

    /// `title` trimmed, when it is a valid note title.
    /// - Throws: as `init(id:title:priority:date:)`.
    public static func checkedTitle(_ title: String) throws(MessagesError) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw MessagesError(.invalidValue, "Give the note a title.")
        }
        guard trimmed.count <= maxTitleLength else {
            throw MessagesError(
                .textExceedsMaxSize,
                "A note's title has at most \(maxTitleLength) characters; this one has \(trimmed.count).")
        }
        return trimmed
    }
}

/// What the user has typed into the add form so far.
public struct NoteDraft: Sendable, Hashable, Codable {
    /// The title as typed.
    public var title = ""
    public var priority = Priority.medium
    /// The date as typed, `yyyy-MM-dd` when it is right.
    public var date = ""

    /// An empty form: no title, medium priority, no date.
    public init() {}

    /// The note the form describes.
    /// - Throws: `MessagesError` saying which field is wrong and how.
    public func note() throws(MessagesError) -> TodoNote {
        let title = try TodoNote.checkedTitle(title)
        return try TodoNote(title: title, priority: priority, date: NoteDate(iso: date))
    }
}
