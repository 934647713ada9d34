import Foundation
import ParlorKit
import ParlorTesting
import Testing
import TicTacToe

@Suite("Tic-Tac-Toe in a conversation")
struct TicTacToeTests {
    @Test("The seed's game: Alice starts from the drawer, Bob answers from the bubble, every move in one session")
    func seedFlow() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        let aliceID = try await alice.participantID(in: appName)

        let start = try await alice.openApp(named: appName)
        #expect(await alice.presentationStyle() == .compact)
        #expect(start.visibleTexts.contains("Tap a square to start a game. You play X."))
        try await alice.tap("Row 2, column 2, empty")
        let first = try #require(await alice.staged()?.message)
        #expect(first.template?.caption == "Want to play Tic-Tac-Toe?")
        let firstItems = try QueryItems(url: #require(first.url))
        #expect(firstItems["currentPlayer"] == "X")
        #expect(try positions(of: first) == ["-", "-", "-", "-", "X", "-", "-", "-", "-"])
        #expect(drawing(of: first).contains(#"<path d="M122 122L178 178"#))
        #expect(await alice.openAppID() == nil, "like the seed, the app closes once the move is staged")
        try await alice.sendStagedMove()

        let board = try await bob.tapMessage(containing: "Want to play Tic-Tac-Toe?")
        #expect(await bob.presentationStyle() == .expanded)
        #expect(board.visibleTexts.contains("Tap a square to play O against \(aliceID.mention)."))
        #expect(board.interactiveNodes(matching: "Row 2, column 2, X").count == 1)
        try await bob.tap("Row 1, column 1, empty")
        let second = try #require(await bob.staged()?.message)
        #expect(second.template?.caption == "It's your move!")
        #expect(second.session == first.session)
        #expect(try QueryItems(url: #require(second.url))["currentPlayer"] == "O")
        #expect(try positions(of: second) == ["O", "-", "-", "-", "X", "-", "-", "-", "-"])
        try await bob.sendStagedMove()

        let again = try await alice.tapMessage(containing: "It's your move!")
        #expect(again.visibleTexts.contains("It's your move! You play X."))
        try await alice.tap("Row 3, column 3, empty")
        let third = try #require(await alice.staged()?.message)
        #expect(third.session == first.session)
        #expect(third.template?.caption == "It's your move!")
        try await alice.sendStagedMove()

        let transcript = try await bob.transcript()
        #expect(transcript.map(\.kind) == [.summary, .summary, .bubble], "one session: one bubble, older moves leave their summary")
        let bobID = try await bob.participantID(in: appName)
        #expect(transcript.map(\.text).prefix(2) == ["\(aliceID.mention) played the center", "\(bobID.mention) played the top-left square"],
                "the players by name, not by mark")
        #expect(try positions(of: transcript.last?.message) == ["O", "-", "-", "-", "X", "-", "-", "-", "X"])
    }

    @Test("A win is detected: the caption names the winner, the image draws the winning line")
    func win() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        let aliceID = try await alice.participantID(in: appName)
        try await play([0, 3, 1, 4], x: alice, o: bob)
        #expect(!drawing(of: try await bob.latestGameMessage()).contains("winning-line"))

        try await alice.move(2)
        let final = try #require(try await bob.latestGameMessage())
        #expect(final.template?.caption == "\(aliceID.mention) won!")
        #expect(final.summaryText == "\(aliceID.mention) played the top-right square and won")
        #expect(drawing(of: final).contains(#"<line class="winning-line" x1="50" y1="50" x2="250" y2="50""#))

        let view = try await bob.tapMessage(containing: "won!")
        #expect(view.visibleTexts.contains("\(aliceID.mention) won!"))
        let highlighted = view.allNodes.compactMap { node -> String? in
            guard case .button(let button) = node, button.role == .primary, button.id?.hasPrefix("square") == true else { return nil }
            return button.id
        }
        #expect(highlighted == ["square0", "square1", "square2"], "the winning squares stand out on the board")
    }

    @Test("A full board without a line is a draw")
    func draw() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        try await play([0, 1, 2, 4, 3, 5, 7, 6, 8], x: alice, o: bob)
        let final = try #require(try await bob.latestGameMessage())
        #expect(final.template?.caption == "It's a draw")
        #expect(!drawing(of: final).contains("winning-line"))
        let view = try await bob.tapLatestMessage()
        #expect(view.visibleTexts.contains("It's a draw"))
    }

    @Test("Tapping a taken square is refused with a clear message, and nothing is staged")
    func occupiedSquare() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        try await alice.startGame(at: 4)
        try await bob.tapLatestMessage()
        try await bob.tap("Row 2, column 2, X")
        #expect(await bob.appError() == MessagesError(.actionRefused, "That square is taken; choose an empty one."))
        #expect(await bob.staged() == nil)
        try await bob.tap("Row 1, column 1, empty")
        #expect(await bob.staged()?.message?.template?.caption == "It's your move!", "the board still takes a legal move")
    }

    @Test("Moving out of turn is refused with a clear message, and nothing is staged")
    func wrongTurn() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        let aliceID = try await alice.participantID(in: appName)
        try await alice.startGame(at: 4)
        let own = try await alice.tapLatestMessage()
        #expect(own.visibleTexts.contains("Waiting for someone to play O."))
        try await alice.tap("square0")
        #expect(await alice.appError() == MessagesError(.actionRefused, "It's not your turn: waiting for someone to play O."))
        #expect(await alice.staged() == nil)

        try await bob.move(0)
        try await bob.tapLatestMessage()
        try await bob.tap("square1")
        #expect(await bob.appError()?.message == "It's not your turn: waiting for \(aliceID.mention) to play X.")
        #expect(await bob.staged() == nil)
    }

    @Test("Once the game is over no square can be taken, and the players are offered a rematch")
    func gameOver() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        try await play([0, 3, 1, 4, 2], x: alice, o: bob)
        let view = try await bob.tapLatestMessage()
        #expect(view.interactiveNodes(matching: "Rematch").count == 1)
        try await bob.tap("Row 3, column 3, empty")
        #expect(await bob.appError() == MessagesError(.actionRefused, "This game is over. Start a rematch to play again."))
        #expect(await bob.staged() == nil)
    }

    @Test("In a group the first other participant to move is O; the two players are fixed and the others watch")
    func groupPlayersAreFixed() async throws {
        let (_, people) = conversation(["Alice", "Bob", "Carol"])
        let (alice, bob, carol) = (people[0], people[1], people[2])
        let aliceID = try await alice.participantID(in: appName)
        let carolID = try await carol.participantID(in: appName)
        try await alice.startGame(at: 4)
        try await carol.move(1)

        let watching = try await bob.tapLatestMessage()
        #expect(watching.visibleTexts.contains("\(aliceID.mention) (X) is playing \(carolID.mention) (O). You're watching."))
        try await bob.tap("square0")
        #expect(await bob.appError()?.message == "This game is between \(aliceID.mention) and \(carolID.mention); you're watching.")
        #expect(await bob.staged() == nil)
        try await bob.dismissApp()

        try await alice.move(0)
        try await carol.move(2)
        try await alice.move(8)
        let over = try await bob.tapLatestMessage()
        #expect(over.visibleTexts.contains("\(aliceID.mention) won!"))
        #expect(over.interactiveNodes(matching: "Rematch").isEmpty, "a watcher cannot start the players' rematch")
    }

    @Test("When two others race for O, the first send takes the seat and the second is refused as stale")
    func raceForO() async throws {
        let (simulator, people) = conversation(["Alice", "Bob", "Carol"])
        let (alice, bob, carol) = (people[0], people[1], people[2])
        try await alice.startGame(at: 4)
        try await bob.tapLatestMessage()
        try await bob.tap("square0")
        try await carol.tapLatestMessage()
        try await carol.tap("square8")
        try await bob.sendStagedMove()
        let stale = await #expect(throws: MessagesError.self) { try await carol.sendStaged() }
        #expect(stale?.code == .sessionConflict)
        #expect(await simulator.messages.count == 2)
        // Carol's move stays in her compose field saying why it was not sent (MSMessage.error).
        guard case .message(let failed)? = await carol.staged() else {
            Issue.record("Carol's move is no longer staged")
            return
        }
        #expect(failed.error == SendFailure(code: "sessionConflict", message: stale?.message ?? ""))
        #expect(await simulator.messages.allSatisfy { $0.message?.error == nil }, "a message sent carries no error")
        await carol.removeStaged()
        #expect(await carol.staged() == nil)
        let bobID = try await bob.participantID(in: appName)
        let latest = try await alice.latestGameMessage()
        #expect(try QueryItems(url: #require(latest?.url))["oPlayer"] == bobID.description)
    }

    @Test("Tapping a game's bubble while the app is open from the drawer switches to that game, expanded")
    func selectWhileOpen() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        try await alice.startGame(at: 4)
        try await bob.openApp(named: appName)
        #expect(await bob.view().visibleTexts.contains("Tap a square to start a game. You play X."))
        let view = try await bob.tapLatestMessage()
        #expect(await bob.presentationStyle() == .expanded)
        #expect(view.interactiveNodes(matching: "Row 2, column 2, X").count == 1)
        try await bob.tap("square0")
        #expect(await bob.staged()?.message?.template?.caption == "It's your move!")
    }

    @Test("Rematch: whoever asks plays X and moves first, in a new session against the same opponent")
    func rematch() async throws {
        let (simulator, people) = conversation(["Alice", "Bob", "Carol"])
        let (alice, bob, carol) = (people[0], people[1], people[2])
        let aliceID = try await alice.participantID(in: appName)
        let bobID = try await bob.participantID(in: appName)
        try await play([0, 3, 1, 4, 2], x: alice, o: bob)
        let oldSession = try #require(try await bob.latestGameMessage()?.session)

        try await bob.tapLatestMessage()
        try await bob.tap("Rematch")
        #expect(await bob.view().visibleTexts.contains("Rematch against \(aliceID.mention): you play X, tap a square to move first."))
        try await bob.tap("square4")
        let invitation = try #require(await bob.staged()?.message)
        #expect(invitation.template?.caption == "Want a rematch?")
        #expect(invitation.session != oldSession)
        let items = try QueryItems(url: #require(invitation.url))
        #expect(items["xPlayer"] == bobID.description)
        #expect(items["oPlayer"] == aliceID.description)
        try await bob.sendStagedMove()

        try await carol.tapMessage(containing: "Want a rematch?")
        try await carol.tap("square0")
        #expect(await carol.appError()?.message == "This game is between \(bobID.mention) and \(aliceID.mention); you're watching.")

        let answer = try await alice.tapMessage(containing: "Want a rematch?")
        #expect(answer.visibleTexts.contains("It's your move! You play O."))
        try await alice.tap("square0")
        try await alice.sendStagedMove()
        let sessions = Set(await simulator.messages.compactMap { $0.message?.session })
        #expect(sessions.count == 2, "the old game and the rematch are two transcript entries")
    }

    @Test("Every square is a button a screen reader can name; each message describes its board and leaves a summary")
    func accessibility() async throws {
        let (_, people) = conversation()
        let (alice, bob) = (people[0], people[1])
        let view = try await alice.openApp(named: appName)
        #expect(view.accessibilityProblems.isEmpty)
        for row in 1...3 {
            for column in 1...3 {
                #expect(view.interactiveNodes(matching: "Row \(row), column \(column), empty").count == 1)
            }
        }
        try await alice.tap("square4")
        let message = try #require(await alice.staged()?.message)
        #expect(message.accessibilityLabel == "Want to play Tic-Tac-Toe? Tic-Tac-Toe board. Top row: empty, empty, empty. Middle row: empty, X, empty. Bottom row: empty, empty, empty. O to move.")
        #expect(message.summaryText == "\(try await alice.participantID(in: appName).mention) played the center")
        try await alice.sendStagedMove()
        let board = try await bob.tapLatestMessage()
        #expect(board.interactiveNodes(matching: "Row 2, column 2, X").count == 1)
        #expect(board.accessibilityProblems.isEmpty)
    }
}
