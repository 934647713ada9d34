/// Something that can sit in a transcript and belong to a session.
public protocol TranscriptItem {
    /// The session this item belongs to, if any.
    var transcriptSessionID: SessionID? { get }
}

extension Message: TranscriptItem {
    /// The message's session id, if it has a session.
    public var transcriptSessionID: SessionID? { session?.id }
}

/// One line of a transcript after session collapse.
public enum TranscriptEntry<Item> {
    /// An item shown in full: a message without a session, or the newest of its session.
    case bubble(Item)
    /// An older message of a session, replaced by a later one: only its summary line stays.
    case summary(Item)

    /// The item, whether shown in full or as a summary.
    public var item: Item {
        switch self {
        case .bubble(let item), .summary(let item): item
        }
    }

    /// Whether the item is shown in full.
    public var isBubble: Bool {
        if case .bubble = self { return true }
        return false
    }
}

/// Session collapse, as in Messages: all messages of a session form one transcript entry. The
/// newest is shown in full at its place (at the bottom when it is the newest message); each older
/// one leaves its summary line where it was.
public enum Transcript {
    /// Collapses `items`, given oldest first.
    /// - Parameter items: the transcript's items, oldest first.
    /// - Returns: one entry per item, in the same order.
    public static func collapse<Item: TranscriptItem>(_ items: [Item]) -> [TranscriptEntry<Item>] {
        var newest: [SessionID: Int] = [:]
        for (index, item) in items.enumerated() {
            if let session = item.transcriptSessionID { newest[session] = index }
        }
        return items.enumerated().map { index, item in
            guard let session = item.transcriptSessionID, newest[session] != index else { return .bubble(item) }
            return .summary(item)
        }
    }
}
