import ParlorKit

/// The checks the host runs before it commits a game message (`TicTacToe.validate`): the sender
/// is trusted, the URL is not, so a message must be exactly the move its sender was allowed to make.
///
/// Decoding already refuses boards legal play cannot reach (a wrong mark, a move after a win);
/// these checks refuse the transitions between two possible boards that a player cannot make.
extension Match {
    /// Checks that `next`, sent by `sender`, is this match plus one legal move by `sender`.
    /// - Throws: `MessagesError(.actionRefused)` when `next` changes other than one square, this
    ///   game is over, `sender` only watches or it is not their turn, the square was taken, or
    ///   `next` changes who plays X and O.
    public func verify(next: Match, sentBy sender: ParticipantID) throws(MessagesError) {
        let changed = game.cells.indices.filter { game.cells[$0] != next.game.cells[$0] }
        guard changed.count == 1, let square = changed.first else {
            throw MessagesError(.actionRefused, "A move changes exactly one square; this message changes \(changed.count).")
        }
        // The very rules the sender's app applied when the move was made.
        let expected = try playing(square, by: sender)
        guard expected == next else {
            throw MessagesError(.actionRefused, "A move cannot change who plays X and O.")
        }
    }

    /// Checks that this match, sent by `sender` in a new session, is a game's first move.
    /// - Throws: `MessagesError(.actionRefused)` unless the board holds exactly one X and `sender` plays X.
    public func verifyStart(sentBy sender: ParticipantID) throws(MessagesError) {
        guard game.moveCount == 1 else {
            throw MessagesError(.actionRefused, "A new game starts with X's first move alone; this board has \(game.moveCount) marks.")
        }
        guard x == sender else {
            throw MessagesError(.actionRefused, "Whoever starts a game plays X; this message names someone else.")
        }
    }
}
