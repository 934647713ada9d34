import Foundation

/// A ``SessionState`` for any `Codable` fixed part and entry, carried as JSON in each of the
/// session's messages' URL: what the first message set and nobody changes afterwards (`fixed`: a
/// poll's question and options), and one entry per participant that only they change (a vote).
/// Its `validate(_:replacing:rule:)` and `rebase(_:onto:making:)` are ``SessionState``'s.
///
/// ```swift
/// typealias Ballot = SharedState<Question, Int>
/// func validate(_ message: Message, replacing head: Message?) throws {
///     try Ballot.validate(message, replacing: head) { ballot, _ in
///         guard ballot.entries.allSatisfy({ ballot.fixed.options.indices.contains($0.entry) }) else { throw … }
///     }
/// }
/// func rebase(_ message: Message, onto head: Message) throws -> Message? {
///     try Ballot.rebase(message, onto: head) { try bubble(for: $0, session: head.session) }
/// }
/// ```
///
/// Each entry takes about 35 characters of the message URL's 5,000 (`Limits.maxURLLength`) plus
/// the entry's own JSON (participants are keyed by `Identifier.compactString`), so about a hundred
/// participants with small entries fit.
public struct SharedState<Fixed: Codable & Sendable & Equatable, Entry: Codable & Sendable & Equatable>: SessionState, Codable, Sendable, Equatable {
    /// What the first message set; `validate` refuses any later message that changes it.
    public var fixed: Fixed
    /// Each participant's entry, by participant id.
    private var byParticipant: [String: Entry]

    /// A state with nobody's entry yet.
    /// - Parameter fixed: what the first message sets.
    public init(_ fixed: Fixed) {
        self.fixed = fixed
        byParticipant = [:]
    }

    /// The state `message` carries.
    /// - Parameter message: a message of the session, or nil.
    /// - Throws: `.malformedURLState` when it carries none, or not of this shape.
    public init(message: Message?) throws(MessagesError) {
        guard let url = message?.url else { throw MessagesError(.malformedURLState, "The message carries no state.") }
        self = try URLState.value(Self.self, from: url)
    }

    private enum CodingKeys: String, CodingKey { case fixed, byParticipant }

    /// Decodes a state, refusing an entry keyed by something that is not a participant id: such
    /// an entry would count in `count(of:)` while no rule could see whose it is. Keys in the UUID
    /// form that earlier versions wrote are read too.
    /// - Throws: `DecodingError.dataCorrupted` for such a key, or one participant keyed twice.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fixed = try container.decode(Fixed.self, forKey: .fixed)
        byParticipant = [:]
        for (key, entry) in try container.decode([String: Entry].self, forKey: .byParticipant) {
            guard let participant = ParticipantID(compactString: key) ?? ParticipantID(key),
                  byParticipant.updateValue(entry, forKey: participant.compactString) == nil
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: .byParticipant, in: container, debugDescription: "An entry's key is not a participant id, or repeats one.")
            }
        }
    }

    /// A participant's entry: nil when they have none.
    /// - Parameter participant: the participant, in the app's participant ids.
    public subscript(participant: ParticipantID) -> Entry? {
        get { byParticipant[participant.compactString] }
        set { byParticipant[participant.compactString] = newValue }
    }

    /// Every participant with an entry.
    public var participants: Set<ParticipantID> { Set(byParticipant.keys.compactMap(ParticipantID.init(compactString:))) }

    /// Every entry with its participant, in a stable order.
    public var entries: [(participant: ParticipantID, entry: Entry)] {
        byParticipant.sorted { $0.key < $1.key }.compactMap { key, entry in ParticipantID(compactString: key).map { ($0, entry) } }
    }

    /// How many entries equal `entry`.
    /// - Parameter entry: the entry to count.
    public func count(of entry: Entry) -> Int { byParticipant.values.filter { $0 == entry }.count }

    /// A URL that carries this state, under `base`.
    /// - Parameter base: an absolute URL, such as `https://example.org/poll`.
    /// - Throws: `.urlExceedsMaxSize` when it is too long.
    public func url(base: String) throws(MessagesError) -> URL { try URLState.url(for: self, base: base) }
}
