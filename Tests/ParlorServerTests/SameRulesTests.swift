import Foundation
import ParlorHost
import ParlorKit
import ParlorTesting
import Testing

/// The simulator promises the server's rules. One scenario — good and bad text, a retried and a
/// stolen id, two people replying to one session head at once, a forged session step — runs
/// through `ConversationSimulator` and through a real server over WebSocket, and both must give
/// the same outcome and error code at every step.
@Suite("The simulator and the server apply the same rules")
struct SameRulesTests {
    @Test("Every step of the scenario has the same outcome in the simulator and on the server")
    func sameOutcomes() async throws {
        let simulated = try await Self.scenario(SimulatorDriver())
        let server = try TestServer(directory: TestServer.builtIn(adding: [AnyMessagesApp(Tally())])) {
            // Expiry at once after reading, swept often: the simulator's clock is moved instead.
            $0.expiryDelay = .zero
            $0.expirySweepInterval = .milliseconds(100)
        }
        let served = try await server.run(.live) { api in
            try await Self.scenario(try await ServerDriver.start(api))
        }
        #expect(simulated == Self.expected)
        #expect(served == Self.expected)
        for (index, (simulator, server)) in zip(simulated, served).enumerated() where simulator != server {
            Issue.record("step \(index): simulator \(simulator), server \(server)")
        }
    }

    /// What each step of `scenario` gives, on both.
    static let expected: [String] = [
        "accepted 1", "invalidValue", "invalidValue", "invalidValue", "accepted 2", "textExceedsMaxSize", "accepted 3",
        "accepted 4", "idInUse", "accepted 4",
        "accepted 5", "accepted 6", "sessionConflict", "actionRefused",
        "accepted 7; the reader no longer sees it; the sender does",
    ]

    static func scenario(_ driver: some RulesDriver) async throws -> [String] {
        var outcomes: [String] = []
        // Text: blank, at the limit, over it, and one letter under 30,000 combining marks.
        for text in [
            "Hello", "", "   ", " \n\t ", String(repeating: "a", count: Limits.maxTextLength),
            String(repeating: "a", count: Limits.maxTextLength + 1), "a" + String(repeating: "\u{301}", count: 30_000),
        ] {
            outcomes.append(try await driver.sendText(text, id: MessageID(), as: .alice))
        }
        // An id: used once, stolen by someone else, retried by its sender (the original comes back).
        let id = MessageID()
        outcomes.append(try await driver.sendText("mine", id: id, as: .alice))
        outcomes.append(try await driver.sendText("stolen", id: id, as: .bob))
        outcomes.append(try await driver.sendText("mine again", id: id, as: .alice))
        // A session: Alice starts a tally; both stage the next step on that head; the second is stale.
        outcomes.append(try await driver.stageTallyAndSend(as: .alice))
        try await driver.stageNextTally(as: .alice)
        try await driver.stageNextTally(as: .bob)
        outcomes.append(try await driver.sendStaged(as: .alice))
        outcomes.append(try await driver.sendStaged(as: .bob))
        // A step the app refuses: Bob continues from the new head but skips a number.
        try await driver.stageNextTally(as: .bob, skipping: true)
        outcomes.append(try await driver.sendStaged(as: .bob))
        // An expiring message: Alice sends it, Bob reads it, and once its time is up it is gone for him.
        outcomes.append(try await driver.sendExpiringAndLetBobRead())
        return outcomes
    }
}

enum Speaker: String, Sendable { case alice = "Alice", bob = "Bob" }

/// One side of the comparison: acts as Alice or Bob and reports each outcome as
/// `accepted <sequence>` or the error code.
protocol RulesDriver: Sendable {
    func sendText(_ text: String, id: MessageID, as person: Speaker) async throws -> String
    /// Opens Tally from the drawer, stages a new tally and sends it.
    func stageTallyAndSend(as person: Speaker) async throws -> String
    /// Taps the newest tally message and stages its next step (or, `skipping`, the one after it).
    func stageNextTally(as person: Speaker, skipping: Bool) async throws
    func sendStaged(as person: Speaker) async throws -> String
    /// Alice sends an expiring tally; Bob reads it and its time passes. Says who still sees it.
    func sendExpiringAndLetBobRead() async throws -> String
}

/// How the expiry step reads, on both sides.
func expiryOutcome(sequence: some BinaryInteger, readerSees: Bool, senderSees: Bool) -> String {
    "accepted \(sequence); the reader \(readerSees ? "still sees it" : "no longer sees it"); the sender \(senderSees ? "does" : "does not")"
}

extension RulesDriver {
    func stageNextTally(as person: Speaker) async throws { try await stageNextTally(as: person, skipping: false) }
}

struct SimulatorDriver: RulesDriver {
    let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [Tally()])

    func sendText(_ text: String, id: MessageID, as person: Speaker) async throws -> String {
        await outcome { try await simulator.participant(person.rawValue).send(text: text, id: id).sequence }
    }

    func stageTallyAndSend(as person: Speaker) async throws -> String {
        let participant = simulator.participant(person.rawValue)
        _ = try await participant.openApp(named: "Tally")
        try await participant.tap("Start")
        return await outcome { try await participant.sendStaged()?.sequence ?? 0 }
    }

    func stageNextTally(as person: Speaker, skipping: Bool) async throws {
        let participant = simulator.participant(person.rawValue)
        _ = try await participant.tapLatestMessage()
        try await participant.tap(skipping ? "Skip" : "Add")
    }

    func sendStaged(as person: Speaker) async throws -> String {
        await outcome { try await simulator.participant(person.rawValue).sendStaged()?.sequence ?? 0 }
    }

    func sendExpiringAndLetBobRead() async throws -> String {
        let (alice, bob) = (simulator.participant("Alice"), simulator.participant("Bob"))
        _ = try await alice.openApp(named: "Tally")
        try await alice.tap("Expiring")
        let posted = try #require(await simulator.messages.last)
        #expect(posted.message?.shouldExpire == true)
        _ = try await bob.transcript()  // Bob reads it
        await simulator.advanceClock(by: ConversationSimulator.expiryDelay + .seconds(1))
        return expiryOutcome(
            sequence: posted.sequence, readerSees: try await bob.transcript().contains { $0.posted.id == posted.id },
            senderSees: try await alice.transcript().contains { $0.posted.id == posted.id })
    }

    private func outcome(_ body: () async throws -> Int) async -> String {
        do {
            return "accepted \(try await body())"
        } catch let error as MessagesError {
            return error.code.name
        } catch {
            return "\(error)"
        }
    }
}

struct ServerDriver: RulesDriver {
    let api: API
    let conversation: ConversationID
    let people: [Speaker: Person]
    let sockets: [Speaker: TestSocket]

    static func start(_ api: API) async throws -> ServerDriver {
        let port = try #require(api.port)
        let alice = try await api.signUp("alice")
        let bob = try await api.signUp("bob")
        let direct = try await api.conversation(of: alice, with: [bob])
        return ServerDriver(api: api, conversation: direct.id, people: [.alice: alice, .bob: bob], sockets: [
            .alice: try await TestSocket.session(port: port, as: alice, since: [direct.id: 0]),
            .bob: try await TestSocket.session(port: port, as: bob, since: [direct.id: 0]),
        ])
    }

    func sendText(_ text: String, id: MessageID, as person: Speaker) async throws -> String {
        try await request("sendText", ["id": .string(id.description), "text": .string(text)], as: person)
    }

    func stageTallyAndSend(as person: Speaker) async throws -> String {
        let socket = try socket(person)
        let opened = try await socket.openApp(Tally.id.rawValue, in: conversation)
        try await socket.activate("Start", in: opened, conversation: conversation)
        _ = try await socket.staged()
        return try await sendStaged(as: person)
    }

    func stageNextTally(as person: Speaker, skipping: Bool) async throws {
        let socket = try socket(person)
        let messages = try await api.messages(in: conversation, as: try #require(people[person]))
        let newest = try #require(messages.last { $0.app != nil })
        let opened = try await socket.tapMessage(newest.id, in: conversation)
        try await socket.activate(skipping ? "Skip" : "Add", in: opened, conversation: conversation)
        _ = try await socket.next("staged") { $0.staged != nil }
    }

    func sendStaged(as person: Speaker) async throws -> String {
        try await request("sendStaged", [:], as: person)
    }

    func sendExpiringAndLetBobRead() async throws -> String {
        let (alice, bob) = (try socket(.alice), try socket(.bob))
        let opened = try await alice.openApp(Tally.id.rawValue, in: conversation)
        try await alice.activate("Expiring", in: opened, conversation: conversation)
        let message = try #require(try await bob.next("message") { $0.message?.app?.shouldExpire == true }.message)
        try await bob.send("read", ["conversation": .string(conversation), "sequence": .int(message.sequence)])
        _ = try await bob.next("expired", timeout: .seconds(60))  // 100 ms sweeps; generous for a stalled runner
        return expiryOutcome(
            sequence: message.sequence,
            readerSees: try await api.messages(in: conversation, as: try #require(people[.bob])).contains { $0.id == message.id },
            senderSees: try await api.messages(in: conversation, as: try #require(people[.alice])).contains { $0.id == message.id })
    }

    private func request(_ type: String, _ fields: [String: JSON], as person: Speaker) async throws -> String {
        let socket = try socket(person)
        let requestId = UUID().uuidString
        var fields = fields
        fields["conversation"] = .string(conversation)
        fields["requestId"] = .string(requestId)
        try await socket.send(type, fields)
        let reply = try await socket.reply(to: requestId)
        if let code = reply.error?.code { return code }
        return "accepted \(try #require(reply.message).sequence)"
    }

    private func socket(_ person: Speaker) throws -> TestSocket { try #require(sockets[person]) }
}

/// A test app whose messages count up in one session: "Start" stages 1 in a new session, "Add"
/// stages the selected message's count plus one in its session, "Skip" plus two (which
/// `validate` refuses: a step is exactly one more than the head it replaces); "Expiring" sends a
/// new tally at once that disappears for its readers after the expiry delay.
struct Tally: MessagesApp {
    static let id: AppID = "org.parlor.test.tally"

    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Tally", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#), sendsExpiringMessages: true)
    }

    struct State: Codable, Sendable {}
    enum Action: Codable, Sendable { case start, add, skip, expiring }

    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            Button("Start", action: Action.start)
            Button("Add", action: Action.add)
            Button("Skip", action: Action.skip)
            Button("Expiring", action: Action.expiring)
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        let selected = context.conversation.selectedMessage
        if case .expiring = action {
            var message = Message(session: Session(), url: try QueryItems(["count": "1"]).url(base: "https://tally.example/"))
            message.shouldExpire = true
            try await context.conversation.send(message)
            return
        }
        let (session, count): (Session, Int) = switch action {
        case .start, .expiring: (Session(), 1)
        case .add: (selected?.session ?? Session(), (selected.flatMap(Self.count(of:)) ?? 0) + 1)
        case .skip: (selected?.session ?? Session(), (selected.flatMap(Self.count(of:)) ?? 0) + 2)
        }
        let url = try QueryItems(["count": "\(count)"]).url(base: "https://tally.example/")
        try await context.conversation.insert(Message(session: session, url: url, layout: .template(TemplateLayout(caption: "\(count)"))))
    }

    func validate(_ message: Message, replacing head: Message?) throws {
        let count = Self.count(of: message) ?? 0
        guard count == (head.flatMap(Self.count(of:)) ?? 0) + 1 else {
            throw MessagesError(.actionRefused, "A tally goes up by one.")
        }
    }

    static func count(of message: Message) -> Int? {
        message.url.flatMap { try? QueryItems(url: $0)["count"] }.flatMap(Int.init)
    }
}
