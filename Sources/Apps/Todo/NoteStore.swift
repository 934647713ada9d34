import ParlorKit

/// A user's notes in the app's container, which the home surface and the message extension share
/// (the seed's app-group database). Every change reads the stored list first, so neither surface
/// overwrites what the other wrote.
struct NoteStore {
    /// The container key of the list.
    static let key = "notes"

    let container: any AppContainer

    /// The stored notes, soonest due first (equal dates in the order they were added).
    /// - Throws: `MessagesError(.invalidValue)` when the stored list cannot be read.
    func load() async throws -> [TodoNote] {
        do {
            return try await container.value([TodoNote].self, forKey: Self.key) ?? []
        } catch let error as MessagesError where error.code == .invalidValue {
            throw MessagesError(.invalidValue, "Your to-do list could not be read, so it is shown empty; adding a note starts a new list.")
        }
    }

    /// Adds `note` after the notes due on or before its day.
    /// - Returns: the list as stored.
    func add(_ note: TodoNote) async throws -> [TodoNote] {
        var notes: [TodoNote]
        do {
            notes = try await load()
        } catch let error as MessagesError where error.code == .invalidValue {
            notes = []  // An unreadable list is replaced, as `load()` told the user it would be.
        }
        let index = notes.firstIndex { $0.date > note.date } ?? notes.endIndex
        notes.insert(note, at: index)
        try await container.setValue(notes, forKey: Self.key)
        return notes
    }

    /// Removes the note `id`: it is done.
    /// - Returns: the list as stored, and the completed note (nil when it was already gone).
    func complete(_ id: NoteID) async throws -> (notes: [TodoNote], completed: TodoNote?) {
        var notes = try await load()
        guard let index = notes.firstIndex(where: { $0.id == id }) else { return (notes, nil) }
        let completed = notes.remove(at: index)
        try await container.setValue(notes, forKey: Self.key)
        return (notes, completed)
    }
}
