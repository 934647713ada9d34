import Foundation
@_spi(Hosting) import ParlorKit
import ParlorStore

/// What travels in a `NOTIFY` payload: JSON naming the sending node and either committed
/// messages, as sequence ranges per conversation, or another cluster event.
///
/// Pointers are packed as ranges because a group commit gives each conversation consecutive
/// sequence numbers: one range per conversation, so a burst in one conversation is one short
/// payload. Payloads stay under PostgreSQL's 8,000-byte limit; more pointers take more payloads.
struct ClusterNotice: Codable, Sendable, Equatable {
    /// The node that sent it.
    var origin: String
    /// Committed messages: conversation id → flat list of inclusive ranges `[first, last, first, last, …]`.
    var committed: [String: [Int64]]?
    /// Any event but `messagesCommitted`.
    var event: ClusterEvent?

    /// The most bytes one payload may have (PostgreSQL refuses 8,000 and more).
    static let payloadLimit = 7_900
    /// The most pointers one range may expand to (a guard against a corrupt payload).
    static let maxRange: Int64 = 100_000

    private enum CodingKeys: String, CodingKey {
        case origin = "o", committed = "c", event = "e"
    }

    /// The event this notice carries, or nil when it carries nothing valid.
    var envelope: ClusterEnvelope? {
        if let event { return ClusterEnvelope(origin: origin, event: event) }
        guard let committed else { return nil }
        var pointers: [MessagePointer] = []
        for (conversation, bounds) in committed.sorted(by: { $0.key < $1.key }) {
            guard let id = ConversationID(conversation), bounds.count.isMultiple(of: 2) else { return nil }
            for index in stride(from: 0, to: bounds.count, by: 2) {
                let (first, last) = (bounds[index], bounds[index + 1])
                guard first >= 1, first <= last, last - first < Self.maxRange else { return nil }
                pointers += (first...last).map { MessagePointer(conversation: id, sequence: $0) }
            }
        }
        return pointers.isEmpty ? nil : ClusterEnvelope(origin: origin, event: .messagesCommitted(pointers))
    }

    /// The payload of one notice.
    func payload() throws -> String {
        try CompactJSONEncoder().text(self)
    }

    /// The payloads announcing `pointers`: one unless they do not fit in one.
    static func payloads(committed pointers: [MessagePointer], origin: String) throws -> [String] {
        var ranges: [String: [Int64]] = [:]
        for (conversation, sequences) in Dictionary(grouping: pointers, by: \.conversation) {
            ranges[conversation.description] = Self.ranges(of: sequences.map(\.sequence))
        }
        var payloads: [String] = []
        var current: [String: [Int64]] = [:]
        let overhead = try ClusterNotice(origin: origin, committed: [:]).payload().utf8.count
        var size = overhead
        for (conversation, bounds) in ranges.sorted(by: { $0.key < $1.key }) {
            // "<id>":[1,2],  (quotes, colon, brackets, comma, digits and commas)
            let entry = conversation.utf8.count + 6 + bounds.reduce(0) { $0 + String($1).utf8.count + 1 }
            if !current.isEmpty, size + entry > payloadLimit {
                payloads.append(try ClusterNotice(origin: origin, committed: current).payload())
                current = [:]
                size = overhead
            }
            current[conversation] = bounds
            size += entry
        }
        if !current.isEmpty { payloads.append(try ClusterNotice(origin: origin, committed: current).payload()) }
        return payloads
    }

    /// Sorted sequence numbers as inclusive ranges, flattened.
    static func ranges(of sequences: [Int64]) -> [Int64] {
        var bounds: [Int64] = []
        for sequence in Set(sequences).sorted() {
            if let last = bounds.last, last == sequence - 1 {
                bounds[bounds.count - 1] = sequence
            } else {
                bounds += [sequence, sequence]
            }
        }
        return bounds
    }

    /// Reads a payload; nil when it is not a notice.
    static func decode(_ payload: String) -> ClusterNotice? {
        try? JSONDecoder().decode(ClusterNotice.self, from: Data(payload.utf8))
    }
}
