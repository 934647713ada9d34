import Foundation
import ParlorKit
import Testing
import TicTacToe

@Suite("Game: the rules as a value")
struct GameTests {
    @Test("A new game is empty, X moves first and every square is a legal move")
    func newGame() {
        let game = Game()
        #expect(game.cells == Array(repeating: nil, count: 9))
        #expect(game.turn == .x)
        #expect(game.legalMoves == Array(0..<9))
        #expect(game.outcome == .inProgress)
    }

    @Test("Moves alternate X and O, and a played square is no longer legal")
    func alternation() throws {
        var game = Game()
        try game.play(4)
        #expect(game.cells[4] == .x)
        #expect(game.turn == .o)
        try game.play(0)
        #expect(game.cells[0] == .o)
        #expect(game.turn == .x)
        #expect(game.legalMoves == [1, 2, 3, 5, 6, 7, 8])
    }

    @Test("Taking a taken square, or a square off the board, is refused and changes nothing")
    func illegalSquares() throws {
        var game = try playedGame([4])
        let before = game
        #expect(throws: MessagesError(.actionRefused, "That square is taken; choose an empty one.")) { try game.play(4) }
        #expect(throws: MessagesError(.actionRefused, "There is no square 9; squares are numbered 0 to 8.")) { try game.play(9) }
        #expect(throws: MessagesError.self) { try game.play(-1) }
        #expect(game == before)
    }

    @Test("Three in a row wins, on every one of the eight lines", arguments: Game.lines)
    func wins(line: [Int]) throws {
        let others = (0..<9).filter { !line.contains($0) }
        // X takes the line; O takes two other squares, too few for a line of its own.
        var cells = [Mark?](repeating: nil, count: 9)
        for square in line { cells[square] = .x }
        for square in others.prefix(2) { cells[square] = .o }
        let game = try Game(cells: cells)
        #expect(game.outcome == .won(by: .x, line: line))
        #expect(game.legalMoves.isEmpty)
    }

    @Test("O wins too, and the game stops there: no legal move, playing on is refused")
    func oWinsAndPlayStops() throws {
        var game = try playedGame([0, 3, 1, 4, 8, 5])
        #expect(game.outcome == .won(by: .o, line: [3, 4, 5]))
        #expect(game.legalMoves.isEmpty)
        #expect(throws: MessagesError(.actionRefused, "The game is over.")) { try game.play(2) }
    }

    @Test("A full board without a line is a draw")
    func draw() throws {
        let game = try playedGame([0, 1, 2, 4, 3, 5, 7, 6, 8])
        #expect(game.outcome == .draw)
        #expect(game.legalMoves.isEmpty)
    }

    @Test("The last move can win on a full board: that is a win, not a draw")
    func winOnLastSquare() throws {
        let game = try playedGame([0, 1, 2, 3, 4, 5, 7, 6, 8])
        #expect(game.moveCount == 9)
        #expect(game.outcome == .won(by: .x, line: [0, 4, 8]))
    }

    @Test(
        "Boards legal play cannot reach are refused",
        arguments: [
            "XX-------",  // X played twice in a row
            "O--------",  // O moved first
            "XXXOO-O--",  // O played after X's line
            "OOOXX-X-X",  // X played after O's line
            "XXXOOO---",  // both have a line
        ])
    func unreachableBoards(board: String) {
        let cells = board.map { Mark(rawValue: String($0)) }
        #expect(throws: MessagesError.self) { try Game(cells: cells) }
    }

    @Test("A game is stored as its squares and read back only if it is a possible game")
    func codable() throws {
        let game = try playedGame([4, 0])
        let data = try JSONEncoder().encode(game)
        #expect(String(decoding: data, as: UTF8.self) == #"["O",null,null,null,"X",null,null,null,null]"#)
        #expect(try JSONDecoder().decode(Game.self, from: data) == game)
        #expect(throws: MessagesError.self) { try JSONDecoder().decode(Game.self, from: Data(#"["X","X"]"#.utf8)) }
    }

    @Test("A board has nine squares")
    func nineSquares() {
        #expect(throws: MessagesError(.invalidValue, "A board has 9 squares, not 8.")) {
            try Game(cells: Array(repeating: nil, count: 8))
        }
    }
}
