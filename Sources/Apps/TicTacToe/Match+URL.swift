import Foundation
import ParlorKit

/// A match travels in its message's URL, with the seed's query items kept as they were:
///
/// `https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=-&…&position8=-&xPlayer=<id>&oPlayer=<id>`
///
/// - `currentPlayer`: the mark that made the last move (the seed writes the mover and the reader
///   flips it to find whose turn is next);
/// - `position0` … `position8`: `-`, `X` or `O`, row by row;
/// - `xPlayer`, `oPlayer` (added): the players' participant ids; `oPlayer` is absent until O moves.
extension Match {
    /// The address the game's URL is built on.
    public static let baseURL = "https://parlor.example/tictactoe"

    /// The URL carrying this match.
    /// - Throws: `MessagesError(.urlExceedsMaxSize)` never in practice: the URL is ~300 characters.
    public func url() throws(MessagesError) -> URL {
        var items = QueryItems()
        items.append("currentPlayer", game.turn.opponent.rawValue)
        for (square, mark) in game.cells.enumerated() {
            items.append("position\(square)", mark?.rawValue ?? "-")
        }
        items.append("xPlayer", x.description)
        if let o { items.append("oPlayer", o.description) }
        return try items.url(base: Self.baseURL)
    }

    /// Reads the match a message carries.
    /// - Throws: `MessagesError(.malformedURLState)` when the message has no URL or its URL is not
    ///   a game (see `init(url:)`).
    public init(message: Message) throws(MessagesError) {
        guard let url = message.url else {
            throw MessagesError(.malformedURLState, "This message carries no game.")
        }
        try self.init(url: url)
    }

    /// Reads a match from its URL. Never traps: the URL is outside input.
    /// - Throws: `MessagesError(.malformedURLState)` when an item is missing or holds something
    ///   other than a mark or a participant id, or when the board could not come from legal play.
    public init(url: URL) throws(MessagesError) {
        let items = try QueryItems(url: url)
        var cells: [Mark?] = []
        for square in 0..<9 {
            let name = "position\(square)"
            let value = try items.require(name)
            cells.append(value == "-" ? nil : try Self.mark(value, item: name))
        }
        let game: Game
        do throws(MessagesError) {
            game = try Game(cells: cells)
        } catch {
            throw MessagesError(.malformedURLState, "The message's board is not a real game: \(error.message)")
        }
        let lastMover = try Self.mark(items.require("currentPlayer"), item: "currentPlayer")
        guard lastMover == game.turn.opponent else {
            throw MessagesError(.malformedURLState, "The message says \(lastMover) moved last, but its board says \(game.turn.opponent) did.")
        }
        let x = try Self.participant(items.require("xPlayer"), item: "xPlayer")
        var o: ParticipantID?
        if let text = items["oPlayer"] { o = try Self.participant(text, item: "oPlayer") }
        guard o != x else {
            throw MessagesError(.malformedURLState, "The message names the same participant as X and O.")
        }
        self.init(game: game, x: x, o: o)
    }

    private static func mark(_ text: String, item: String) throws(MessagesError) -> Mark {
        guard let mark = Mark(rawValue: text) else {
            throw MessagesError(.malformedURLState, "The message's '\(item)' should be X or O, not '\(text.prefix(20))'.")
        }
        return mark
    }

    private static func participant(_ text: String, item: String) throws(MessagesError) -> ParticipantID {
        guard let id = ParticipantID(text) else {
            throw MessagesError(.malformedURLState, "The message's '\(item)' is not a participant id.")
        }
        return id
    }
}
