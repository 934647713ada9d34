import ParlorKit

/// How a match looks in the conversation: the bubble's caption and image, the summary line an
/// older move leaves behind, and the description screen readers read.
extension Match {
    /// The seed's captions while the game runs, then the result.
    public var caption: String {
        switch game.outcome {
        case .won(let mark, _):
            return "\(player(of: mark)?.mention ?? mark.rawValue) won!"
        case .draw:
            return "It's a draw"
        case .inProgress where game.moveCount == 1:
            return o == nil ? "Want to play Tic-Tac-Toe?" : "Want a rematch?"
        case .inProgress:
            return "It's your move!"
        }
    }

    /// The board in words: "Top row: X, empty, empty. Middle row: …", then who is to move.
    public var boardDescription: String {
        let rows = ["Top", "Middle", "Bottom"].enumerated().map { row, name in
            let marks = (0..<3).map { game.cells[row * 3 + $0]?.rawValue ?? "empty" }
            return "\(name) row: \(marks.joined(separator: ", "))."
        }
        let next = game.outcome == .inProgress ? " \(game.turn) to move." : ""
        return "Tic-Tac-Toe board. " + rows.joined(separator: " ") + next
    }

    /// The message to stage after `square` was played: in `session`, so that the whole game is
    /// one transcript entry.
    /// - Throws: the URL's `MessagesError`, which cannot happen for a URL of this size.
    public func message(afterPlaying square: Int, in session: Session) throws(MessagesError) -> Message {
        let mover = game.turn.opponent
        let squareName = Self.squareNames.indices.contains(square) ? Self.squareNames[square] : "square \(square)"
        // The player by name ($<participant id>, which every viewer sees as the name), not the mark.
        var summary = "\(player(of: mover)?.mention ?? mover.rawValue) played \(squareName)"
        if case .won = game.outcome { summary += " and won" }
        return Message(
            session: session, url: try url(),
            layout: .template(TemplateLayout(image: .svg(game.svg), caption: caption)),
            summaryText: summary, accessibilityLabel: "\(caption) \(boardDescription)")
    }

    static let squareNames = [
        "the top-left square", "the top-middle square", "the top-right square",
        "the middle-left square", "the center", "the middle-right square",
        "the bottom-left square", "the bottom-middle square", "the bottom-right square",
    ]
}
