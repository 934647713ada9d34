import Foundation
import ParlorKit
import Testing
import TicTacToe

@Suite("Match: players, the URL, the drawing")
struct MatchTests {
    let alice = ParticipantID(), bob = ParticipantID(), carol = ParticipantID()

    @Test("A match travels in the seed's URL items plus the players' ids, and reads back the same")
    func urlRoundTrip() throws {
        let match = Match(game: try playedGame([4, 0, 8]), x: alice, o: bob)
        let url = try match.url()
        #expect(url.absoluteString.hasPrefix("https://parlor.example/tictactoe?currentPlayer=X&position0=O&position1=-"))
        let items = try QueryItems(url: url)
        #expect((0..<9).map { items["position\($0)"] } == ["O", "-", "-", "-", "X", "-", "-", "-", "X"])
        #expect(items["xPlayer"] == alice.description)
        #expect(items["oPlayer"] == bob.description)
        #expect(try Match(url: url) == match)
    }

    @Test("Before O has moved the URL names no O player")
    func openSeat() throws {
        let match = try Match.start(by: alice, against: nil, at: 4)
        let items = try QueryItems(url: match.url())
        #expect(items["oPlayer"] == nil)
        #expect(try Match(url: match.url()) == match)
    }

    @Test(
        "A URL that is not a game is refused as malformed, never a crash",
        arguments: [
            "https://parlor.example/tictactoe",
            "https://parlor.example/tictactoe?currentPlayer=X",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=Z&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1",
            "https://parlor.example/tictactoe?currentPlayer=O&position0=X&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=X&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=not-an-id",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=X&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1&oPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1",
            "https://parlor.example/tictactoe?currentPlayer=X&position0=x&position1=-&position2=-&position3=-&position4=-&position5=-&position6=-&position7=-&position8=-&xPlayer=6F2F0C53-1E32-4C0B-9C5B-7A1C24B2E2A1",
        ])
    func malformedURL(text: String) throws {
        let url = try #require(URL(string: text))
        let error = #expect(throws: MessagesError.self) { try Match(url: url) }
        #expect(error?.code == .malformedURLState)
    }

    @Test("A message without a URL carries no game")
    func messageWithoutURL() {
        #expect(throws: MessagesError(.malformedURLState, "This message carries no game.")) {
            try Match(message: Message())
        }
    }

    @Test("The first other participant to move takes O; from then on only the two players move, in turn")
    func playersAreFixed() throws {
        let opened = try Match.start(by: alice, against: nil, at: 4)
        #expect(throws: MessagesError(.actionRefused, "It's not your turn: waiting for someone to play O.")) {
            try opened.playing(0, by: alice)
        }
        let taken = try opened.playing(0, by: carol)
        #expect(taken.o == carol)
        #expect(taken.mark(of: carol) == .o)
        #expect(throws: MessagesError(.actionRefused, "This game is between \(alice.mention) and \(carol.mention); you're watching.")) {
            try taken.playing(1, by: bob)
        }
        #expect(throws: MessagesError(.actionRefused, "It's not your turn: waiting for \(alice.mention) to play X.")) {
            try taken.playing(1, by: carol)
        }
        #expect(try taken.playing(1, by: alice).game.cells[1] == .x)
    }

    @Test("A rematch names both players from its first move")
    func rematchNamesBothPlayers() throws {
        let rematch = try Match.start(by: bob, against: alice, at: 0)
        #expect(rematch.x == bob)
        #expect(rematch.o == alice)
        #expect(rematch.caption == "Want a rematch?")
        #expect(throws: MessagesError.self) { try rematch.playing(1, by: carol) }
    }

    @Test("The drawing shows each mark where it was played and no winning line while the game runs")
    func drawingInProgress() throws {
        let svg = try playedGame([4, 0]).svg
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains(#"<path d="M122 122L178 178M178 122L122 178""#))  // X in the center
        #expect(svg.contains(#"<circle class="o" cx="50" cy="50" r="30""#))  // O top left
        #expect(svg.components(separatedBy: "<circle").count == 2)
        #expect(!svg.contains("winning-line"))
    }

    @Test("One colour per mark: X's squares in the app are accent and O's destructive, and the board's X and O take the same colours, with a dark board for the dark scheme")
    func oneColourPerMark() async throws {
        let (_, people) = conversation()
        try await people[0].startGame(at: 4)
        try await people[1].move(0)
        let view = try await people[0].tapLatestMessage()
        func colour(of square: Int) -> ColorRole?? {
            for case .button(let button) in view.allNodes where button.id == "square\(square)" { return .some(button.color) }
            return nil
        }
        #expect(colour(of: 4) == .some(.accent), "X")
        #expect(colour(of: 0) == .some(.destructive), "O")
        #expect(colour(of: 8) == .some(nil), "an empty square")

        let svg = try playedGame([4, 0]).svg
        // The client's colours for those roles (Web/css: .vt-color-accent, .vt-color-destructive).
        #expect(svg.contains(".x{stroke:#0062cc}") && svg.contains(".o{stroke:#d70015}"))
        #expect(svg.contains("@media (prefers-color-scheme: dark){.board{fill:#1c1c1e}"))
        #expect(svg.contains(".x{stroke:#64b0ff}") && svg.contains(".o{stroke:#ff6961}"))
    }

    @Test("A won game's drawing crosses out the winning line, end to end", arguments: [
        ([0, 3, 1, 4, 2], #"x1="50" y1="50" x2="250" y2="50""#),  // top row
        ([2, 0, 4, 1, 6], #"x1="250" y1="50" x2="50" y2="250""#),  // the rising diagonal
        ([0, 1, 3, 2, 6], #"x1="50" y1="50" x2="50" y2="250""#),  // left column
    ])
    func drawingWinningLine(moves: [Int], line: String) throws {
        let svg = try playedGame(moves).svg
        #expect(svg.contains(#"<line class="winning-line" "# + line))
    }

    @Test("The board in words, for screen readers")
    func boardDescription() throws {
        let match = Match(game: try playedGame([4, 0]), x: alice, o: bob)
        #expect(match.boardDescription == "Tic-Tac-Toe board. Top row: O, empty, empty. Middle row: empty, X, empty. Bottom row: empty, empty, empty. X to move.")
    }
}
