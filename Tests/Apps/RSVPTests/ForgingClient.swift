import Foundation
import ParlorKit
import RSVP

/// A client that does not play by the app's rules: it is RSVP in every way (same app id, views,
/// hooks) plus a "Forge" button that sends `forge(head, sender)` at once. `validates` says whether
/// the host still runs RSVP's `validate(_:replacing:)` (off: a host that does not validate, or a
/// message from an older version of the app).
struct ForgingClient: MessagesApp {
    var validates = true
    let forge: @Sendable (_ head: Message?, _ sender: ParticipantID) throws -> Message

    var manifest: AppManifest { RSVP().manifest }
    var initialState: RSVP.State { RSVP().initialState }

    /// RSVP's own actions, or the forge button.
    enum Action: Codable, Sendable {
        case app(RSVP.Action)
        case forge

        init(from decoder: any Decoder) throws {
            if let action = try? RSVP.Action(from: decoder) {
                self = .app(action)
            } else if try decoder.singleValueContainer().decode(String.self) == "forge" {
                self = .forge
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a forging-client action"))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .app(let action): try action.encode(to: encoder)
            case .forge:
                var container = encoder.singleValueContainer()
                try container.encode("forge")
            }
        }
    }

    func body(state: RSVP.State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            RSVP().body(state: state, environment: environment)
            Button("Forge", action: Action.forge)
        }
    }

    func handle(_ action: Action, state: inout RSVP.State, context: AppContext) async throws {
        switch action {
        case .app(let action):
            try await RSVP().handle(action, state: &state, context: context)
        case .forge:
            let conversation = context.conversation
            try await conversation.send(forge(conversation.selectedMessage, conversation.localParticipantIdentifier))
        }
    }

    func validate(_ message: Message, replacing head: Message?) throws {
        if validates { try RSVP().validate(message, replacing: head) }
    }

    func willBecomeActive(state: inout RSVP.State, context: AppContext) async throws {
        try await RSVP().willBecomeActive(state: &state, context: context)
    }

    func didSelect(_ message: Message, state: inout RSVP.State, context: AppContext) async throws {
        try await RSVP().didSelect(message, state: &state, context: context)
    }

    func didReceive(_ message: Message, state: inout RSVP.State, context: AppContext) async throws {
        try await RSVP().didReceive(message, state: &state, context: context)
    }
}
