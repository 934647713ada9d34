import ParlorKit

/// The rules of tic-tac-toe as a value: the board, whose turn it is, the legal moves, playing a
/// move and the outcome. It knows nothing of messages or participants.
///
/// Squares are numbered 0 to 8, row by row from the top left, as the seed numbers its buttons.
///
/// ```swift
/// var game = Game()
/// try game.play(4)          // X takes the center
/// game.turn                 // .o
/// game.legalMoves           // [0, 1, 2, 3, 5, 6, 7, 8]
/// ```
public struct Game: Sendable, Hashable, Codable {
    /// How a game stands.
    public enum Outcome: Sendable, Hashable {
        case inProgress
        /// `mark` has three in a row along `line` (three squares, ascending).
        case won(by: Mark, line: [Int])
        case draw
    }

    /// The eight lines of three: rows, columns, diagonals.
    public static let lines: [[Int]] = [
        [0, 1, 2], [3, 4, 5], [6, 7, 8],
        [0, 3, 6], [1, 4, 7], [2, 5, 8],
        [0, 4, 8], [2, 4, 6],
    ]

    /// The nine squares, row by row; nil is empty.
    public private(set) var cells: [Mark?]

    /// An empty board, X to move.
    public init() {
        cells = Array(repeating: nil, count: 9)
    }

    /// A board reached by legal play.
    /// - Throws: `MessagesError(.invalidValue)` unless there are nine squares, X has as many marks
    ///   as O or one more, and play stopped at the first win.
    public init(cells: [Mark?]) throws(MessagesError) {
        guard cells.count == 9 else {
            throw MessagesError(.invalidValue, "A board has 9 squares, not \(cells.count).")
        }
        self.cells = cells
        let xs = count(.x), os = count(.o)
        guard xs == os || xs == os + 1 else {
            throw MessagesError(.invalidValue, "X moves first and the players alternate, so X cannot have \(xs) marks to O's \(os).")
        }
        let xWon = hasLine(.x), oWon = hasLine(.o)
        guard !(xWon && oWon), !xWon || xs == os + 1, !oWon || xs == os else {
            throw MessagesError(.invalidValue, "This board has moves played after the game was won.")
        }
    }

    /// Whose move it is (meaningful while the game is in progress).
    public var turn: Mark { count(.x) > count(.o) ? .o : .x }

    /// How many moves have been played.
    public var moveCount: Int { cells.count { $0 != nil } }

    /// The squares the player to move may take: the empty ones, none once the game is over.
    public var legalMoves: [Int] {
        guard outcome == .inProgress else { return [] }
        return cells.indices.filter { cells[$0] == nil }
    }

    /// Won (with the winning line), drawn, or in progress.
    public var outcome: Outcome {
        for line in Self.lines {
            if let mark = cells[line[0]], cells[line[1]] == mark, cells[line[2]] == mark {
                return .won(by: mark, line: line)
            }
        }
        return moveCount == 9 ? .draw : .inProgress
    }

    /// Puts the mark of the player to move on `square`.
    /// - Throws: `MessagesError(.actionRefused)` when the game is over, the square is taken, or
    ///   there is no such square.
    public mutating func play(_ square: Int) throws(MessagesError) {
        guard outcome == .inProgress else {
            throw MessagesError(.actionRefused, "The game is over.")
        }
        guard cells.indices.contains(square) else {
            throw MessagesError(.actionRefused, "There is no square \(square); squares are numbered 0 to 8.")
        }
        guard cells[square] == nil else {
            throw MessagesError(.actionRefused, "That square is taken; choose an empty one.")
        }
        cells[square] = turn
    }

    /// Decodes the squares and checks them like `init(cells:)`: a stored game is a possible game.
    public init(from decoder: any Decoder) throws {
        try self.init(cells: decoder.singleValueContainer().decode([Mark?].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cells)
    }

    private func count(_ mark: Mark) -> Int { cells.count { $0 == mark } }

    private func hasLine(_ mark: Mark) -> Bool {
        Self.lines.contains { line in line.allSatisfy { cells[$0] == mark } }
    }
}
