import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import ParlorTesting
import Testing
import TicTacToe

/// A message URL is outside input: a modified client can send any URL it likes. These tests
/// build forged messages by hand and check that the app's `validate` refuses them, then send them
/// to the simulated host as such a client would (`sendRawMessage`) and check that nothing is committed.
@Suite("Untrusted messages: forged moves and malformed URLs")
struct UntrustedMessageTests {
    let app = TicTacToe()

    /// `head`'s message with its URL edited and a new id: what a forger's client would send.
    func forgery(of head: PostedMessage, session: Session? = nil, _ edit: (inout QueryItems) -> Void) throws -> Message {
        var message = try #require(head.message)
        var items = try QueryItems(url: #require(message.url))
        edit(&items)
        message.id = MessageID()
        message.url = try items.url(base: Match.baseURL)
        if let session { message.session = session }
        return message
    }

    /// Expects `validate` (with the sender set, as the host sets it) and the simulated host's
    /// commit to refuse `forged` from `sender` with `reason`, leaving the conversation as it was.
    func expectRefused(
        _ forged: Message, from sender: String, replacing head: PostedMessage?, in simulator: ConversationSimulator,
        reason: String, code: MessagesError.Code = .actionRefused
    ) async {
        var trusted = forged
        trusted.senderParticipantIdentifier = await simulator.participantID(of: sender, in: hostedAppID)
        let direct = #expect(throws: MessagesError.self) { try app.validate(trusted, replacing: head?.message) }
        #expect(direct == MessagesError(code, reason))

        let before = await simulator.messages
        let hosted = await #expect(throws: MessagesError.self) {
            try await simulator.participant(sender).sendRawMessage(forged, replacing: head?.id)
        }
        #expect(hosted == MessagesError(code, reason))
        #expect(await simulator.messages == before, "nothing was committed")
    }

    @Test("The same path accepts an honest move: the refusals below are about the forgeries")
    func honestMoveIsAccepted() async throws {
        let (simulator, people) = conversation()
        try await people[0].startGame(at: 4)
        let head = try #require(await simulator.messages.last)
        let bobID = await simulator.participantID(of: "Bob", in: hostedAppID)
        let move = try forgery(of: head) { items in
            items["currentPlayer"] = "O"
            items["position0"] = "O"
            items["oPlayer"] = bobID.description
        }
        _ = try await simulator.participant("Bob").sendRawMessage(move, replacing: head.id)
        let latest = try await people[0].latestGameMessage()
        #expect(try positions(of: latest) == ["O", "-", "-", "-", "X", "-", "-", "-", "-"])
    }

    @Test("A forged message that changes more than one square is refused")
    func twoSquares() async throws {
        let (simulator, people) = conversation()
        try await people[0].startGame(at: 4)
        let head = try #require(await simulator.messages.last)
        let forged = try forgery(of: head) { items in
            items["position0"] = "O"
            items["position8"] = "X"  // and an extra X for good measure: still a possible board
        }
        await expectRefused(forged, from: "Bob", replacing: head, in: simulator, reason: "A move changes exactly one square; this message changes 2.")
    }

    @Test("A forged move for the other side is refused: out of turn, by a watcher, or with the wrong mark")
    func otherSide() async throws {
        let (simulator, people) = conversation(["Alice", "Bob", "Carol"])
        let (alice, bob) = (people[0], people[1])
        let aliceID = await simulator.participantID(of: "Alice", in: hostedAppID)
        let bobID = await simulator.participantID(of: "Bob", in: hostedAppID)
        try await alice.startGame(at: 4)
        let first = try #require(await simulator.messages.last)
        let oMove = try forgery(of: first) { items in
            items["currentPlayer"] = "O"
            items["position0"] = "O"
        }
        await expectRefused(oMove, from: "Alice", replacing: first, in: simulator, reason: "It's not your turn: waiting for someone to play O.")
        let wrongMark = try forgery(of: first) { items in items["position0"] = "X" }
        await expectRefused(
            wrongMark, from: "Bob", replacing: first, in: simulator, reason: "The message's board is not a real game: X moves first and the players alternate, so X cannot have 2 marks to O's 0.",
            code: .malformedURLState)

        try await bob.move(0)
        let second = try #require(await simulator.messages.last)
        let watcherMove = try forgery(of: second) { items in
            items["currentPlayer"] = "X"
            items["position1"] = "X"
        }
        await expectRefused(watcherMove, from: "Carol", replacing: second, in: simulator, reason: "This game is between \(aliceID.mention) and \(bobID.mention); you're watching.")
    }

    @Test("A forged move that changes who plays X or O is refused")
    func changedPlayers() async throws {
        let (simulator, people) = conversation(["Alice", "Bob", "Carol"])
        let carolID = await simulator.participantID(of: "Carol", in: hostedAppID)
        try await people[0].startGame(at: 4)
        let first = try #require(await simulator.messages.last)
        let bobNamesCarol = try forgery(of: first) { items in
            items["currentPlayer"] = "O"
            items["position0"] = "O"
            items["oPlayer"] = carolID.description
        }
        await expectRefused(bobNamesCarol, from: "Bob", replacing: first, in: simulator, reason: "A move cannot change who plays X and O.")

        try await people[1].move(0)
        let second = try #require(await simulator.messages.last)
        let aliceSwapsOpponent = try forgery(of: second) { items in
            items["currentPlayer"] = "X"
            items["position1"] = "X"
            items["oPlayer"] = carolID.description
        }
        await expectRefused(aliceSwapsOpponent, from: "Alice", replacing: second, in: simulator, reason: "A move cannot change who plays X and O.")
    }

    @Test("A forged move after the game is over is refused")
    func finishedGame() async throws {
        let (simulator, people) = conversation()
        try await play([0, 3, 1, 4, 2], x: people[0], o: people[1])
        let final = try #require(await simulator.messages.last)
        let playOn = try forgery(of: final) { items in
            items["currentPlayer"] = "O"
            items["position8"] = "O"
        }
        await expectRefused(
            playOn, from: "Bob", replacing: final, in: simulator,
            reason: "The message's board is not a real game: This board has moves played after the game was won.", code: .malformedURLState)
        let erase = try forgery(of: final) { items in items["position2"] = "-"; items["currentPlayer"] = "O" }
        await expectRefused(erase, from: "Bob", replacing: final, in: simulator, reason: "This game is over. Start a rematch to play again.")
    }

    @Test("A forged new game must be its sender's single first move as X")
    func forgedStart() async throws {
        let (simulator, people) = conversation()
        let aliceID = await simulator.participantID(of: "Alice", in: hostedAppID)
        try await people[0].startGame(at: 4)
        let head = try #require(await simulator.messages.last)
        let headStart = try forgery(of: head, session: Session()) { items in
            items["currentPlayer"] = "O"
            items["position0"] = "O"
        }
        await expectRefused(headStart, from: "Alice", replacing: nil, in: simulator, reason: "A new game starts with X's first move alone; this board has 2 marks.")
        let inAlicesName = try forgery(of: head, session: Session()) { items in items["xPlayer"] = aliceID.description }
        await expectRefused(inAlicesName, from: "Bob", replacing: nil, in: simulator, reason: "Whoever starts a game plays X; this message names someone else.")
    }

    @Test("A malformed URL sent to the host is refused as malformed, never committed")
    func malformedSend() async throws {
        let (simulator, people) = conversation()
        try await people[0].startGame(at: 4)
        let head = try #require(await simulator.messages.last)
        let forged = try forgery(of: head) { items in items["position0"] = "Q" }
        await expectRefused(
            forged, from: "Bob", replacing: head, in: simulator, reason: "The message's 'position0' should be X or O, not 'Q'.", code: .malformedURLState)
    }

    @Test("Opening a message whose URL is malformed shows an error and a fresh board, never a crash")
    func malformedMessageOpens() async throws {
        // The host refuses such messages, but a client may still meet one (an older app version
        // wrote it); the app is run here directly, as a host runs it.
        let instance = AppInstance(app: app, configuration: InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [ParticipantID()],
            conversationHost: NoConversationHost(), container: InMemoryContainer()))
        let url = try #require(URL(string: "https://parlor.example/tictactoe?currentPlayer=X&position0=%F0%9F%92%A5"))
        var message = Message(session: Session(), url: url)
        message.appID = app.manifest.id
        let update = await instance.tap(message)
        #expect(update.isActive)
        #expect(update.error?.error.code == .malformedURLState)
        #expect(update.error?.error.message == "The message's 'position0' should be X or O, not '💥'.")
        #expect(update.view.visibleTexts.contains("Tap a square to start a game. You play X."))
    }

    @Test("Opening a malformed message after a game was open and closed shows a fresh board, not the game before (however the app is hosted)")
    func malformedMessageAfterAGame() async throws {
        let (simulator, people) = conversation()
        try await people[0].startGame(at: 4)
        let game = try #require(await simulator.messages.last?.message)
        let instance = hosted.makeInstance(InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [ParticipantID()],
            conversationHost: NoConversationHost(), container: InMemoryContainer()))
        let fresh = "Tap a square to start a game. You play X."
        let opened = await instance.tap(game)
        #expect(opened.error == nil && !opened.view.visibleTexts.contains(fresh), "\(opened.view.visibleTexts)")
        _ = await instance.dismiss()
        let url = try #require(URL(string: "https://parlor.example/tictactoe?currentPlayer=X&position0=%F0%9F%92%A5") as URL?)
        var malformed = Message(session: Session(), url: url)
        malformed.appID = hosted.manifest.id
        let update = await instance.tap(malformed)
        #expect(update.error?.error.code == .malformedURLState)
        #expect(update.view.visibleTexts.contains(fresh), "\(update.view.visibleTexts)")
    }
}
