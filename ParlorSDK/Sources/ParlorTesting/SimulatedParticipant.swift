import Foundation
import ParlorHost
import ParlorKit

/// Acts as one participant of a `ConversationSimulator`: opens apps, taps controls, types,
/// sends, and reads what that participant sees.
///
/// Methods throw `SimulatorError` when the test asks for something the participant cannot do
/// (no such control, no app open). What an app reports to the user (a refused move, a network
/// error) is not thrown: read it from `appError()`, as a user reads the banner.
public struct SimulatedParticipant: Sendable {
    public let name: String
    public let simulator: ConversationSimulator

    // MARK: The drawer

    /// Opens an app from the drawer by its name or id (compact, nothing selected).
    @discardableResult
    public func openApp(named appName: String) async throws -> ViewNode {
        let appID = try await simulator.appID(named: appName)
        return try await simulator.openApp(appID, for: name).view
    }

    /// Opens an app's home surface (its full-screen app, outside the conversation).
    @discardableResult
    public func openHome(named appName: String) async throws -> ViewNode {
        let appID = try await simulator.appID(named: appName)
        return try await simulator.openHome(appID, for: name).view
    }

    /// Opens a sticker pack from the drawer.
    @discardableResult
    public func openStickerPack(_ packID: String) async throws -> StickerPack {
        try await simulator.openStickerPack(packID, for: name)
    }

    /// Taps a sticker of the open pack (by description or id): it is staged in the compose field.
    public func tapSticker(_ descriptionOrID: String) async throws {
        guard let packID = await simulator.openStickerPackID(of: name),
              let pack = simulator.stickerPacks[packID],
              let sticker = pack.stickers.first(where: { $0.localizedDescription == descriptionOrID || $0.id == descriptionOrID })
        else { throw SimulatorError("\(name) has no open pack with a sticker '\(descriptionOrID)'.") }
        try await simulator.tapSticker(sticker, for: name)
    }

    public func install(_ appName: String) async throws {
        try await simulator.install(simulator.appID(named: appName), for: name)
    }

    public func uninstall(_ appName: String) async throws {
        try await simulator.uninstall(simulator.appID(named: appName), for: name)
    }

    /// This participant's id inside an app.
    public func participantID(in appName: String) async throws -> ParticipantID {
        try await simulator.participantID(of: name, in: simulator.appID(named: appName))
    }

    /// Sets the participant's language (a BCP 47 tag such as `fr`), as their browser or Settings
    /// would: apps they open from now on draw in it (`ViewEnvironment.language`, `context.language`).
    /// - Parameter language: the language tag.
    /// - Throws: `SimulatorError` for what is not a language tag.
    public func setLanguage(_ language: String) async throws { try await simulator.setLanguage(language, of: name) }

    // MARK: The open app

    /// The open app's current view (empty when no app is open).
    public func view() async -> ViewNode { await simulator.currentUpdate(of: name)?.view ?? .empty }

    /// The open app's presentation style, or nil when no app is open.
    public func presentationStyle() async -> PresentationStyle? { await simulator.currentUpdate(of: name)?.presentationStyle }

    /// The open app's id, or nil.
    public func openAppID() async -> AppID? { await simulator.currentUpdate(of: name)?.appID }

    /// The modal screen the open app presents, if any.
    public func modal() async -> String? { await simulator.currentUpdate(of: name)?.modal }

    /// What the open app last reported to the user, if its last call failed.
    public func appError() async -> MessagesError? { await simulator.currentUpdate(of: name)?.error?.error }

    /// Taps a button, selectable row or toggle (flipping it) by accessibility label or id, or a
    /// picker option by its title. When several controls match, `index` picks one (in view order).
    public func tap(_ labelOrID: String, index: Int = 0) async throws {
        let view = await currentView()
        let payload = try Self.payload(in: view, labelOrID: labelOrID, index: index)
        _ = try await simulator.perform(.action(payload), for: name)
    }

    /// Types `text` into a text field (its onChange action).
    public func type(_ text: String, into labelOrID: String) async throws {
        let field = try await textField(labelOrID)
        guard let onChange = field.onChange ?? field.onSubmit else {
            throw SimulatorError("The field '\(labelOrID)' reacts to no input.")
        }
        _ = try await simulator.perform(.action(onChange, value: text), for: name)
    }

    /// Types `text` into a text field and presses Return (its onSubmit action, else onChange).
    public func submit(_ text: String, in labelOrID: String) async throws {
        let field = try await textField(labelOrID)
        guard let action = field.onSubmit ?? field.onChange else { throw SimulatorError("The field '\(labelOrID)' reacts to no input.") }
        _ = try await simulator.perform(.action(action, value: text), for: name)
    }

    /// Sets a toggle on or off.
    public func setToggle(_ labelOrID: String, to isOn: Bool) async throws {
        let view = await currentView()
        for case .toggle(let toggle) in view.allNodes where toggle.label == labelOrID || toggle.id == labelOrID {
            _ = try await simulator.perform(.action(isOn ? toggle.turnOn : toggle.turnOff), for: name)
            return
        }
        throw SimulatorError("No toggle '\(labelOrID)'. \(Self.describe(view))")
    }

    /// Chooses an option of a picker.
    public func choose(_ option: String, in labelOrID: String) async throws {
        let view = await currentView()
        for case .picker(let picker) in view.allNodes where picker.label == labelOrID || picker.id == labelOrID {
            guard let choice = picker.options.first(where: { $0.title == option }) else {
                throw SimulatorError("The picker '\(labelOrID)' has no option '\(option)'; it has \(picker.options.map(\.title)).")
            }
            _ = try await simulator.perform(.action(choice.action), for: name)
            return
        }
        throw SimulatorError("No picker '\(labelOrID)'. \(Self.describe(view))")
    }

    /// Closes the presented modal screen with its close control.
    public func closeModal() async throws {
        _ = try await simulator.perform(.dismissModal, for: name)
    }

    /// The expand control.
    public func expand() async throws { _ = try await simulator.changeStyle(to: .expanded, for: name) }

    /// The collapse control.
    public func collapse() async throws { _ = try await simulator.changeStyle(to: .compact, for: name) }

    /// Closes the open app.
    public func dismissApp() async throws { try await simulator.dismissApp(of: name) }

    /// Commits an app message as a modified client or another host could, bypassing the app's
    /// own code but not the host's checks (limits, session head, the app's `validate`): for
    /// testing that forged messages are refused.
    ///
    /// The host sets the message's `appID` as it would for a message the app made: to the app
    /// named `appName`, else the app this participant has open (a message that names its own
    /// `appID` keeps it: that is a forgery worth testing too).
    /// - Throws: the host's refusal; `SimulatorError` when no app is named or open.
    @discardableResult
    public func sendRawMessage(_ message: Message, app appName: String? = nil, replacing: MessageID?) async throws -> PostedMessage {
        var message = message
        if message.appID == nil {
            if let appName {
                message.appID = try await simulator.appID(named: appName)
            } else if let open = await simulator.activeAppID(of: name) {
                message.appID = open
            } else {
                throw SimulatorError("\(name) has no app open: name the app (sendRawMessage(_:app:replacing:)).")
            }
        }
        let posted = try await simulator.commit(.app(message), id: message.id, from: name, replacing: replacing)
        await simulator.deliverPending()
        return posted
    }

    /// Sends an event as a client would, without checking that the view offers it (for testing
    /// what the host refuses).
    public func sendRawEvent(_ event: ViewEvent) async throws {
        _ = try await simulator.perform(event, for: name)
    }

    // MARK: The home surface

    /// The home surface's current view.
    public func homeView() async -> ViewNode { await simulator.homeUpdate(of: name)?.view ?? .empty }

    /// What the home surface last reported to the user.
    public func homeError() async -> MessagesError? { await simulator.homeUpdate(of: name)?.error?.error }

    /// Taps a control on the home surface of `appName`.
    public func tapHome(_ labelOrID: String, in appName: String, index: Int = 0) async throws {
        let appID = try await simulator.appID(named: appName)
        let view = await homeView()
        let payload = try Self.payload(in: view, labelOrID: labelOrID, index: index)
        _ = try await simulator.performHome(.action(payload), appID: appID, for: name)
    }

    /// Types into a text field on the home surface of `appName`.
    public func typeHome(_ text: String, into labelOrID: String, in appName: String) async throws {
        let appID = try await simulator.appID(named: appName)
        let field = try Self.textField(in: await homeView(), labelOrID: labelOrID)
        guard let action = field.onChange ?? field.onSubmit else { throw SimulatorError("The field '\(labelOrID)' reacts to no input.") }
        _ = try await simulator.performHome(.action(action, value: text), appID: appID, for: name)
    }

    /// Chooses a picker option on the home surface of `appName`.
    public func chooseHome(_ option: String, in labelOrID: String, app appName: String) async throws {
        let appID = try await simulator.appID(named: appName)
        for case .picker(let picker) in await homeView().allNodes where picker.label == labelOrID || picker.id == labelOrID {
            guard let choice = picker.options.first(where: { $0.title == option }) else {
                throw SimulatorError("The picker '\(labelOrID)' has no option '\(option)'.")
            }
            _ = try await simulator.performHome(.action(choice.action), appID: appID, for: name)
            return
        }
        throw SimulatorError("No picker '\(labelOrID)' on the home surface.")
    }

    // MARK: The compose field

    /// The staged app message or sticker, if any.
    public func staged() async -> StagedItem? { await simulator.stagedItem(of: name) }

    /// The text an app inserted into the compose field.
    public func composeText() async -> String { await simulator.composeTextOf(name) }

    /// Sends the staged item, as the user pressing send. Returns the committed message, or nil
    /// when nothing was staged.
    /// - Throws: `MessagesError(.sessionConflict)` when someone replaced the session head first.
    @discardableResult
    public func sendStaged() async throws -> PostedMessage? { try await simulator.sendStaged(by: name) }

    /// Removes the staged item (didCancelSending).
    public func removeStaged() async { await simulator.removeStaged(by: name) }

    /// Sends a plain text message, with the server's rules (`MessageRules.checkText`).
    /// - Parameters:
    ///   - text: what the participant types.
    ///   - id: the message's id; sending again with the same id is a retry, and an id
    ///     someone else used is refused with `idInUse`, as on the server.
    @discardableResult
    public func send(text: String, id: MessageID = MessageID()) async throws -> PostedMessage {
        try await simulator.sendText(text, id: id, by: name)
    }

    // MARK: The transcript

    /// The transcript as this participant sees it: sessions collapsed, expired messages gone.
    public func transcript() async throws -> [TranscriptLine] { try await simulator.transcript(for: name) }

    /// Taps an app message bubble.
    @discardableResult
    public func tapMessage(_ line: TranscriptLine) async throws -> ViewNode {
        try await simulator.tapMessage(line.posted.id, for: name).view
    }

    /// Taps the newest app message bubble whose text (captions, accessibility label) contains `text`.
    @discardableResult
    public func tapMessage(containing text: String) async throws -> ViewNode {
        let lines = try await transcript().filter { $0.kind == .bubble && $0.message != nil && $0.text.contains(text) }
        guard let line = lines.last else {
            throw SimulatorError("\(name) sees no app message containing '\(text)'.")
        }
        return try await tapMessage(line)
    }

    /// Taps the newest app message bubble.
    @discardableResult
    public func tapLatestMessage() async throws -> ViewNode {
        guard let line = try await transcript().last(where: { $0.kind == .bubble && $0.message != nil }) else {
            throw SimulatorError("\(name) sees no app message.")
        }
        return try await tapMessage(line)
    }

    /// Keeps an expiring message so it is not deleted.
    public func keep(_ line: TranscriptLine) async { await simulator.keep(line.posted.id, for: name) }

    // MARK: Helpers

    private func currentView() async -> ViewNode {
        await simulator.currentUpdate(of: name)?.view ?? .empty
    }

    private func textField(_ labelOrID: String) async throws -> TextFieldNode {
        try Self.textField(in: await currentView(), labelOrID: labelOrID)
    }

    static func textField(in view: ViewNode, labelOrID: String) throws -> TextFieldNode {
        for case .textField(let field) in view.allNodes where field.label == labelOrID || field.id == labelOrID {
            return field
        }
        throw SimulatorError("No text field '\(labelOrID)'. \(describe(view))")
    }

    static func payload(in view: ViewNode, labelOrID: String, index: Int) throws -> ActionPayload {
        let payloads: [ActionPayload] = view.allNodes.flatMap { node -> [ActionPayload] in
            let named = node.interactiveLabel != nil && (node.interactiveLabel == labelOrID || node.elementID == labelOrID)
            switch node {
            case .button(let button) where named && !button.disabled: return [button.action]
            case .row(let row) where named: return row.action.map { [$0] } ?? []
            case .toggle(let toggle) where named: return [toggle.isOn ? toggle.turnOff : toggle.turnOn]
            case .picker(let picker): return picker.options.filter { $0.title == labelOrID }.map(\.action)
            default: return []
            }
        }
        guard payloads.indices.contains(index) else {
            throw SimulatorError("No enabled button, row, toggle or picker option '\(labelOrID)' (#\(index)). \(describe(view))")
        }
        return payloads[index]
    }

    static func describe(_ view: ViewNode) -> String {
        let labels = view.allNodes.compactMap(\.interactiveLabel)
        return labels.isEmpty ? "The view has no controls." : "The view has: \(labels.map { "'\($0)'" }.joined(separator: ", "))."
    }
}
