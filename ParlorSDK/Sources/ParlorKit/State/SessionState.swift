/// A session's shared state with one entry per participant: what the session's first message set
/// and nobody changes afterwards (`fixed`: a poll's question, an invitation's title), and one
/// entry per participant that only they change (a vote, an answer).
///
/// A conforming type says how its state is read from a message; the rules such apps need are
/// written here once:
/// - `validate(_:replacing:rule:)` refuses a message that changes `fixed`, or anyone's entry but
///   its sender's, then runs the app's own rule;
/// - `rebase(_:onto:making:)` re-applies the sender's entry to a newer head, so two people
///   answering the same message at once both count, whether the app sends at once or stages.
///
/// ``SharedState`` conforms for any `Codable` fixed part and entry, carried as JSON in the URL.
/// An app with its own URL format (RSVP keeps the seed's `yesCount` and `noCount` items, and
/// writes ids compactly to hold more answers) conforms its own type.
public protocol SessionState: Sendable {
    /// What the first message set.
    associatedtype Fixed: Equatable
    /// One participant's entry.
    associatedtype Entry: Equatable

    /// The state `message` carries.
    /// - Throws: `.malformedURLState` when it carries none, or not a valid one.
    init(message: Message?) throws(MessagesError)

    /// What the first message set; `validate` refuses any later message that changes it.
    var fixed: Fixed { get }

    /// A participant's entry: nil when they have none; setting nil withdraws it.
    subscript(participant: ParticipantID) -> Entry? { get set }

    /// Every participant with an entry.
    var participants: Set<ParticipantID> { get }
}

extension SessionState {
    /// Checks a message of the session: `fixed` as the head has it, and no entry changed but the
    /// sender's (when it starts the session, no entry but the sender's); then the app's `rule`.
    /// - Parameters:
    ///   - message: the message to check; the host has set its sender.
    ///   - head: the session head it replaces, or nil when it starts the session.
    ///   - rule: the app's own check of the new state (and of the head's, nil for a new session);
    ///     none by default.
    /// - Throws: `.actionRefused` naming what changed, `.malformedURLState` for a message without
    ///   this state, and whatever `rule` throws.
    public static func validate(
        _ message: Message, replacing head: Message?, rule: (_ new: Self, _ old: Self?) throws -> Void = { _, _ in }
    ) throws {
        try validate(message, replacing: head) { new, old, _ in try rule(new, old) }
    }

    /// `validate(_:replacing:rule:)` with a rule that also gets who sent the message (a rule
    /// such as "only the organizer may close the poll", or "a player moves only on their turn").
    /// - Parameters:
    ///   - message: the message to check; the host has set its sender.
    ///   - head: the session head it replaces, or nil when it starts the session.
    ///   - rule: the app's own check of the new state, the head's (nil for a new session), and
    ///     the sender.
    /// - Throws: as `validate(_:replacing:rule:)`.
    public static func validate(
        _ message: Message, replacing head: Message?, rule: (_ new: Self, _ old: Self?, _ sender: ParticipantID) throws -> Void
    ) throws {
        guard let sender = message.senderParticipantIdentifier else {
            throw MessagesError(.actionRefused, "The host did not say who sent this message.")
        }
        let new = try Self(message: message)
        let old = try head.map { message throws(MessagesError) in try Self(message: message) }
        if let old, new.fixed != old.fixed {
            throw MessagesError(.actionRefused, "What the first message set cannot change afterwards.")
        }
        let others = new.participants.union(old?.participants ?? []).subtracting([sender])
        if others.contains(where: { new[$0] != old?[$0] }) {
            throw MessagesError(.actionRefused, "A message may change only its sender's own entry, not someone else's.")
        }
        try rule(new, old, sender)
    }

    /// `validate(_:replacing:rule:)` with a rule that reads only the new state (the form earlier
    /// versions had).
    @available(*, deprecated, message: "The rule also receives the head's state: write { new, _ in … }.")
    public static func validate(_ message: Message, replacing head: Message?, rule: (_ new: Self) throws -> Void) throws {
        try validate(message, replacing: head) { new, _ in try rule(new) }
    }

    /// Re-applies `message`'s sender's entry to `head`'s state, for `MessagesApp.rebase`.
    /// - Parameters:
    ///   - message: the staged message, whose sender's entry is kept.
    ///   - head: the session's newer head, whose state the entry is applied to.
    ///   - making: the app's message for a state, in the head's session (the bubble shows
    ///     the new counts).
    /// - Throws: `.actionRefused` when the host did not set the sender, `.malformedURLState` when a
    ///   message carries no state of this shape, and whatever `making` throws.
    /// - Returns: the message to send instead of `message`.
    public static func rebase(_ message: Message, onto head: Message, making: (Self) throws -> Message) throws -> Message {
        guard let sender = message.senderParticipantIdentifier else {
            throw MessagesError(.actionRefused, "The host did not say who sent this message.")
        }
        var merged = try Self(message: head)
        merged[sender] = try Self(message: message)[sender]
        return try making(merged)
    }
}
