import Foundation
import ParlorKit

/// Shared to-dos, after the seed's ReactiveTodo app: a home surface to add notes and complete them,
/// and a message extension that shows the same list, from the same per-user container, to send
/// a note into a conversation.
///
/// One list, two behaviours: `NoteListFlow` (the seed's flow controller) picks them by surface.
/// A sent note travels in its URL (`title`, `priority`, `date`); the bubble shows the title, the
/// date (`Nov 21, 2026`) and the priority's image. Tapping a to-do message shows it read-only.
public struct Todo: MessagesApp {
    /// The app, as a host's directory lists it.
    public init() {}

    /// A green check in a rounded square, drawn (no emoji font needed).
    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#34a853"/><path d="M17 33l10 10 20-22" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/></svg>"##

    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.todo", name: "Todo",
            icon: .svg(Self.icon),
            summary: "Keep a to-do list and send a note from it into a conversation.", hasHomeSurface: true, keepsData: true)
    }

    public var assetsDirectory: URL? { Bundle.module.url(forResource: "Assets", withExtension: nil) }

    /// One user's view of the app on one surface.
    public struct State: Codable, Sendable {
        /// The user's notes, as last read from the container.
        var notes: [TodoNote] = []
        /// The add form (home surface).
        var draft = NoteDraft()
        /// The tapped to-do message, shown read-only.
        var detail: NoteDetail?
        /// The outcome of the last action, or why the list could not be read.
        var notice: String?
    }

    /// What the controls send.
    public enum Action: Codable, Sendable {
        /// The add form's fields (home surface).
        case setTitle(String)
        case setPriority(Priority)
        case setDate(String)
        /// The add form's button: adds the note to the user's list (home surface only).
        case add
        /// A note's row: complete it (home) or stage it as a message (conversation).
        case select(NoteID)
        /// Leaves a tapped message's detail for the user's own list.
        case closeDetail
    }

    public var initialState: State { State() }

    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        let flow = NoteListFlow(surface: environment.surface)
        VStack(spacing: 12) {
            if let detail = state.detail, environment.surface == .messages {
                NoteDetailView(detail: detail)
            } else {
                if let notice = state.notice { Text(notice, style: .callout, id: "notice") }
                NoteListView(notes: state.notes, flow: flow)
                if flow.canAddNotes {
                    Divider()
                    NoteFormView(draft: state.draft)
                }
            }
        }
    }

    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .setTitle(let title): state.draft.title = title
        case .setPriority(let priority): state.draft.priority = priority
        case .setDate(let date): state.draft.date = date
        case .add: try await add(state: &state, context: context)
        case .select(let id): try await NoteListFlow(surface: context.surface).select(id, state: &state, context: context)
        case .closeDetail: state.detail = nil
        }
    }

    /// Reads the shared list, and the tapped message if the app was opened by one.
    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.notice = nil
        state.detail = context.conversation.selectedMessage.map(NoteDetail.init)
        do {
            state.notes = try await NoteStore(container: context.container).load()
        } catch let error as MessagesError {
            state.notes = []
            state.notice = error.message
        }
    }

    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state.notice = nil
        state.detail = NoteDetail(message)
    }

    /// Refuses a to-do message whose URL does not carry a complete, valid note, or whose bubble
    /// shows something other than that note.
    public func validate(_ message: Message, replacing head: Message?) throws {
        try TodoMessage.validate(message)
    }

    private func add(state: inout State, context: AppContext) async throws {
        guard context.surface == .home else {
            throw MessagesError(.actionRefused, "Notes are added in the Todo app itself, not in a conversation.")
        }
        let note = try state.draft.note()
        state.notes = try await NoteStore(container: context.container).add(note)
        state.draft = NoteDraft()
        state.notice = "Added “\(note.title)”."
    }
}
