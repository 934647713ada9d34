import Foundation
import ParlorKit
import Testing

@Suite("Session collapse")
struct TranscriptTests {
    struct Item: TranscriptItem, Equatable {
        let name: String
        let transcriptSessionID: SessionID?
        let transcriptSender: String
        let answersSession: Bool
        let transcriptSessionStarter: String?
    }

    /// An entry as the table writes it: "bubble", "summary", or "answer as <sender of the session's start>".
    private static func shown(_ entry: TranscriptEntry<Item>) -> String {
        switch entry {
        case .bubble: "bubble"
        case .summary: "summary"
        case .answer(_, let starter): "answer as \(starter)"
        }
    }

    /// ParlorSDK/Tests/session-collapse.json: the cases the browser's transcript is held to as well.
    struct Cases: Decodable {
        struct Case: Decodable {
            let name: String
            let messages: [[String?]]
            let shown: [String]
        }
        let cases: [Case]

        static func load() throws -> [Case] {
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("session-collapse.json")
            return try JSONDecoder().decode(Cases.self, from: Data(contentsOf: file)).cases
        }
    }

    @Test("Every case of the table both clients are held to: the newest of a session is its bubble, older ones leave summary lines in place")
    func table() throws {
        let cases = try Cases.load()
        #expect(cases.count >= 10)
        #expect(cases.contains { $0.shown.contains { $0.hasPrefix("answer as ") } }, "the table holds answers")
        for test in cases {
            var sessions: [String: SessionID] = [:]
            let items = test.messages.map { fields in
                let field = { (index: Int) in fields.indices.contains(index) ? fields[index] : nil }
                return Item(
                    name: field(0) ?? "",
                    transcriptSessionID: field(1).map { name in
                        if let id = sessions[name] { return id }
                        let id = SessionID()
                        sessions[name] = id
                        return id
                    },
                    transcriptSender: field(2) ?? "alice", answersSession: field(3) == "answers", transcriptSessionStarter: field(4))
            }
            #expect(Transcript.collapse(items).map(Self.shown) == test.shown, "\(test.name)")
            #expect(Transcript.collapse(items).map(\.item) == items, "\(test.name): in the same order")
        }
    }

    @Test("Messages collapse by their session")
    func messagesCollapse() {
        let session = Session()
        let messages = [Message(session: session), Message(), Message(session: session)]
        #expect(Transcript.collapse(messages).map(\.isBubble) == [false, true, true])
    }

    @Test("A message that answers its session, by someone else, keeps the session's bubble in its starter's name")
    func answersKeepTheStarter() {
        let session = Session()
        var share = Message(session: session), like = Message(session: session, answersSession: true)
        share.senderParticipantIdentifier = ParticipantID()
        like.senderParticipantIdentifier = ParticipantID()
        guard case .answer(let answer, let starter) = Transcript.collapse([share, like]).last else {
            Issue.record("the like is not drawn as an answer")
            return
        }
        #expect(answer == like && starter == share.senderParticipantIdentifier)
        #expect(Transcript.collapse([share, Message(session: session)]).last.map(Self.isPlainBubble) == true, "a turn is its sender's")
    }

    private static func isPlainBubble(_ entry: TranscriptEntry<Message>) -> Bool {
        if case .bubble = entry { return true }
        return false
    }
}
