import ParlorKit

/// One game between two participants: the board and who plays which mark.
///
/// Whoever starts a game plays X. The first other participant to move becomes O, and from then
/// on the two players are fixed; everyone else in the conversation watches. A rematch names both
/// players from its first move.
public struct Match: Sendable, Hashable, Codable {
    /// The board and whose turn it is.
    public var game: Game
    /// The player of X: the one who started the game.
    public var x: ParticipantID
    /// The player of O; nil until someone other than X makes O's first move.
    public var o: ParticipantID?

    /// A match as it stands; `Match.start` begins a new one.
    public init(game: Game, x: ParticipantID, o: ParticipantID?) {
        self.game = game
        self.x = x
        self.o = o
    }

    /// A new game in which `starter` plays X and takes `square` as the first move.
    /// - Parameter opponent: the player of O when known (a rematch); nil lets anyone take O.
    /// - Throws: `MessagesError(.actionRefused)` for a square that does not exist.
    public static func start(by starter: ParticipantID, against opponent: ParticipantID?, at square: Int) throws(MessagesError) -> Match {
        var game = Game()
        try game.play(square)
        return Match(game: game, x: starter, o: opponent)
    }

    /// The mark `participant` plays, or nil for someone who is not (yet) a player.
    public func mark(of participant: ParticipantID) -> Mark? {
        if participant == x { return .x }
        if participant == o { return .o }
        return nil
    }

    /// The participant who plays `mark`, if known.
    public func player(of mark: Mark) -> ParticipantID? {
        mark == .x ? x : o
    }

    /// The player `participant` faces, or nil for someone who is not a player.
    public func opponent(of participant: ParticipantID) -> ParticipantID? {
        mark(of: participant).flatMap { player(of: $0.opponent) }
    }

    /// The match after `participant` takes `square`.
    /// - Throws: `MessagesError(.actionRefused)` with a sentence for the user when the game is
    ///   over, `participant` only watches, it is not their turn, or the square is taken.
    public func playing(_ square: Int, by participant: ParticipantID) throws(MessagesError) -> Match {
        guard game.outcome == .inProgress else {
            throw MessagesError(.actionRefused, "This game is over. Start a rematch to play again.")
        }
        let mover: Mark
        if let mark = mark(of: participant) {
            mover = mark
        } else if let o {
            throw MessagesError(.actionRefused, "This game is between \(x.mention) and \(o.mention); you're watching.")
        } else {
            mover = .o  // The first other participant to move becomes O.
        }
        guard mover == game.turn else {
            let waitingFor = player(of: game.turn)?.mention ?? "someone"
            throw MessagesError(.actionRefused, "It's not your turn: waiting for \(waitingFor) to play \(game.turn).")
        }
        var next = self
        try next.game.play(square)
        if mover == .o { next.o = participant }
        return next
    }
}
