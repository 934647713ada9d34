// A session's shared state, as ParlorKit's SharedState and SessionState have it, so that the same
// messages read the same in both: what the session's first message set (`fixed`: a poll's
// question) and one entry per participant that only they change (a vote), carried as JSON in
// the message URL's `state` item (base64url), participants keyed by their compact ids.

/// What the first message set, and one entry per participant.
public struct SharedState: Equatable {
    /// What the first message set; `validate` refuses a later message that changes it.
    public var fixed: JSON
    /// Each participant's entry, in the order they were set.
    public private(set) var entries: [(participant: ParticipantID, entry: JSON)] = []

    /// The query item that holds the state.
    public static let itemName = "state"

    public init(_ fixed: JSON) { self.fixed = fixed }

    /// The state `message` carries.
    /// - Throws: `malformedURLState` when it carries none, or not of this shape.
    public init(message: AppMessage?) throws(AppError) {
        guard let url = message?.url else { throw AppError(.malformedURLState, "The message carries no state.") }
        let base = withBytes(of: url) { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count)]), as: UTF8.self)
        }
        let items = try QueryItems(url: url, base: base)
        guard let bytes = Base64URL.decode(try items.require(Self.itemName)) else {
            throw AppError(.malformedURLState, "The message's state is not valid base64url.")
        }
        let shapeError = AppError(.malformedURLState, "The message's state does not match what the app expects.")
        let json: JSON
        do throws(JSONError) {
            json = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSON in try JSON(parsing: buffer) }
        } catch {
            throw shapeError
        }
        guard case .object(let members) = json["byParticipant"], !json["fixed"].isNull else { throw shapeError }
        fixed = json["fixed"]
        for (key, entry) in members {
            guard let participant = ParticipantID(compact: key) ?? ParticipantID(key), self[participant] == nil else {
                throw shapeError  // not a participant, or one keyed twice
            }
            self[participant] = entry
        }
    }

    /// A participant's entry: nil when they have none; setting nil withdraws it.
    public subscript(participant: ParticipantID) -> JSON? {
        get {
            for item in entries where item.participant == participant { return item.entry }
            return nil
        }
        set {
            let index = entries.firstIndex { $0.participant == participant }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].entry = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((participant, value))
            case (nil, nil): break
            }
        }
    }

    public var participants: [ParticipantID] { entries.map { $0.participant } }

    /// How many entries equal `entry`.
    public func count(of entry: JSON) -> Int { entries.count { $0.entry == entry } }

    /// A URL carrying this state under `base` (`https://example.org/poll`).
    public func url(base: String) -> String {
        let state: JSON = [
            "byParticipant": .object(entries.map { ($0.participant.compact, $0.entry) }),
            "fixed": fixed,
        ]
        var items = QueryItems()
        items.append(Self.itemName, Base64URL.encode(state.text))
        return items.url(base: base)
    }

    public static func == (a: SharedState, b: SharedState) -> Bool {
        a.fixed == b.fixed && a.entries.count == b.entries.count && a.entries.allSatisfy { b[$0.participant] == $0.entry }
    }

    /// Checks a message of the session, as ParlorKit's `SessionState.validate`: `fixed` as the
    /// head has it, and no entry changed but the sender's; then the app's `rule`.
    /// - Parameters:
    ///   - rule: the app's own check of the new state, the head's (nil for a new session), and the sender.
    public static func validate(
        _ message: AppMessage, replacing head: AppMessage?,
        rule: (_ new: SharedState, _ old: SharedState?, _ sender: ParticipantID) throws(AppError) -> Void
    ) throws(AppError) {
        guard let sender = message.sender else { throw AppError(.actionRefused, "The host did not say who sent this message.") }
        let new = try SharedState(message: message)
        let old: SharedState? = if let head { try SharedState(message: head) } else { nil }
        if let old, new.fixed != old.fixed {
            throw AppError(.actionRefused, "What the first message set cannot change afterwards.")
        }
        for participant in new.participants + (old?.participants ?? []) where participant != sender {
            if new[participant] != old?[participant] {
                throw AppError(.actionRefused, "A message may change only its sender's own entry, not someone else's.")
            }
        }
        try rule(new, old, sender)
    }

    /// Re-applies `message`'s sender's entry to `head`'s state (for `rebase`), so two people
    /// answering the same message at once both count.
    /// - Parameter making: the app's message for a state.
    public static func rebase(
        _ message: AppMessage, onto head: AppMessage, making: (SharedState) throws(AppError) -> AppMessage
    ) throws(AppError) -> AppMessage {
        guard let sender = message.sender else { throw AppError(.actionRefused, "The host did not say who sent this message.") }
        var merged = try SharedState(message: head)
        merged[sender] = try SharedState(message: message)[sender]
        return try making(merged)
    }
}

/// Base64 with the URL's alphabet (RFC 4648 §5), without padding.
public enum Base64URL {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
            for position in 0...count { out.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells; nil for a character outside the alphabet, padding, or a length
    /// no bytes have, or bits left over that are not zero (only one spelling is read).
    public static func decode(_ text: String) -> [UInt8]? {
        var bits: UInt32 = 0
        var count = 0
        var out: [UInt8] = []
        let read: Bool = withBytes(of: text) { characters in
            for character in characters {
                guard let value = alphabet.firstIndex(of: character) else { return false }
                bits = bits << 6 | UInt32(value)
                count += 6
                if count >= 8 {
                    count -= 8
                    out.append(UInt8(bits >> UInt32(count) & 0xFF))
                }
            }
            return true
        }
        guard read, count < 6, bits & ((1 << UInt32(count)) - 1) == 0 else { return nil }
        return out
    }
}

extension ParticipantID {
    /// The id's 16 bytes in base64url, 22 characters: how shared states key participants.
    public var compact: String { Base64URL.encode(bytes) }

    /// Reads `compact`'s form; nil unless `text` is exactly the 22 characters of an id.
    public init?(compact text: String) {
        guard text.utf8.count == 22, let bytes = Base64URL.decode(text), bytes.count == 16 else { return nil }
        self.init(uuidText(bytes))
    }

    /// The id's 16 bytes.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        var high: UInt8? = nil
        withBytes(of: uuid) { bytes in
            for byte in bytes where byte != UInt8(ascii: "-") {
                let value = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - UInt8(ascii: "A") + 10
                if let first = high {
                    out.append(first << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
        }
        return out
    }
}

extension JSON: Equatable {
    /// The same value: objects with the same members in any order (each name once on both sides,
    /// as the reader requires), whole numbers by value (`-0` is `0`), other numbers as written,
    /// strings byte for byte.
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)):
            if let whole = a.int, let other = b.int { return whole == other }
            return same(x, y)
        case (.string(let x), .string(let y)): return same(x, y)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0 == $1 }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (name, value) in x {
                let matches = y.filter { same($0.0, name) }
                guard matches.count == 1, matches[0].1 == value else { return false }
            }
            return true
        default: return false
        }
    }
}
