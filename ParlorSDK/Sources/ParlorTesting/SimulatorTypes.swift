import Foundation
import ParlorKit

/// What a simulated message contains.
public enum SimulatedContent: Sendable, Hashable {
    case text(String)
    case sticker(Sticker)
    case app(Message)
}

/// A committed message in the simulated conversation.
public struct PostedMessage: Sendable, Hashable, TranscriptItem {
    public let id: MessageID
    /// The conversation's gapless sequence number, from 1.
    public let sequence: Int
    public let sender: String
    public let content: SimulatedContent
    /// Who sent its session's first message (none outside a session): the name an answer keeps
    /// the bubble in, whoever can still see that first message.
    public let sessionStarter: String?

    public var message: Message? {
        if case .app(let message) = content { return message }
        return nil
    }

    public var transcriptSessionID: SessionID? { message?.session?.id }
    public var transcriptSender: String { sender }
    public var answersSession: Bool { message?.answersSession ?? false }
    public var transcriptSessionStarter: String? { sessionStarter }
}

/// One line of a participant's transcript, after session collapse and expiry.
public struct TranscriptLine: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Shown in full.
        case bubble
        /// An older message of a session: only its summary line is left.
        case summary
    }

    public let kind: Kind
    public let posted: PostedMessage
    /// Bubbles: the text, sticker description or the message's plain text. Summaries: the summary line.
    /// Participants appear as the app saw them, as `$…` tokens (`ParticipantID.mention`).
    public let text: String
    /// `text` as people read it: each participant's `$…` token replaced by their name
    /// ("$1F0C… played the center" reads "Alice played the center").
    public let namedText: String
    /// The app's name for app messages ("from <App>").
    public let appName: String?
    /// For a live layout whose app the viewer has: the app's view drawn in the bubble.
    public let liveView: ViewNode?
    /// Whether the viewer lacks the message's app (the bubble offers to get it).
    public let offersInstall: Bool

    init(
        kind: Kind, posted: PostedMessage, text: String, namedText: String, appName: String?, liveView: ViewNode?, offersInstall: Bool,
        drawnAs sender: String? = nil
    ) {
        self.kind = kind
        self.posted = posted
        self.text = text
        self.namedText = namedText
        self.appName = appName
        self.liveView = liveView
        self.offersInstall = offersInstall
        self.sender = sender ?? posted.sender
    }

    /// Whose the line is, as people see it: the sender's, except the bubble of a session its newest
    /// message answers (`Message.answersSession`), which stays in the name of whoever started the
    /// session (the answer's own summary line, just above it, is its sender's).
    public let sender: String
    public var message: Message? { posted.message }
    /// The template the viewer sees: the layout, or the live layout's alternate.
    public var template: TemplateLayout? { message?.template }
}

/// What sits in a participant's compose field.
public enum StagedItem: Sendable, Hashable {
    case message(Message)
    case sticker(Sticker)

    public var message: Message? {
        if case .message(let message) = self { return message }
        return nil
    }
}

/// A test used the simulator wrongly: no such participant, control or message.
public struct SimulatorError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
