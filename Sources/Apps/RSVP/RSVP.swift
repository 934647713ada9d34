import Foundation
import ParlorKit

/// RSVP, the seed's party app: the organizer creates an invitation, everyone answers Going or Can't go,
/// and every answer updates one message in the conversation with the counts.
///
/// - From the drawer (compact): "Create RSVP" asks for the expanded style, where a form takes the
///   title, and when and where (optional); "Create" stages the invitation in a new session and
///   returns to compact.
/// - Tapping the invitation opens the answer control: Going, Maybe, Can't go, with the person's
///   answer selected. An answer is sent at once as the session's next message. Each participant
///   has one answer; choosing another moves it. Everyone sees who answered what.
/// - When two participants answer from the same message, the second send meets a newer head; the
///   app lets `.sessionConflict` escape `handle`, the host re-runs the answer on the new head, and
///   both answers count. `validate(_:replacing:)` refuses any message that is not one
///   participant's own answer on top of the head.
public struct RSVP: MessagesApp {
    public init() {}

    /// RSVP's id, name, icon and store line.
    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.rsvp", name: "RSVP", icon: .asset(Invitation.imageName),
            summary: "Ask who is coming: everyone answers Going, Maybe or Can't go in one message that keeps the count.",
            answersSessions: true)
    }

    /// The bundled Assets folder holding the party image.
    public var assetsDirectory: URL? { Bundle.module.url(forResource: "Assets", withExtension: nil) }

    /// One participant's view of the app.
    public struct State: Codable, Sendable {
        /// The title typed into the form so far.
        var draftTitle = ""
        /// When and where, as typed so far (optional).
        var draftWhen = ""
        var draftPlace = ""
        /// The RSVP on screen: from the tapped message, refreshed by later messages of its session.
        var viewing: Viewing?
        /// Why the tapped message could not be opened.
        var problem: String?
    }

    /// An RSVP on screen and the session it lives in.
    struct Viewing: Codable, Sendable {
        var invitation: Invitation
        var session: Session
    }

    /// What the app's controls send.
    public enum Action: Codable, Sendable {
        /// "Create RSVP": opens the form.
        case createRSVP
        /// An edit of the title field.
        case setTitle(String)
        /// Return in the title field: creates the RSVP.
        case submitTitle(String)
        /// An edit of the "When" field.
        case setWhen(String)
        /// An edit of the "Where" field.
        case setPlace(String)
        /// The "Create" button.
        case create
        /// Going, Maybe or Can't go.
        case answer(Answer)
    }

    /// An empty form and nothing on screen.
    public var initialState: State { State() }

    /// Opens the form, edits the title, creates the RSVP, or sends an answer.
    /// - Throws: the title's problem; `.sessionConflict` (for the host to re-run the answer on the new
    ///   head); `.urlExceedsMaxSize` when the RSVP is full; `.malformedURLState` for an unreadable RSVP.
    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .createRSVP:
            state.viewing = nil
            state.problem = nil
            try context.requestPresentationStyle(.expanded)
        case .setTitle(let title):
            state.draftTitle = title
        case .setWhen(let when):
            state.draftWhen = when
        case .setPlace(let place):
            state.draftPlace = place
        case .submitTitle(let title):
            state.draftTitle = title
            try await create(state: &state, context: context)
        case .create:
            try await create(state: &state, context: context)
        case .answer(let answer):
            try await send(answer, state: &state, context: context)
        }
    }

    /// Shows the tapped RSVP, or the form when opened from the drawer.
    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        show(context.conversation.selectedMessage, in: &state)
    }

    /// Shows the RSVP tapped while the app was open.
    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        show(message, in: &state)
    }

    /// Refreshes the RSVP on screen when someone answers it.
    public func didReceive(_ message: Message, state: inout State, context: AppContext) async throws {
        // Someone answered the RSVP on screen: show the new counts.
        guard let viewing = state.viewing, message.session == viewing.session else { return }
        show(message, in: &state)
    }

    // MARK: Creating

    /// Stages the invitation in a new session, as the seed does, and returns to compact.
    private func create(state: inout State, context: AppContext) async throws {
        let title = state.draftTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        let invitation = try Invitation(
            title: title, when: state.draftWhen, place: state.draftPlace, organizer: context.conversation.localParticipantIdentifier)
        let message = try invitation.message(session: Session(), summary: invitation.creationSummary)
        try await context.conversation.insert(message)
        (state.draftTitle, state.draftWhen, state.draftPlace) = ("", "", "")
        try context.requestPresentationStyle(.compact)
    }

    // MARK: Answering

    /// Sends `answer` at once, computed from the selected message: the session head this answer
    /// replaces. When another answer took the head first, `send` throws `.sessionConflict`, which
    /// is left to escape so the host re-runs this on the new head.
    private func send(_ answer: Answer, state: inout State, context: AppContext) async throws {
        guard let selected = context.conversation.selectedMessage, let session = selected.session else {
            throw MessagesError(.invalidValue, "Open an RSVP message to answer it.")
        }
        let head = try Invitation(url: selected.url)
        let me = context.conversation.localParticipantIdentifier
        let previous = head[me]
        guard previous != answer else {
            state.viewing = Viewing(invitation: head, session: session)
            return
        }
        let updated = head.answering(answer, for: me)
        let summary = Invitation.answerSummary(by: me, answer: answer, previous: previous)
        try await context.conversation.send(updated.message(session: session, summary: summary))
        state.viewing = Viewing(invitation: updated, session: session)
        state.problem = nil
    }

    /// Puts `message`'s RSVP on screen, or says why it cannot be read; nil shows the form.
    private func show(_ message: Message?, in state: inout State) {
        state.viewing = nil
        state.problem = nil
        guard let message else { return }
        do throws(MessagesError) {
            guard let session = message.session else {
                throw MessagesError(.malformedURLState, "The message is not part of an RSVP session.")
            }
            state.viewing = Viewing(invitation: try Invitation(url: message.url), session: session)
        } catch {
            state.problem = "This RSVP could not be read. \(error.message)"
        }
    }
}
