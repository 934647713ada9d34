import ParlorKit

/// A note as a message: the note travels in the URL's query (title, priority, date), the bubble
/// shows it as the seed's `MessageFactory` did: caption = title, subcaption = date, image = priority.
enum TodoMessage {
    /// Where the note's query items go.
    static let base = "https://parlor.example/todo"

    /// The message sharing `note`.
    /// - Throws: `MessagesError` when the message breaks a limit (it cannot for a valid note).
    static func message(for note: TodoNote) throws(MessagesError) -> Message {
        let url = try QueryItems([
            "title": note.title, "priority": note.priority.rawValue, "date": note.date.iso,
        ]).url(base: base)
        return Message(
            url: url, layout: .template(layout(title: note.title, priority: note.priority, date: note.date)),
            summaryText: "To-do: \(note.title)",
            accessibilityLabel: "To-do: \(note.title). \(note.priority.label), due \(note.date.formatted).")
    }

    /// The bubble of a note.
    static func layout(title: String, priority: Priority, date: NoteDate) -> TemplateLayout {
        TemplateLayout(image: priority.image, caption: title, subcaption: date.formatted)
    }

    /// Reads the note a message carries, as much of it as can be read: a title is needed, an
    /// unknown priority or a malformed date is reported in `problems` rather than refused.
    /// - Throws: `MessagesError(.malformedURLState)` when there is no note to show.
    static func read(_ message: Message) throws(MessagesError) -> SharedNote {
        guard let url = message.url else {
            throw MessagesError(.malformedURLState, "This to-do message carries no note.")
        }
        let items = try QueryItems(url: url)
        let title = (items["title"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            throw MessagesError(.malformedURLState, "This to-do message has no title, so there is nothing to show.")
        }
        var note = SharedNote(title: title, priority: nil, date: nil, problems: [])
        if title.count > TodoNote.maxTitleLength {
            note.title = String(title.prefix(TodoNote.maxTitleLength)) + "…"
            note.problems.append("The title was longer than \(TodoNote.maxTitleLength) characters and is cut short.")
        }
        if let text = items["priority"] {
            note.priority = Priority(loosely: text)
            if note.priority == nil { note.problems.append("The priority '\(text.prefix(20))' is not low, medium or high.") }
        } else {
            note.problems.append("The message gives no priority.")
        }
        do {
            note.date = try NoteDate(iso: items["date"] ?? "")
        } catch {
            note.problems.append(items["date"] == nil ? "The message gives no date." : error.message)
        }
        return note
    }

    /// Checks that `message` carries a complete, valid note and that its bubble shows that note,
    /// so nobody can post a bubble that says something other than its note.
    /// - Throws: `MessagesError(.actionRefused)` saying what is wrong.
    static func validate(_ message: Message) throws(MessagesError) {
        let note: SharedNote
        do {
            note = try read(message)
        } catch {
            throw MessagesError(.actionRefused, error.message)
        }
        guard note.problems.isEmpty, let priority = note.priority, let date = note.date else {
            throw MessagesError(.actionRefused, "This to-do message is incomplete: \(note.problems.joined(separator: " "))")
        }
        guard message.layout == .template(layout(title: note.title, priority: priority, date: date)) else {
            throw MessagesError(.actionRefused, "A to-do bubble must show its note's title, date and priority image.")
        }
    }
}
