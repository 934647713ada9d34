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

    @Test("Older messages of a session leave summary lines in place; the newest is the one bubble")
    func collapse() {
        let poll = SessionID(), game = SessionID()
        let items = [
            Item(name: "poll 1", transcriptSessionID: poll), Item(name: "text a", transcriptSessionID: nil),
            Item(name: "game 1", transcriptSessionID: game), Item(name: "poll 2", transcriptSessionID: poll),
            Item(name: "text b", transcriptSessionID: nil), Item(name: "game 2", transcriptSessionID: game),
            Item(name: "poll 3", transcriptSessionID: poll),
        ]
        #expect(shape(Transcript.collapse(items)) == [
            "summary poll 1", "bubble text a", "summary game 1", "summary poll 2", "bubble text b", "bubble game 2", "bubble poll 3",
        ])
    }

    @Test("Messages without a session and sessions of one message stay bubbles")
    func noCollapse() {
        let items = [Item(name: "a", transcriptSessionID: nil), Item(name: "b", transcriptSessionID: SessionID()), Item(name: "c", transcriptSessionID: nil)]
        #expect(Transcript.collapse(items).allSatisfy { $0.isBubble })
        #expect(Transcript.collapse(items).map(\.item) == items)
        #expect(Transcript.collapse([Item]()).isEmpty)
    }

    @Test("Messages collapse by their session")
    func messagesCollapse() {
        let session = Session()
        let messages = [Message(session: session), Message(), Message(session: session)]
        #expect(Transcript.collapse(messages).map(\.isBubble) == [false, true, true])
    }
}
