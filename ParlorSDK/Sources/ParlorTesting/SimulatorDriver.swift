import Foundation
import ParlorHost
import ParlorKit

/// The simulator driven by lines of JSON, for tests written in any language
/// (`parlor apps simulate`, docs/APPS.md): each request names a person and one of
/// `SimulatedParticipant`'s actions, by the same name; each answer tells what that person sees
/// afterwards.
///
///     → {"as": "Alice", "do": "openApp", "app": "Dice"}
///     ← {"ok":true,"screen":{"appID":"org.example.dice","composeText":"","style":"compact","texts":["Dice",…],"view":{…}}}
///     → {"as": "Bob", "do": "transcript"}
///     ← {"ok":true,"screen":{…},"transcript":[{"appName":"Dice","id":"…","kind":"bubble","message":{…},"namedText":"Alice rolled a four. Alice: 4",…}]}
///
/// What an app reports to the person (a refused move, an app that does not answer) is in
/// `screen.error`, as a person reads the banner; a refused send, or a request the simulator cannot
/// carry out (no such person, control or message), is `{"ok": false, "error": {"code", "message"}}`.
/// Messages and views have the app connection protocol's shapes (docs/APPS-PROTOCOL.md).
public struct SimulatorDriver: Sendable {
    /// The conversation the requests act in.
    public let simulator: ConversationSimulator

    /// A driver for `simulator`'s conversation.
    public init(simulator: ConversationSimulator) {
        self.simulator = simulator
    }

    /// What a request may do: `SimulatedParticipant`'s methods, by their names.
    enum Action: String, Decodable, CaseIterable {
        case openApp, tap, type, submit, setToggle, choose, closeModal, expand, collapse, dismissApp
        case sendStaged, removeStaged, send, tapMessage, transcript, view, participantID, sendRawMessage
        /// The simulator's `holdDeliveries(to:)` and `releaseDeliveries(to:)`, for the person who
        /// "acts": what others send waits for them until released, to stage a race.
        case holdDeliveries, releaseDeliveries
    }

    /// One request, as sent: a JSON object.
    struct Request: Decodable {
        /// The person who acts.
        var `as`: String
        var `do`: Action
        var app: String?
        var control: String?
        var index: Int?
        var text: String?
        var field: String?
        var option: String?
        var on: Bool?
        var containing: String?
        var message: Message?
        var replacing: MessageID?
    }

    /// The answer to one line: a JSON object on one line, without its newline.
    public func respond(to line: Data) async -> Data {
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: line)
        } catch {
            return Self.encode(Answer(error: .init(code: "malformedRequest", message: "The request is not one the simulator knows: \(Self.reason(error)) Each line is a JSON object such as {\"as\": \"Alice\", \"do\": \"openApp\", \"app\": \"Dice\"}; \"do\" is one of \(Action.allCases.map(\.rawValue).joined(separator: ", ")).")))
        }
        do {
            var answer = try await perform(request)
            answer.screen = await screen(of: request.as)
            return Self.encode(answer)
        } catch let error as MessagesError {
            return Self.encode(Answer(error: .init(code: error.code.name, message: error.message)))
        } catch let error as SimulatorError {
            return Self.encode(Answer(error: .init(code: "simulator", message: error.description)))
        } catch {
            return Self.encode(Answer(error: .init(code: MessagesError.Code.unknown.name, message: "\(error)")))
        }
    }

    private func perform(_ request: Request) async throws -> Answer {
        try await simulator.requireParticipant(request.as)
        let person = simulator.participant(request.as)
        func required<Value>(_ value: Value?, _ key: String) throws -> Value {
            guard let value else { throw SimulatorError("'\(request.do.rawValue)' needs \"\(key)\".") }
            return value
        }
        var answer = Answer()
        switch request.do {
        case .openApp: try await person.openApp(named: required(request.app, "app"))
        case .tap: try await person.tap(required(request.control, "control"), index: request.index ?? 0)
        case .type: try await person.type(required(request.text, "text"), into: required(request.field, "field"))
        case .submit: try await person.submit(required(request.text, "text"), in: required(request.field, "field"))
        case .setToggle: try await person.setToggle(required(request.control, "control"), to: required(request.on, "on"))
        case .choose: try await person.choose(required(request.option, "option"), in: required(request.control, "control"))
        case .closeModal: try await person.closeModal()
        case .expand: try await person.expand()
        case .collapse: try await person.collapse()
        case .dismissApp: try await person.dismissApp()
        case .sendStaged: answer.posted = try await person.sendStaged().map(Line.init(posted:))
        case .removeStaged: await person.removeStaged()
        case .send: answer.posted = Line(posted: try await person.send(text: required(request.text, "text")))
        case .tapMessage:
            if let text = request.containing {
                try await person.tapMessage(containing: text)
            } else {
                try await person.tapLatestMessage()
            }
        case .transcript: answer.transcript = try await person.transcript().map(Line.init(line:))
        case .view: break
        case .participantID: answer.participantID = try await person.participantID(in: required(request.app, "app"))
        case .sendRawMessage:
            let posted = try await person.sendRawMessage(required(request.message, "message"), app: request.app, replacing: request.replacing)
            answer.posted = Line(posted: posted)
        case .holdDeliveries: try await simulator.holdDeliveries(to: request.as)
        case .releaseDeliveries: try await simulator.releaseDeliveries(to: request.as)
        }
        return answer
    }

    /// What `name` sees: their open app's last update, read once, and their compose field.
    private func screen(of name: String) async -> Screen {
        let update = await simulator.currentUpdate(of: name)
        let view = update?.view ?? .empty
        return Screen(
            appID: update?.appID, style: update?.presentationStyle, modal: update?.modal,
            view: view, texts: view.visibleTexts, error: update?.error.map { .init(code: $0.error.code.name, message: $0.error.message) },
            staged: await simulator.stagedItem(of: name)?.message, composeText: await simulator.composeTextOf(name))
    }

    // MARK: Answers

    struct ErrorBody: Encodable {
        var code: String
        var message: String
    }

    /// What the person sees after the request.
    struct Screen: Encodable {
        /// The open app's id.
        var appID: AppID?
        var style: PresentationStyle?
        var modal: String?
        var view: ViewNode
        /// The view's visible texts, in order (`ViewNode.visibleTexts`).
        var texts: [String]
        /// What the app surface tells the person (`appError()`).
        var error: ErrorBody?
        /// The app message in the compose field.
        var staged: Message?
        var composeText: String
    }

    /// A transcript line, or a message just committed.
    struct Line: Encodable {
        var id: MessageID
        var sequence: Int
        var kind: String
        var sender: String
        var text: String?
        var namedText: String?
        /// The app's name, for an app message.
        var appName: String?
        var message: Message?
        var liveView: ViewNode?

        init(line: TranscriptLine) {
            self.init(posted: line.posted)
            kind = line.kind == .bubble ? "bubble" : "summary"
            text = line.text
            namedText = line.namedText
            appName = line.appName
            liveView = line.liveView
        }

        init(posted: PostedMessage) {
            id = posted.id
            sequence = posted.sequence
            kind = "bubble"
            sender = posted.sender
            message = posted.message
            if case .text(let plain) = posted.content { text = plain }
        }
    }

    struct Answer: Encodable {
        var ok = true
        var error: ErrorBody?
        var screen: Screen?
        var transcript: [Line]?
        var posted: Line?
        var participantID: ParticipantID?

        init(error: ErrorBody? = nil) {
            ok = error == nil
            self.error = error
        }
    }

    private static func encode(_ answer: Answer) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every part of an answer is encodable; a failure here is a bug in this file.
        return (try? encoder.encode(answer)) ?? Data(#"{"ok":false,"error":{"code":"unknown","message":"The answer could not be encoded."}}"#.utf8)
    }

    private static func reason(_ error: any Error) -> String {
        let reason = unpunctuatedReason(error)
        return reason.hasSuffix(".") ? reason : reason + "."
    }

    private static func unpunctuatedReason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "\"\(key.stringValue)\" is missing."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context), DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty
                ? context.debugDescription
                : "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
