import ParlorWasmKit

/// Tic-Tac-Toe as one WebAssembly file, in Embedded Swift with ParlorWasmKit: the same game as the
/// in-server app (Sources/Apps/TicTacToe), one message per move, all in one session; `validate`
/// refuses forged moves. Built by `parlor apps build examples/tictactoe-wasm`.
struct TicTacToe: MessagesApp {
    /// The game on screen (read again from its message's URL on every call), its session, and
    /// after Rematch the player of O in the new game.
    struct State: AppState {
        /// The game's message URL.
        var url: String? { game.url }
        var session: String?
        var rematchOpponent: ParticipantID?
        /// The game `url` carries, read at most once per call, when first looked at: opening a
        /// message replaces the state without looking at the one before.
        var match: Match? { game.match }
        private var game = GameInURL(url: nil, match: nil)

        init() {}

        init(json: JSON) throws(AppError) {
            game = GameInURL(url: json["url"].string)
            session = json["session"].string
            rematchOpponent = json["rematch"].string.flatMap { ParticipantID($0) }
        }

        var json: JSON {
            var members: [(String, JSON)] = []
            if let url { members.append(("url", .string(url))) }
            if let session { members.append(("session", .string(session))) }
            if let rematchOpponent { members.append(("rematch", .string(rematchOpponent.uuid))) }
            return .object(members)
        }

        /// The state showing the game `message` carries; a new game when there is no message.
        init(showing message: AppMessage?) throws(AppError) {
            guard let message else { return }
            game = GameInURL(url: message.url, match: try Match(message: message))
            session = message.session
        }
    }

    /// A URL and the game it carries, read the first time it is asked for.
    final class GameInURL {
        let url: String?
        private var read: Match??

        init(url: String?) { self.url = url }

        init(url: String?, match: Match?) {
            self.url = url
            read = .some(match)
        }

        var match: Match? {
            if let read { return read }
            let match = url.flatMap { try? Match(url: $0) }
            read = .some(match)
            return match
        }
    }

    var initialState: State { State() }

    // MARK: View

    func body(state: State, context: Context) -> View {
        let me = context.localParticipant
        let match = state.match
        let game = match?.game ?? Game()
        return VStack(alignment: .center, spacing: 12) {
            Text(status(of: state, for: me), style: .headline, id: "status")
            board(game)
            if let match, game.outcome != .inProgress, match.mark(of: me) != nil {
                Button("Rematch", action: ["rematch": [:]])
            }
        }.view
    }

    private func board(_ game: Game) -> View {
        var winningLine: [Int] = []
        if case .won(_, let line) = game.outcome { winningLine = line }
        return VStack(alignment: .center, spacing: 4) {
            for row in 0..<3 {
                HStack(spacing: 4) {
                    for column in 0..<3 {
                        let square = row * 3 + column
                        let mark = game.cells[square]
                        Button(
                            mark?.text ?? "", action: ["play": ["square": .int(square)]],
                            role: winningLine.contains(square) ? .primary : .secondary,
                            label: "Row \(row + 1), column \(column + 1), \(mark?.text ?? "empty")",
                            color: winningLine.contains(square) ? nil : mark.map { $0 == .x ? ColorRole.accent : .destructive },
                            id: "square\(square)")
                    }
                }
            }
        }.view
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
        if mine == turn { return "It's your move! You play \(turn.text)." }
        if mine != nil { return "Waiting for \(match.player(of: turn)?.mention ?? "someone") to play \(turn.text)." }
        if let o = match.o { return "\(match.x.mention) (X) is playing \(o.mention) (O). You're watching." }
        return "Tap a square to play O against \(match.x.mention)."
    }

    // MARK: Actions

    func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        let me = context.localParticipant
        if let square = action["play"]["square"].int {
            let next: Match
            if let match = state.match {
                next = try match.playing(square, by: me)
            } else {
                next = try Match.start(by: me, against: state.rematchOpponent, at: square)
            }
            effects.insert(next.message(afterPlaying: square, in: state.session ?? Host.newID()))
            effects.dismiss()  // As the seed does: the staged move waits in the compose field.
        } else if !action["rematch"].isNull {
            guard let match = state.match, match.game.outcome != .inProgress, let opponent = match.opponent(of: me) else {
                throw AppError(.actionRefused, "Only the two players can ask for a rematch, once the game is over.")
            }
            state = State()
            state.rematchOpponent = opponent
        } else {
            throw AppError(.actionRefused, "Tic-Tac-Toe has no such control.")
        }
    }

    // MARK: Lifecycle

    func willBecomeActive(state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        state = try State(showing: context.selectedMessage)
    }

    func didSelect(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        state = try State(showing: message)
    }

    /// The game is put away when the app closes: opening a message that carries no game (a hook
    /// that throws keeps the state it was given) then shows a fresh board, not the last one.
    func didResignActive(state: inout State, context: Context) throws(AppError) {
        state = State()
    }

    // MARK: Host-side checks

    func validate(_ message: AppMessage, replacing head: AppMessage?) throws(AppError) {
        guard let sender = message.sender else { throw AppError(.actionRefused, "A move must say who made it.") }
        let match = try Match(message: message)
        if let head {
            try Match(message: head).verify(next: match, sentBy: sender)
        } else {
            try match.verifyStart(sentBy: sender)
        }
    }
}

@_expose(wasm, "parlor_call")
@_cdecl("parlor_call")
func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 {
    TicTacToe().answer(call, length)
}
