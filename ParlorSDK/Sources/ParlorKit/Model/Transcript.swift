/// Something that can sit in a transcript and belong to a session.
public protocol TranscriptItem {
    /// Who sent an item, as the transcript tells people apart.
    associatedtype Sender: Hashable
    /// The session this item belongs to, if any.
    var transcriptSessionID: SessionID? { get }
    /// Who sent the item.
    var transcriptSender: Sender { get }
    /// Whether the item answers its session (`Message.answersSession`): a like or a vote, which
    /// leaves the session's bubble in the name of whoever started the session.
    var answersSession: Bool { get }
    /// Who sent the first message of the item's session, when the host knows it (the server's
    /// `startedBy`); nil to take the sender of the session's first item given to `collapse`. A
    /// host that gives one page of a transcript, or leaves out messages that expired for a reader,
    /// says it, so that every client names the same person.
    var transcriptSessionStarter: Sender? { get }
}

extension TranscriptItem {
    /// Not known: the sender of the session's first item given stands for it.
    public var transcriptSessionStarter: Sender? { nil }
}

extension Message: TranscriptItem {
    /// The message's session id, if it has a session.
    public var transcriptSessionID: SessionID? { session?.id }
    /// The message's sender, as the viewing app knows them.
    public var transcriptSender: ParticipantID? { senderParticipantIdentifier }
}

/// One line of a transcript after session collapse.
public enum TranscriptEntry<Item: TranscriptItem> {
    /// An item shown in full: a message without a session, or the newest of its session.
    case bubble(Item)
    /// An older message of a session, replaced by a later one: only its summary line stays.
    case summary(Item)
    /// The newest message of a session that answers it, sent by someone other than whoever started
    /// the session: its summary line at its place, and under it the session's bubble, drawn in
    /// the name of `startedBy` (the sender of the session's first message).
    case answer(Item, startedBy: Item.Sender)

    /// The item, whether shown in full or as a summary.
    public var item: Item {
        switch self {
        case .bubble(let item), .summary(let item), .answer(let item, _): item
        }
    }

    /// Whether the item is shown in full.
    public var isBubble: Bool {
        if case .summary = self { return false }
        return true
    }
}

/// Session collapse, as in Messages: all messages of a session form one transcript entry. The
/// newest is shown in full at its place (at the bottom when it is the newest message); each older
/// one leaves its summary line where it was. A session whose newest message answers it
/// (`answersSession`: a like, a vote) keeps its bubble in the name of whoever started it, under
/// that answer's summary line, so that a like never moves the thing liked to the liker's side.
public enum Transcript {
    /// Collapses `items`, given oldest first.
    /// - Parameter items: the transcript's items, oldest first.
    /// - Returns: one entry per item, in the same order.
    public static func collapse<Item: TranscriptItem>(_ items: [Item]) -> [TranscriptEntry<Item>] {
        var newest: [SessionID: Int] = [:]
        var first: [SessionID: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let session = item.transcriptSessionID else { continue }
            newest[session] = index
            if first[session] == nil { first[session] = index }
        }
        return items.enumerated().map { index, item in
            guard let session = item.transcriptSessionID else { return .bubble(item) }
            guard newest[session] == index else { return .summary(item) }
            if item.answersSession, let starter = item.transcriptSessionStarter ?? first[session].map({ items[$0].transcriptSender }),
                starter != item.transcriptSender {
                return .answer(item, startedBy: starter)
            }
            return .bubble(item)
        }
    }
}
