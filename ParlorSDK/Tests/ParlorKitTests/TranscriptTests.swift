import Foundation
import ParlorKit
import Testing

@Suite("Session collapse")
struct TranscriptTests {
    struct Item: TranscriptItem, Equatable {
        let name: String
        let transcriptSessionID: SessionID?
    }

    private func shape(_ entries: [TranscriptEntry<Item>]) -> [String] {
        entries.map { ($0.isBubble ? "bubble " : "summary ") + $0.item.name }
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
        #expect(cases.count >= 5)
        for test in cases {
            var sessions: [String: SessionID] = [:]
            let items = test.messages.map { pair in
                Item(name: pair.first.flatMap { $0 } ?? "", transcriptSessionID: pair.last.flatMap { $0 }.map { name in
                    if let id = sessions[name] { return id }
                    let id = SessionID()
                    sessions[name] = id
                    return id
                })
            }
            #expect(Transcript.collapse(items).map { $0.isBubble ? "bubble" : "summary" } == test.shown, "\(test.name)")
            #expect(Transcript.collapse(items).map(\.item) == items, "\(test.name): in the same order")
        }
    }

    @Test("Messages collapse by their session")
    func messagesCollapse() {
        let session = Session()
        let messages = [Message(session: session), Message(), Message(session: session)]
        #expect(Transcript.collapse(messages).map(\.isBubble) == [false, true, true])
    }
}
