/// Why a message failed to send: Messages' `MSMessage.error`, on `Message.error`.
///
/// Parlor commits a message or refuses it at once, so a message fails to send only when the
/// person presses Send on a message staged in their compose field (`conversation.insert`) and the
/// host refuses it: someone else updated the session first and the app could not re-apply the
/// change (`sessionConflict`), the app's `validate` refused it, or a limit was reached. The
/// message then stays in the compose field with this failure, shown on it, until the person sends
/// it again or removes it. A message sent at once (`conversation.send`) never carries one: the
/// call throws the error instead.
public struct SendFailure: Sendable, Hashable, Codable {
    /// What kind of failure it is, as the host names its codes (`sessionConflict`,
    /// `actionRefused`, `sendingTooFast`…).
    public var code: String
    /// The sentence shown to the person.
    public var message: String

    /// A failure from the error the host refused the message with.
    /// - Parameter error: the refusal.
    public init(_ error: MessagesError) {
        code = error.code.name
        message = error.message
    }

    /// A failure of `code`, saying `message`.
    /// - Parameters:
    ///   - code: what kind of failure it is.
    ///   - message: the sentence shown to the person.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
