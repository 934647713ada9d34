import ParlorKit

/// What the one note list does on a surface: the seed's flow controllers. The list is the same
/// view on both surfaces; the flow chosen by `environment.surface` / `context.surface` decides
/// whether notes can be added and what selecting a note does.
///
/// - home: the add form is shown; selecting a note marks it completed (it leaves the list).
/// - messages: the add form is hidden; selecting a note stages it as a message.
struct NoteListFlow: Sendable {
    let surface: AppSurface

    /// Whether the add form is shown.
    var canAddNotes: Bool { surface == .home }

    /// The heading above the list.
    var heading: String { surface == .home ? "My to-dos" : "Send a to-do" }

    /// What selecting a note does, said above the list.
    var hint: String { surface == .home ? "Tap a note when it is done." : "Tap a note to send it." }

    /// Shown in place of an empty list.
    var emptyText: String {
        surface == .home ? "Nothing to do. Add a note below." : "No to-dos yet. Add some in the Todo app."
    }

    /// The accessibility label of a note's row, which says what selecting it does.
    func rowLabel(for note: TodoNote) -> String {
        surface == .home ? "Complete \(note.title)" : "Send \(note.title)"
    }

    /// Selects the note `id`: completes it on the home surface, stages it as a message in a
    /// conversation. The note is looked up in the container, so one completed on the other
    /// surface meanwhile is not sent.
    func select(_ id: NoteID, state: inout Todo.State, context: AppContext) async throws {
        let store = NoteStore(container: context.container)
        switch surface {
        case .home:
            let (notes, completed) = try await store.complete(id)
            state.notes = notes
            state.notice = completed.map { "Completed “\($0.title)”." } ?? "That note was already completed."
        case .messages:
            state.notes = try await store.load()
            guard let note = state.notes.first(where: { $0.id == id }) else {
                state.notice = "That note was completed in the meantime; it is no longer on your list."
                return
            }
            try await context.conversation.insert(TodoMessage.message(for: note))
            state.notice = "“\(note.title)” is ready to send."
        }
    }
}
