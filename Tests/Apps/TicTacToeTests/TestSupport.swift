import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import TicTacToe

let appName = "Tic-Tac-Toe"

/// A conversation of `names`, all with Tic-Tac-Toe installed. With `PARLOR_APPS_OUT_OF_PROCESS=1`
/// (the test command runs this suite both ways) the app is hosted over the app connection
/// protocol, as it would run in its own process: the same tests, forged boards included.
func conversation(_ names: [String] = ["Alice", "Bob"]) -> (ConversationSimulator, [SimulatedParticipant]) {
    let outOfProcess = ProcessInfo.processInfo.environment["PARLOR_APPS_OUT_OF_PROCESS"] == "1"
    let simulator = ConversationSimulator(
        participants: names, hosting: [outOfProcess ? OutOfProcess.app(TicTacToe()) : AnyMessagesApp(TicTacToe())])
    return (simulator, names.map(simulator.participant))
}

struct AppRefused: Error, CustomStringConvertible {
    let description: String
}

extension SimulatedParticipant {
    /// Opens the app from the drawer, takes `square` and sends: a new game with this participant as X.
    func startGame(at square: Int) async throws {
        try await openApp(named: appName)
        try await tap("square\(square)")
        try await sendStagedMove()
    }

    /// Taps the newest game bubble, takes `square` and sends the move.
    func move(_ square: Int) async throws {
        try await tapLatestMessage()
        try await tap("square\(square)")
        try await sendStagedMove()
    }

    /// Sends the staged move; throws what the app said when it staged nothing.
    func sendStagedMove() async throws {
        guard try await sendStaged() != nil else {
            throw AppRefused(description: "\(name)'s app staged nothing: \(await appError()?.message ?? "no error")")
        }
    }

    /// The newest app message bubble this participant sees.
    func latestGameMessage() async throws -> Message? {
        try await transcript().last { $0.kind == .bubble && $0.message != nil }?.message
    }
}

/// Plays `squares` in turn: the first starts a game from `x`'s drawer, then `o` and `x` alternate.
func play(_ squares: [Int], x: SimulatedParticipant, o: SimulatedParticipant) async throws {
    for (index, square) in squares.enumerated() {
        if index == 0 {
            try await x.startGame(at: square)
        } else {
            try await (index.isMultiple(of: 2) ? x : o).move(square)
        }
    }
}

/// The SVG drawing a message shows as its image ("" when it has none).
func drawing(of message: Message?) -> String {
    guard case .url(let url)? = message?.template?.image else { return "" }
    let prefix = "data:image/svg+xml;charset=utf-8,"
    let text = url.absoluteString
    guard text.hasPrefix(prefix) else { return "" }
    return String(text.dropFirst(prefix.count)).removingPercentEncoding ?? ""
}

/// The board a message's URL carries, as the seed writes it: `-`, `X` or `O` per square.
func positions(of message: Message?) throws -> [String?] {
    guard let url = message?.url else { return [] }
    let items = try QueryItems(url: url)
    return (0..<9).map { items["position\($0)"] }
}

/// A game reached by playing `squares` in order from an empty board.
func playedGame(_ squares: [Int]) throws -> Game {
    var game = Game()
    for square in squares { try game.play(square) }
    return game
}
