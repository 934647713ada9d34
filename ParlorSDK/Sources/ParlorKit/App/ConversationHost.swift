import Foundation

/// What a host (the server, or ParlorTesting's simulator) does with an app's conversation
/// effects. App authors never implement this; they call `Conversation`.
public protocol ConversationHost: Sendable {
    /// Stages `message` in the user's compose field, replacing any staged one.
    /// `replacing` is the session head the message was made from, checked when the user sends it.
    /// - Parameters:
    ///   - message: the message to stage, already checked.
    ///   - replacing: the session head it was made from, or nil.
    func stage(_ message: Message, replacing: MessageID?) async throws
    /// Sends `message` at once. When its session's head is no longer `replacing`, throws
    /// `MessagesError(.sessionConflict)` carrying the new head. Returns the message as committed.
    /// - Parameters:
    ///   - message: the message to send, already checked.
    ///   - replacing: the session head it was made from, or nil.
    func send(_ message: Message, replacing: MessageID?) async throws -> Message
    /// Puts `text` into the user's compose field.
    /// - Parameter text: the text.
    func insertText(_ text: String) async throws
    /// Puts `sticker` into the user's compose field.
    /// - Parameter sticker: the sticker.
    func insertSticker(_ sticker: Sticker) async throws
    /// Stores an image the app produced, under the host's upload rules, for the user.
    /// - Returns: the upload's id (its SHA-256 in hex).
    func upload(image: Data) async throws -> String
}

extension ConversationHost {
    /// A host that keeps no uploads refuses them.
    public func upload(image: Data) async throws -> String {
        throw MessagesError(.apiUnavailableInPresentationContext, "Uploading an image is not available here.")
    }
}

/// The conversation an app runs in, like `MSConversation`: who is in it, the selected message,
/// and how to put messages into it.
public final class Conversation: Sendable {
    /// This user, in the app's participant ids.
    public let localParticipantIdentifier: ParticipantID
    /// The other participants, in the app's participant ids.
    public let remoteParticipantIdentifiers: [ParticipantID]
    /// The message the user tapped to open the app, if any; once the app sends a message in its
    /// session, that message (the session's new head, whose bubble is on screen).
    public let selectedMessage: Message?

    let appID: AppID
    let host: any ConversationHost
    let gate: EffectGate

    @_spi(Hosting) public init(
        localParticipantIdentifier: ParticipantID, remoteParticipantIdentifiers: [ParticipantID],
        selectedMessage: Message?, appID: AppID, host: any ConversationHost, gate: EffectGate
    ) {
        self.localParticipantIdentifier = localParticipantIdentifier
        self.remoteParticipantIdentifiers = remoteParticipantIdentifiers
        self.selectedMessage = selectedMessage
        self.appID = appID
        self.host = host
        self.gate = gate
    }

    /// Stages `message` in the compose field, replacing any staged one; the user sends it.
    /// - Parameter message: the message to stage.
    /// - Throws: the message's validation errors; `.apiUnavailableInPresentationContext` in transcript style;
    ///   `.sendWhileNotVisible` when the app is not active.
    public func insert(_ message: Message) async throws {
        try gate.check(.stage)
        let prepared = try prepare(message)
        try await host.stage(prepared, replacing: replacedHead(for: prepared))
    }

    /// Sends `message` now, without the user pressing send.
    ///
    /// Only from an action the user just took, while the app is visible. When another participant
    /// replaced the session's head first, this throws `.sessionConflict`; if the app lets that error
    /// escape its action, the host re-runs the action on the new head (with the state as it was
    /// before the action), so no answer or move is lost. The message is committed before the
    /// action returns and your new state is saved when it does; should the host stop in between,
    /// the app opens afresh next time rather than with the state from before the message.
    /// - Parameter message: the message to send.
    /// - Returns: the message as committed.
    @discardableResult
    public func send(_ message: Message) async throws -> Message {
        try gate.check(.send)
        let prepared = try prepare(message)
        let sent = try await host.send(prepared, replacing: replacedHead(for: prepared))
        gate.recordSent(sent)
        return sent
    }

    /// Puts `text` in the compose field.
    /// - Parameter text: the text, at most `Limits.maxTextLength` characters.
    /// - Throws: `.textExceedsMaxSize` over `Limits.maxTextLength`.
    public func insertText(_ text: String) async throws {
        try gate.check(.stage)
        // The person's own text: no token in it is shown as a name, so every character counts.
        guard Limits.length(of: text) <= Limits.maxTextLength else {
            throw MessagesError(.textExceedsMaxSize, "The text is \(Limits.length(of: text)) characters; the limit is \(Limits.maxTextLength).")
        }
        try await host.insertText(text)
    }

    /// Puts `sticker` in the compose field.
    /// - Parameter sticker: the sticker.
    /// - Throws: the sticker's validation errors; `.apiUnavailableInPresentationContext` in transcript
    ///   style; `.sendWhileNotVisible` when the app is not active.
    public func insertSticker(_ sticker: Sticker) async throws {
        try gate.check(.stage)
        try sticker.validate()
        try await host.insertSticker(sticker)
    }

    /// Uploads an image the app produced (a PNG, JPEG, GIF or WebP: a drawing, a sticker it made),
    /// under the host's upload rules (its size and pixel limits; a photo's hidden details, such as
    /// where it was taken, removed), and returns it as a source to use in views and messages as
    /// often as needed, instead of sending its bytes each time. Uploading the same bytes again
    /// returns the same source.
    /// - Parameter image: the image file's bytes.
    /// - Returns: `.upload(id)`.
    /// - Throws: the host's refusal: `improperFileType` for what is not such an image,
    ///   `mediaExceedsMaxSize` over the size limit; `.apiUnavailableInPresentationContext` in
    ///   transcript style.
    public func upload(image: Data) async throws -> ImageSource {
        try gate.check(.stage)
        return .upload(try await host.upload(image: image))
    }

    private func prepare(_ message: Message) throws(MessagesError) -> Message {
        try message.validate()
        var prepared = message
        prepared.appID = appID
        prepared.senderParticipantIdentifier = localParticipantIdentifier
        prepared.isPending = true
        return prepared
    }

    /// A message replaces the selected message's head when it continues the selected session.
    private func replacedHead(for message: Message) -> MessageID? {
        guard let session = message.session, let selectedMessage, selectedMessage.session == session else { return nil }
        return selectedMessage.id
    }
}
