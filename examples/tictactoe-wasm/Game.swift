import ParlorWasmKit

/// X or O.
enum Mark: Equatable {
    case x, o

    var opponent: Mark { self == .x ? .o : .x }
    var text: String { self == .x ? "X" : "O" }

    /// "X" or "O"; nil for anything else.
    init?(text: String) {
        if same(text, "X") {
            self = .x
        } else if same(text, "O") {
            self = .o
        } else {
            return nil
        }
    }
}

/// The rules of tic-tac-toe as a value, as Sources/Apps/TicTacToe/Game.swift has them: squares 0 to
/// 8, row by row from the top left; X moves first.
struct Game: Equatable {
    enum Outcome: Equatable {
        case inProgress
        case won(by: Mark, line: [Int])
        case draw
    }

    static let lines: [[Int]] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]

    private(set) var cells: [Mark?] = Array(repeating: nil, count: 9)

    init() {}

    /// A board reached by legal play.
    /// - Throws: `invalidValue` unless X has as many marks as O or one more, and play stopped at the first win.
    init(cells: [Mark?]) throws(AppError) {
        guard cells.count == 9 else { throw AppError(.invalidValue, "A board has 9 squares, not \(cells.count).") }
        self.cells = cells
        let xs = count(.x), os = count(.o)
        guard xs == os || xs == os + 1 else {
            throw AppError(.invalidValue, "X moves first and the players alternate, so X cannot have \(xs) marks to O's \(os).")
        }
        let xWon = hasLine(.x), oWon = hasLine(.o)
        guard !(xWon && oWon), !xWon || xs == os + 1, !oWon || xs == os else {
            throw AppError(.invalidValue, "This board has moves played after the game was won.")
        }
    }

    var turn: Mark { count(.x) > count(.o) ? .o : .x }
    var moveCount: Int { cells.count { $0 != nil } }

    var outcome: Outcome {
        for line in Self.lines {
            if let mark = cells[line[0]], cells[line[1]] == mark, cells[line[2]] == mark { return .won(by: mark, line: line) }
        }
        return moveCount == 9 ? .draw : .inProgress
    }

    mutating func play(_ square: Int) throws(AppError) {
        guard outcome == .inProgress else { throw AppError(.actionRefused, "The game is over.") }
        guard cells.indices.contains(square) else {
            throw AppError(.actionRefused, "There is no square \(square); squares are numbered 0 to 8.")
        }
        guard cells[square] == nil else { throw AppError(.actionRefused, "That square is taken; choose an empty one.") }
        cells[square] = turn
    }

    private func count(_ mark: Mark) -> Int { cells.count { $0 == mark } }

    private func hasLine(_ mark: Mark) -> Bool { Self.lines.contains { line in line.allSatisfy { cells[$0] == mark } } }

    /// The board drawn as SVG, 300 points square, as the in-server app draws it.
    var svg: String {
        var svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">"##
        svg += ##"<style>.board{fill:#ffffff}.grid{stroke:#3a3a3c}.x{stroke:#0062cc}.o{stroke:#d70015}"##
        svg += ##"@media (prefers-color-scheme: dark){.board{fill:#1c1c1e}.grid{stroke:#8e8e93}.x{stroke:#64b0ff}.o{stroke:#ff6961}}</style>"##
        svg += ##"<rect class="board" width="300" height="300"/>"##
        svg += ##"<path class="grid" d="M100 12V288M200 12V288M12 100H288M12 200H288" stroke-width="4" stroke-linecap="round"/>"##
        for (square, mark) in cells.enumerated() {
            let x = square % 3 * 100 + 50, y = square / 3 * 100 + 50
            if mark == .x {
                svg += ##"<path d="M\##(x - 28) \##(y - 28)L\##(x + 28) \##(y + 28)M\##(x + 28) \##(y - 28)L\##(x - 28) \##(y + 28)" class="x" stroke-width="10" stroke-linecap="round"/>"##
            } else if mark == .o {
                svg += ##"<circle class="o" cx="\##(x)" cy="\##(y)" r="30" fill="none" stroke-width="10"/>"##
            }
        }
        if case .won(_, let line) = outcome, let first = line.first, let last = line.last {
            let x1 = first % 3 * 100 + 50, y1 = first / 3 * 100 + 50, x2 = last % 3 * 100 + 50, y2 = last / 3 * 100 + 50
            svg += ##"<line class="winning-line" x1="\##(x1)" y1="\##(y1)" x2="\##(x2)" y2="\##(y2)" stroke="#2e9e44" stroke-width="12" stroke-linecap="round" opacity="0.85"/>"##
        }
        return svg + "</svg>"
    }
}
