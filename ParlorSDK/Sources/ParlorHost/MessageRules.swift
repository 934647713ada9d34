import Foundation
@_spi(Hosting) import ParlorKit

/// The rules for committing a message to a conversation and for reading an expiring one, written
/// once. The server (its messaging and both stores' group commits) and `ConversationSimulator`
/// call these and nothing else decides, so the simulator has exactly the server's rules.
///
/// A message is checked in this order:
/// 1. a text message: `checkText`;
/// 2. an id the conversation already has: `checkRetry` (the same sender's retry gets the original back);
/// 3. an app message: `app(of:in:)`, then `prepare(_:sender:app:)` (the host says who sent it, checks every
///    limit and what the app's manifest allows), before an app outside the host is asked anything;
/// 4. inside the commit, against the session's head *now*: `isCurrent(head:replacing:)`, else
///    `sessionConflict(head:)`; then `checkAppMessage(_:replacing:app:)` (same app, then the app's own `validate`).
///
/// ```swift
/// try MessageRules.checkText(text)
/// if let head, !MessageRules.isCurrent(head: head.id, replacing: message.replacing) { throw … }
/// ```
public enum MessageRules {
    /// How many times a change is re-applied on a newer session head before the host gives up
    /// (an action re-run, a staged message rebased). Each conflict means someone else's message
    /// went through, so a burst of N simultaneous answers needs up to N; the cap only stops an
    /// app that never converges.
    public static let maxRebases = 32

    /// Sends a message the app staged: `commit` it, and each time it meets a newer session head
    /// (`sessionConflict`), ask the app to re-apply it there (`rebase`: the host's call of
    /// `AnyMessagesApp.rebase(_:onto:sender:)`, made only then) and commit that instead.
    /// - Returns: what `commit` returned, and the message that went through.
    /// - Throws: the `sessionConflict` when the app does not re-apply (the message stays staged),
    ///   the app's refusal, or whatever `commit` throws otherwise.
    public static func sendStaged<Sent>(
        _ message: Message, replacing: MessageID?, isolation: isolated (any Actor)? = #isolation,
        rebase: (_ staged: Message, _ head: Message) async throws -> Message?,
        commit: (Message, MessageID?) async throws -> Sent
    ) async throws -> (sent: Sent, message: Message) {
        var message = message
        var replacing = replacing
        for _ in 1...maxRebases {
            do {
                return (try await commit(message, replacing), message)
            } catch let error as MessagesError where error.code == .sessionConflict {
                guard let head = error.sessionHead, let rebased = try await rebase(message, head) else { throw error }
                message = rebased
                replacing = head.id
            }
        }
        throw MessagesError(.sessionConflict, "The conversation moved on too often; open the newest message and try again.")
    }

    /// A message as an app stages it: with no `error` (only the host says a send failed).
    public static func staging(_ message: Message) -> Message {
        var staged = message
        staged.error = nil
        return staged
    }

    /// The staged `message` after its Send was refused (`Message.error`): it stays in the compose
    /// field saying why, until it is sent again or removed.
    public static func failedToSend(_ message: Message, _ failure: SendFailure) -> Message {
        var failed = message
        failed.error = failure
        return failed
    }

    /// Checks a text message: some text that is not only spaces, at most `Limits.maxTextLength`
    /// characters as a person counts them (`Limits.length(of:)`).
    /// - Throws: `invalidValue` for blank text, `textExceedsMaxSize` over the limit.
    public static func checkText(_ text: String) throws(MessagesError) {
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw MessagesError(.invalidValue, "A message needs some text.")
        }
        let length = Limits.length(of: text)
        guard length <= Limits.maxTextLength else {
            throw MessagesError(.textExceedsMaxSize, "The message is \(length) characters; the limit is \(Limits.maxTextLength).")
        }
    }

    /// A message whose id the conversation already has: the sender's retry returns the stored
    /// message (nothing is committed or delivered again); anyone else's is refused.
    /// - Throws: `idInUse` when `storedSender` is not `sender`.
    public static func checkRetry<Sender: Equatable>(storedSender: Sender, sender: Sender) throws(MessagesError) {
        guard storedSender == sender else {
            throw MessagesError(.idInUse, "That message id is already used in this conversation; choose a new one.")
        }
    }

    /// The app an app message names, among the apps the conversation's host offers.
    /// - Throws: `invalidValue` when it names none of them.
    public static func app(of message: Message, in apps: (AppID) -> AnyMessagesApp?) throws(MessagesError) -> AnyMessagesApp {
        guard let appID = message.appID, let app = apps(appID) else {
            throw MessagesError(.invalidValue, "The message names no app of this conversation.")
        }
        return app
    }

    /// The message as it is committed: the host, not the sender, says who sent it, and it is no
    /// longer pending.
    /// - Throws: the first ParlorKit limit it breaks (`Message.validate()`), then what `app`'s
    ///   manifest does not allow (`checkPermissions`).
    public static func prepare(_ message: Message, sender: ParticipantID, app manifest: AppManifest) throws(MessagesError) -> Message {
        var message = message
        message.senderParticipantIdentifier = sender
        message.isPending = false
        message.error = nil
        try message.validate()
        try checkPermissions(of: message, app: manifest)
        return message
    }

    /// Whether a message in a session may replace the session's head: it must name the head as the
    /// message it replaces. A session with no message yet may be started by anyone.
    /// - Parameters:
    ///   - head: the id of the session's newest message now, nil when the session is new.
    ///   - replacing: the message the new one says it replaces.
    public static func isCurrent(head: MessageID?, replacing: MessageID?) -> Bool {
        guard let head else { return true }
        return head == replacing
    }

    /// The error for a message that replaces anything but the session's head now.
    public static func sessionConflict(head: Message?) -> MessagesError {
        MessagesError(.sessionConflict, "Someone else updated this first; open the newest message to continue.", sessionHead: head)
    }

    /// The checks on an app message against exactly the head it replaces, inside the commit: the
    /// session belongs to the same app, then the app's own `validate(_:replacing:)`. (What the
    /// manifest allows was checked by `prepare`.)
    /// - Throws: `actionRefused` for another app's session; the app's refusal.
    public static func checkAppMessage(_ message: Message, replacing head: Message?, app: AnyMessagesApp) throws(MessagesError) {
        if let head, head.appID != app.manifest.id {
            throw MessagesError(.actionRefused, "That session belongs to another app.")
        }
        try app.validate(message, replacing: head)
    }

    /// What only an app whose manifest asks for it may send: live layouts, expiring messages,
    /// answers to a session (drawn in the name of whoever started it).
    /// - Throws: `actionRefused` naming the missing permission.
    public static func checkPermissions(of message: Message, app manifest: AppManifest) throws(MessagesError) {
        if case .live? = message.layout, !manifest.drawsLiveMessages {
            throw MessagesError(.actionRefused, "\(manifest.name) may not send live messages: its manifest does not ask to (drawsLiveMessages).")
        }
        if message.shouldExpire, !manifest.sendsExpiringMessages {
            throw MessagesError(.actionRefused, "\(manifest.name) may not send expiring messages: its manifest does not ask to (sendsExpiringMessages).")
        }
        if message.answersSession, !manifest.answersSessions {
            throw MessagesError(
                .actionRefused, "\(manifest.name) may not send answers drawn in the name of whoever started a session: its manifest does not ask to (answersSessions).")
        }
    }

    /// Whether reading `content` starts an expiring message's countdown for `reader`: it is an
    /// app message with `shouldExpire`, someone else sent it, and it is at or before what was read.
    /// - Parameters:
    ///   - sequence: the message's place in the conversation.
    ///   - readUpTo: the last sequence the reader has read.
    public static func startsExpiry<Person: Equatable>(
        of message: Message?, sender: Person, reader: Person, sequence: Int64, readUpTo: Int64
    ) -> Bool {
        message?.shouldExpire == true && sender != reader && sequence <= readUpTo
    }
}
