import ParlorWasmKit

/// One game between two participants, carried in its message's URL with the seed's query items,
/// as Sources/Apps/TicTacToe/Match.swift: whoever starts plays X; the first other participant to
/// move becomes O; everyone else watches.
struct Match: Equatable {
    var game: Game
    var x: ParticipantID
    var o: ParticipantID?

    static let baseURL = "https://parlor.example/tictactoe"

    static func start(by starter: ParticipantID, against opponent: ParticipantID?, at square: Int) throws(AppError) -> Match {
        var game = Game()
        try game.play(square)
        return Match(game: game, x: starter, o: opponent)
    }

    func mark(of participant: ParticipantID) -> Mark? {
        if participant == x { return .x }
        if let o, participant == o { return .o }
        return nil
    }

    func player(of mark: Mark) -> ParticipantID? { mark == .x ? x : o }

    func opponent(of participant: ParticipantID) -> ParticipantID? { mark(of: participant).flatMap { player(of: $0.opponent) } }

    /// The match after `participant` takes `square`.
    func playing(_ square: Int, by participant: ParticipantID) throws(AppError) -> Match {
        guard game.outcome == .inProgress else { throw AppError(.actionRefused, "This game is over. Start a rematch to play again.") }
        let mover: Mark
        if let mark = mark(of: participant) {
            mover = mark
        } else if let o {
            throw AppError(.actionRefused, "This game is between \(x.mention) and \(o.mention); you're watching.")
        } else {
            mover = .o
        }
        guard mover == game.turn else {
            throw AppError(.actionRefused, "It's not your turn: waiting for \(player(of: game.turn)?.mention ?? "someone") to play \(game.turn.text).")
        }
        var next = self
        try next.game.play(square)
        if mover == .o { next.o = participant }
        return next
    }

    // MARK: The URL

    /// The query item of each square, as the seed names them.
    static let positionItems = ["position0", "position1", "position2", "position3", "position4", "position5", "position6", "position7", "position8"]

    var url: String {
        var items = QueryItems()
        items.append("currentPlayer", game.turn.opponent.text)
        for (square, mark) in game.cells.enumerated() { items.append(Self.positionItems[square], mark?.text ?? "-") }
        items.append("xPlayer", x.uuid)
        if let o { items.append("oPlayer", o.uuid) }
        return items.url(base: Self.baseURL)
    }

    /// Reads the match of a message. Never traps: the URL is outside input.
    init(message: AppMessage) throws(AppError) {
        guard let url = message.url else { throw AppError(.malformedURLState, "This message carries no game.") }
        try self.init(url: url)
    }

    init(game: Game, x: ParticipantID, o: ParticipantID?) {
        self.game = game
        self.x = x
        self.o = o
    }

    init(url: String) throws(AppError) {
        let items = try QueryItems(url: url, base: Self.baseURL)
        var cells: [Mark?] = []
        for name in Self.positionItems {
            let value = try items.require(name)
            cells.append(same(value, "-") ? nil : try Self.mark(value, item: name))
        }
        let game: Game
        do throws(AppError) {
            game = try Game(cells: cells)
        } catch {
            throw AppError(.malformedURLState, "The message's board is not a real game: \(error.message)")
        }
        let lastMover = try Self.mark(items.require("currentPlayer"), item: "currentPlayer")
        guard lastMover == game.turn.opponent else {
            throw AppError(.malformedURLState, "The message says \(lastMover.text) moved last, but its board says \(game.turn.opponent.text) did.")
        }
        let x = try Self.participant(items.require("xPlayer"), item: "xPlayer")
        var o: ParticipantID?
        if let text = items["oPlayer"] { o = try Self.participant(text, item: "oPlayer") }
        if let o, o == x { throw AppError(.malformedURLState, "The message names the same participant as X and O.") }
        self.init(game: game, x: x, o: o)
    }

    private static func mark(_ text: String, item: String) throws(AppError) -> Mark {
        guard let mark = Mark(text: text) else {
            throw AppError(.malformedURLState, "The message's '\(item)' should be X or O, not '\(String(decoding: text.utf8.prefix(20), as: UTF8.self))'.")
        }
        return mark
    }

    private static func participant(_ text: String, item: String) throws(AppError) -> ParticipantID {
        guard let id = ParticipantID(text) else { throw AppError(.malformedURLState, "The message's '\(item)' is not a participant id.") }
        return id
    }

    // MARK: The message

    var caption: String {
        switch game.outcome {
        case .won(let mark, _): return "\(player(of: mark)?.mention ?? mark.text) won!"
        case .draw: return "It's a draw"
        case .inProgress where game.moveCount == 1: return o == nil ? "Want to play Tic-Tac-Toe?" : "Want a rematch?"
        case .inProgress: return "It's your move!"
        }
    }

    var boardDescription: String {
        var rows: [String] = []
        for (row, name) in ["Top", "Middle", "Bottom"].enumerated() {
            var marks: [String] = []
            for column in 0..<3 { marks.append(game.cells[row * 3 + column]?.text ?? "empty") }
            rows.append("\(name) row: \(marks.joined(separator: ", ")).")
        }
        let next = game.outcome == .inProgress ? " \(game.turn.text) to move." : ""
        return "Tic-Tac-Toe board. " + rows.joined(separator: " ") + next
    }

    static let squareNames = [
        "the top-left square", "the top-middle square", "the top-right square",
        "the middle-left square", "the center", "the middle-right square",
        "the bottom-left square", "the bottom-middle square", "the bottom-right square",
    ]

    func message(afterPlaying square: Int, in session: String) -> AppMessage {
        let mover = game.turn.opponent
        let squareName = Self.squareNames.indices.contains(square) ? Self.squareNames[square] : "square \(square)"
        var summary = "\(player(of: mover)?.mention ?? mover.text) played \(squareName)"
        if case .won = game.outcome { summary += " and won" }
        return AppMessage(
            session: session, url: url, caption: caption, image: .svg(game.svg),
            summaryText: summary, accessibilityLabel: "\(caption) \(boardDescription)")
    }

    // MARK: Checks before a move is committed

    func verify(next: Match, sentBy sender: ParticipantID) throws(AppError) {
        let changed = game.cells.indices.filter { game.cells[$0] != next.game.cells[$0] }
        guard changed.count == 1, let square = changed.first else {
            throw AppError(.actionRefused, "A move changes exactly one square; this message changes \(changed.count).")
        }
        guard try playing(square, by: sender) == next else { throw AppError(.actionRefused, "A move cannot change who plays X and O.") }
    }

    func verifyStart(sentBy sender: ParticipantID) throws(AppError) {
        guard game.moveCount == 1 else {
            throw AppError(.actionRefused, "A new game starts with X's first move alone; this board has \(game.moveCount) marks.")
        }
        guard x == sender else { throw AppError(.actionRefused, "Whoever starts a game plays X; this message names someone else.") }
    }
}
