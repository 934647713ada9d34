import Foundation
import ParlorKit

/// Shared to-dos, after the seed's ReactiveTodo app: a home surface to add notes and complete them,
/// and a message extension that shows the same list, from the same per-user container, to send
/// a note into a conversation. In a conversation it also keeps a list everyone there shares
/// (`SharedList`, one session): anyone adds items and checks them off, and sees who did.
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
            summary: "Keep a to-do list, send a note from it, or share a list a whole conversation adds to and checks off.", hasHomeSurface: true, keepsData: true,
            answersSessions: true)
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
        /// The shared list opened from its bubble, and its session.
        var list: SharedList?
        var listSession: Session?
        /// What is typed for a shared list: its first item, or the next one.
        var itemDraft = ""
        /// The item of the open shared list whose text is being changed, and the text typed for it.
        var editing: String?
        var editDraft = ""

        /// Closes the item being changed, if any.
        mutating func stopEditing() { (editing, editDraft) = (nil, "") }
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
        /// A shared list's field.
        case setItem(String)
        /// Stages a new shared list with the typed item as its first.
        case startList
        /// Adds the typed item to the open shared list, for everyone.
        case addItem
        /// Marks an item of the open shared list done, or open again: what the person saw and
        /// meant, so a change someone made meanwhile is not undone.
        case setDone(String, Bool)
        /// Opens an item of one's own for changing its text (or removing it).
        case edit(String)
        /// Closes it, its text as it was.
        case cancelEdit
        /// The text typed for the item being changed.
        case setEdit(String)
        /// Gives the item being changed its typed text, for everyone.
        case saveEdit
        /// Takes an item of one's own off the list, for everyone.
        case remove(String)
    }

    public var initialState: State { State() }

    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        let flow = NoteListFlow(surface: environment.surface)
        VStack(spacing: 12) {
            if let detail = state.detail, environment.surface == .messages {
                NoteDetailView(detail: detail)
            } else if let list = state.list, environment.surface == .messages {
                if let notice = state.notice { Text(notice, style: .callout, id: "notice") }
                SharedListView(
                    list: list, me: environment.localParticipantIdentifier, draft: state.itemDraft,
                    editing: state.editing.map { ($0, state.editDraft) })
            } else if flow.canAddNotes {
                if let notice = state.notice { Text(notice, style: .callout, id: "notice") }
                NoteListView(notes: state.notes, flow: flow)
                Divider()
                NoteFormView(draft: state.draft)
            } else {
                // In a conversation, what people come for first: a list they all share; then
                // one of the person's own notes to send.
                if let notice = state.notice { Text(notice, style: .callout, id: "notice") }
                StartListView(draft: state.itemDraft)
                Divider()
                NoteListView(notes: state.notes, flow: flow)
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
        case .setItem(let text): state.itemDraft = text
        case .startList: try await startList(state: &state, context: context)
        case .addItem:
            let title = state.itemDraft
            try await changeList(state: &state, context: context) { list, me throws(MessagesError) in try list.add(title, by: me) }
            state.itemDraft = ""
        case .setDone(let id, let done):
            try await changeList(state: &state, context: context) { list, me throws(MessagesError) in try list.setDone(id, done, by: me) }
        case .edit(let id):
            guard let item = state.list?.items.first(where: { $0.id == id }) else {
                throw MessagesError(.actionRefused, "That item is not on this list.")
            }
            (state.editing, state.editDraft) = (id, item.title)
        case .cancelEdit: state.stopEditing()
        case .setEdit(let text): state.editDraft = text
        case .saveEdit:
            guard let id = state.editing else { return }
            let title = state.editDraft
            try await changeList(state: &state, context: context) { list, me throws(MessagesError) in try list.rename(id, to: title, by: me) }
            state.stopEditing()
        case .remove(let id):
            try await changeList(state: &state, context: context) { list, me throws(MessagesError) in try list.remove(id, by: me) }
            if state.editing == id { state.stopEditing() }
        }
    }

    /// Reads the shared list, and the tapped message if the app was opened by one.
    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.notice = nil
        show(context.conversation.selectedMessage, in: &state)
        do {
            state.notes = try await NoteStore(container: context.container).load()
        } catch let error as MessagesError {
            state.notes = []
            state.notice = error.message
        }
    }

    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state.notice = nil
        show(message, in: &state)
    }

    /// What was staged is on its way: "ready to send" is no longer true. A list just started stays
    /// open, to go on adding to it.
    public func didStartSending(_ message: Message, state: inout State, context: AppContext) async throws {
        state.notice = nil
        if state.list == nil, SharedList.carries(message), let list = try? SharedList(message: message) {
            (state.list, state.listSession) = (list, message.session)
        }
    }

    /// Keeps the open shared list current when someone changes it.
    public func didReceive(_ message: Message, state: inout State, context: AppContext) async throws {
        guard state.list != nil, message.session == state.listSession, let list = try? SharedList(message: message) else { return }
        state.list = list
        // The item being changed was taken off meanwhile: nothing is left to change.
        if let editing = state.editing, !list.items.contains(where: { $0.id == editing }) { state.stopEditing() }
    }

    /// Refuses a to-do message whose URL does not carry a complete, valid note, or whose bubble
    /// shows something other than that note; for a shared list, `SharedList.summary`'s rules (a
    /// change made in the sender's own name, one at a time, an item retitled or taken off only by
    /// whoever added it) and a bubble that
    /// shows the list it carries.
    public func validate(_ message: Message, replacing head: Message?) throws {
        guard SharedList.carries(message) || SharedList.carries(head) else {
            try TodoMessage.validate(message)
            return
        }
        do throws(MessagesError) {
            guard let sender = message.senderParticipantIdentifier, let session = message.session else {
                throw MessagesError(.actionRefused, "A shared list's message belongs to a session.")
            }
            let proposed = try SharedList(message: message)
            let current = try head.map { head throws(MessagesError) in try SharedList(message: head) }
            // A list nobody could check everything off (a title made longer by hand) is refused
            // when it grows, as `add` and `rename` refuse it.
            if !proposed.hasRoomForEveryCheckOff, current?.hasRoomForEveryCheckOff ?? true {
                throw MessagesError(.actionRefused, "This list would leave no room to check every item off.")
            }
            let expected = try proposed.message(session: session, summary: proposed.summary(from: current, by: sender), answering: current != nil)
            guard message.showsTheSame(as: expected) else { throw MessagesError(.actionRefused, "The message does not show the list it carries.") }
        } catch {
            throw error.code == .actionRefused ? error : MessagesError(.actionRefused, error.message)
        }
    }

    /// Puts a tapped message on screen: a shared list to work on, or a note read-only.
    private func show(_ message: Message?, in state: inout State) {
        state.detail = nil
        state.list = nil
        state.listSession = nil
        state.stopEditing()
        guard let message else { return }
        if SharedList.carries(message) {
            do throws(MessagesError) {
                state.list = try SharedList(message: message)
                state.listSession = message.session
            } catch {
                state.notice = "This list could not be read. \(error.message)"
            }
        } else {
            state.detail = NoteDetail(message)
        }
    }

    // MARK: Shared lists

    /// Stages a new shared list in a new session, with the typed item as its first.
    private func startList(state: inout State, context: AppContext) async throws {
        let me = context.conversation.localParticipantIdentifier
        let list = try SharedList(first: state.itemDraft, by: me)
        try await context.conversation.insert(list.message(session: Session(), summary: list.summary(from: nil, by: me), answering: false))
        state.itemDraft = ""
        state.notice = "Your list is ready to send."
    }

    /// Makes `change` to the list the selected message carries, and sends it at once. When
    /// someone else's change took the session's head first, `send` throws `.sessionConflict`,
    /// which is left to escape so the host runs this again on the new head: nothing is lost.
    private func changeList(
        state: inout State, context: AppContext, _ change: (inout SharedList, ParticipantID) throws(MessagesError) -> Void
    ) async throws {
        guard let selected = context.conversation.selectedMessage, SharedList.carries(selected), let session = selected.session else {
            throw MessagesError(.invalidValue, "Open a shared list to change it.")
        }
        let head = try SharedList(message: selected)
        let me = context.conversation.localParticipantIdentifier
        var updated = head
        try change(&updated, me)
        // Someone made the same change first: nothing is left to send.
        guard updated != head else {
            (state.list, state.listSession) = (head, session)
            return
        }
        try await context.conversation.send(updated.message(session: session, summary: updated.summary(from: head, by: me), answering: true))
        state.list = updated
        state.listSession = session
        state.notice = nil
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
