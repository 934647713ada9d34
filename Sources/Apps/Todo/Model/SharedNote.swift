/// A note read from someone's message: shown read-only, with whatever could not be read.
struct SharedNote: Sendable, Hashable, Codable {
    var title: String
    var priority: Priority?
    var date: NoteDate?
    /// Sentences saying what could not be read.
    var problems: [String]
}
