import ParlorKit

/// Tic-Tac-Toe, the seed's interactive message app: one message per move, all in one session.
///
/// Alice opens the app from the drawer and taps a square: "Want to play Tic-Tac-Toe?" is staged
/// with the board as its image, and she sends it. Bob taps the bubble, the board opens, he taps a
/// square: "It's your move!" is staged in the same session. And so on until someone wins or the
/// board is full; then either player can ask for a rematch. The rules live in `Game`, the
/// players and the URL in `Match`; the host refuses forged moves through `validate`.
public struct TicTacToe: MessagesApp {
    /// The app, ready to be hosted: `ConversationSimulator(apps: [TicTacToe()])`.
    public init() {}

    public var manifest: AppManifest {
        AppManifest(
            id: "org.parlor.tictactoe", name: "Tic-Tac-Toe", icon: .svg(Self.icon),
            summary: "Play tic-tac-toe in a conversation, one message per move.")
    }

    /// What one participant's app shows: a game read from a message, or a new game about to start.
    public struct State: Codable, Sendable {
        /// The game on screen, read from the tapped message; nil before a game starts.
        var match: Match?
        /// The session of the game on screen; a new game gets a new one.
        var session: Session?
        /// After Rematch: who will play O in the new game.
        var rematchOpponent: ParticipantID?
    }

    /// The board's squares and the Rematch button.
    public enum Action: Codable, Sendable {
        case play(square: Int)
        case rematch
    }

    public var initialState: State { State() }

    // MARK: View

    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        let me = environment.localParticipantIdentifier
        let game = state.match?.game ?? Game()
        VStack(alignment: .center, spacing: 12) {
            Text(status(of: state, for: me), style: .headline, id: "status")
            board(game)
            if let match = state.match, game.outcome != .inProgress, match.mark(of: me) != nil {
                Button("Rematch", action: Action.rematch)
            }
        }
    }

    /// Three rows of three square buttons, as the seed's stack views; the winning line is highlighted.
    private func board(_ game: Game) -> ViewNode {
        let winningLine: [Int] = if case .won(_, let line) = game.outcome { line } else { [] }
        return VStack(alignment: .center, spacing: 4) {
            for row in 0..<3 {
                HStack(spacing: 4) {
                    for column in 0..<3 {
                        let square = row * 3 + column
                        let mark = game.cells[square]
                        Button(
                            mark?.rawValue ?? "", action: Action.play(square: square),
                            role: winningLine.contains(square) ? .primary : .secondary,
                            label: "Row \(row + 1), column \(column + 1), \(mark?.rawValue ?? "empty")",
                            // One color per mark, as the bubble's board draws it.
                            color: winningLine.contains(square) ? nil : mark.map { $0 == .x ? .accent : .destructive },
                            id: "square\(square)")
                    }
                }
            }
        }.node
    }

    private func status(of state: State, for me: ParticipantID) -> String {
        guard let match = state.match else {
            if let opponent = state.rematchOpponent {
                return "Rematch against \(opponent.mention): you play X, tap a square to move first."
            }
            return "Tap a square to start a game. You play X."
        }
        guard match.game.outcome == .inProgress else { return match.caption }
        let turn = match.game.turn
        let mine = match.mark(of: me)
        if mine == turn { return "It's your move! You play \(turn)." }
        if mine != nil { return "Waiting for \(match.player(of: turn)?.mention ?? "someone") to play \(turn)." }
        if let o = match.o { return "\(match.x.mention) (X) is playing \(o.mention) (O). You're watching." }
        return "Tap a square to play O against \(match.x.mention)."
    }

    // MARK: Actions

    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        let me = context.conversation.localParticipantIdentifier
        switch action {
        case .play(let square):
            // Refused moves throw: the user sees why, and nothing is staged.
            let next = if let match = state.match {
                try match.playing(square, by: me)
            } else {
                try Match.start(by: me, against: state.rematchOpponent, at: square)
            }
            try await context.conversation.insert(next.message(afterPlaying: square, in: state.session ?? Session()))
            context.dismiss()  // As the seed does: the staged move waits in the compose field.
        case .rematch:
            guard let match = state.match, match.game.outcome != .inProgress, let opponent = match.opponent(of: me) else {
                throw MessagesError(.actionRefused, "Only the two players can ask for a rematch, once the game is over.")
            }
            // Whoever asks for the rematch plays X and moves first, as whoever starts a game does.
            state = State(rematchOpponent: opponent)
        }
    }

    // MARK: Lifecycle

    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        state = try State(showing: context.conversation.selectedMessage)
    }

    public func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state = try State(showing: message)
    }

    /// The game is put away when the app closes: opening a message that carries no game (a hook
    /// that throws keeps the state it was given) then shows a fresh board, not the last one.
    public func didResignActive(state: inout State, context: AppContext) async throws {
        state = State()
    }

    // MARK: Host-side checks

    /// Refuses a message that is not exactly one legal move by its sender: see `Match.verify`.
    public func validate(_ message: Message, replacing head: Message?) throws {
        guard let sender = message.senderParticipantIdentifier else {
            throw MessagesError(.actionRefused, "A move must say who made it.")
        }
        let match = try Match(message: message)
        if let head {
            try Match(message: head).verify(next: match, sentBy: sender)
        } else {
            try match.verifyStart(sentBy: sender)
        }
    }

    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 30"><path d="M10 2V28M20 2V28M2 10H28M2 20H28" stroke="#3a3a3c" stroke-width="2"/><path d="M3 3L7 7M7 3L3 7M13 13L17 17M17 13L13 17" stroke="#0062cc" stroke-width="2"/><circle cx="25" cy="5" r="2.5" fill="none" stroke="#d70015" stroke-width="2"/></svg>"##
}

extension TicTacToe.State {
    /// The state showing the game `message` carries; a new game when there is no message.
    /// - Throws: `MessagesError(.malformedURLState)` when the message is not a readable game.
    init(showing message: Message?) throws(MessagesError) {
        guard let message else { return }
        match = try Match(message: message)
        session = message.session
    }
}
