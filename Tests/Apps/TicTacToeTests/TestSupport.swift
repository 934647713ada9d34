import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import ParlorWasmHost
import TicTacToe

/// How this suite hosts the game, so that one table of tests covers every way an app runs:
/// - in the server (the default);
/// - over the app connection protocol, as in its own process (`PARLOR_APPS_OUT_OF_PROCESS=1`);
/// - as the Embedded Swift port in one WebAssembly file (`PARLOR_APPS_WASM=<tictactoe.wasm>`,
///   built by `parlor apps build examples/tictactoe-wasm`), which must behave the same, down to
///   its sentences and error codes.
/// The test command runs the suite all three ways.
let hosted: AnyMessagesApp = {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["PARLOR_APPS_WASM"], !path.isEmpty {
        do {
            return WasmApp.app(try WasmAppModule(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
        } catch {
            preconditionFailure("PARLOR_APPS_WASM names \(path), which is not a module Parlor runs: \(error)")
        }
    }
    return environment["PARLOR_APPS_OUT_OF_PROCESS"] == "1" ? OutOfProcess.app(TicTacToe()) : AnyMessagesApp(TicTacToe())
}()

/// The name people open the hosted game by, and its id.
let appName = hosted.manifest.name
let hostedAppID = hosted.manifest.id

/// A conversation of `names`, all with the game installed, hosted as `hosted` says.
func conversation(_ names: [String] = ["Alice", "Bob"]) -> (ConversationSimulator, [SimulatedParticipant]) {
    let simulator = ConversationSimulator(participants: names, hosting: [hosted])
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
