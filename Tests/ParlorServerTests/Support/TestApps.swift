import Foundation
import ParlorHost
import ParlorKit
import ParlorServer

/// A test app that stages, sends and composes, and draws live bubbles for each viewer.
///
/// Its messages carry their text in the URL (`?text=`); its view shows the selected message's text
/// in the text node `shown`, and a live bubble shows "<text> seen by <viewer's mention>" in `live`.
struct Probe: MessagesApp {
    static let id: AppID = "org.parlor.test.probe"

    var manifest: AppManifest {
        AppManifest(
            id: Self.id, name: "Probe", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#), keepsData: true,
            drawsLiveMessages: true, sendsExpiringMessages: true)
    }

    struct State: Codable, Sendable { var shown: String? }

    enum Action: Codable, Sendable {
        case stage(String)
        case sendLive(String)
        case sendExpiring(String)
        case compose(String)
        case fail
    }

    struct Failure: Error {}

    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if environment.presentationStyle == .transcript {
            Text("\(state.shown ?? "?") seen by \(environment.localParticipantIdentifier.mention)", id: "live")
        } else {
            VStack {
                Text(state.shown ?? "Nothing selected", id: "shown")
                Button("Stage", action: Action.stage("staged"))
                Button("Send live", action: Action.sendLive("live"))
                Button("Send expiring", action: Action.sendExpiring("gone soon"))
                Button("Compose", action: Action.compose("typed by Probe"))
                Button("Fail", action: Action.fail)
                if let dot = Self.dot, let remote = Self.remoteDot { StickerBrowser(label: "Probe stickers", stickers: [dot, remote]) }
            }
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .stage(let text):
            try await context.conversation.insert(Self.message(text, layout: .template(TemplateLayout(caption: text))))
        case .sendLive(let text):
            let layout = MessageLayout.live(LiveLayout(alternateLayout: TemplateLayout(caption: text)))
            try await context.conversation.send(Self.message(text, layout: layout))
        case .sendExpiring(let text):
            var message = try Self.message(text, layout: .template(TemplateLayout(caption: text)))
            message.shouldExpire = true
            try await context.conversation.send(message)
        case .compose(let text):
            try await context.conversation.insertText(text)
        case .fail:
            throw Failure()
        }
    }

    func willBecomeActive(state: inout State, context: AppContext) async throws {
        state.shown = context.conversation.selectedMessage.flatMap(Self.text(of:))
    }

    func didSelect(_ message: Message, state: inout State, context: AppContext) async throws {
        state.shown = Self.text(of: message)
    }

    func didReceive(_ message: Message, state: inout State, context: AppContext) async throws {
        state.shown = "received " + (Self.text(of: message) ?? "?")
    }

    /// The sticker of Probe's sticker browser.
    /// A sticker whose image is on another site: the browser loads it through the image proxy.
    static let remoteDot = try? Sticker(
        id: "probe/remote", image: .url(URL(string: "https://images.example/dot.png") ?? URL(fileURLWithPath: "/")), localizedDescription: "A far dot")

    static let dot = try? Sticker(
        id: "probe/dot", image: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></svg>"#),
        localizedDescription: "A dot")

    static func message(_ text: String, layout: MessageLayout) throws -> Message {
        let url = try QueryItems(["text": text]).url(base: "https://probe.example/")
        return Message(session: Session(), url: url, layout: layout, summaryText: text)
    }

    static func text(of message: Message) -> String? {
        message.url.flatMap { try? QueryItems(url: $0)["text"] }
    }
}

/// A test app whose every hook and action throws.
struct Broken: MessagesApp {
    static let id: AppID = "org.parlor.test.broken"

    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Broken", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#))
    }

    struct State: Codable, Sendable {}
    enum Action: Codable, Sendable { case press }
    struct Failure: Error {}

    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        Button("Press", action: Action.press)
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws { throw Failure() }
    func willBecomeActive(state: inout State, context: AppContext) async throws { throw Failure() }
    func didBecomeActive(state: inout State, context: AppContext) async throws { throw Failure() }
    func willResignActive(state: inout State, context: AppContext) async throws { throw Failure() }
}

/// A show of hands in one session, on `SharedState`: "Start" stages a new tally, "Raise" stages
/// the viewer's raised hand on the tapped message. Staged hands that meet a newer head are
/// re-applied to it (`rebase`), so hands raised at once all count.
struct ShowOfHands: MessagesApp {
    static let id: AppID = "org.parlor.test.hands"
    typealias Hands = SharedState<String, Bool>

    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Hands", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#), compactHeight: 160)
    }
    struct State: Codable, Sendable { var selected: Message? }
    enum Action: Codable, Sendable { case start, raise }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        Button("Start", action: Action.start)
        Button("Raise", action: Action.raise)
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .start:
            try await context.conversation.insert(try Self.message(Hands("Hands up"), session: Session()))
        case .raise:
            guard let selected = state.selected, let session = selected.session else { return }
            var hands = try Hands(message: selected)
            hands[context.conversation.localParticipantIdentifier] = true
            try await context.conversation.insert(try Self.message(hands, session: session))
        }
    }

    func willBecomeActive(state: inout State, context: AppContext) async throws { state.selected = context.conversation.selectedMessage }
    func validate(_ message: Message, replacing head: Message?) throws { try Hands.validate(message, replacing: head) }
    func rebase(_ message: Message, onto head: Message) throws -> Message? {
        try Hands.rebase(message, onto: head) { try Self.message($0, session: head.session ?? Session()) }
    }

    static func message(_ hands: Hands, session: Session) throws -> Message {
        Message(
            session: session, url: try hands.url(base: "https://parlor.example/tally"),
            layout: .template(TemplateLayout(caption: "\(hands.count(of: true)) hands up")))
    }
}

extension TestServer {
    /// The built-in apps plus Probe, Broken, ShowOfHands, Painter and RollCall.
    static func withTestApps(configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(directory: builtIn(adding: [AnyMessagesApp(Probe()), AnyMessagesApp(Broken()), AnyMessagesApp(ShowOfHands()), AnyMessagesApp(Painter()), AnyMessagesApp(RollCall())]), configure: configure)
    }
}

/// A test app that draws a picture once (`conversation.upload(image:)`) and shows it in its view
/// and in messages, as often as it likes.
struct Painter: MessagesApp {
    static let id: AppID = "org.parlor.test.painter"
    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Painter", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#))
    }
    struct State: Codable, Sendable { var picture: String? }
    enum Action: Codable, Sendable {
        /// Uploads the photo (with its GPS position) and sends it.
        case paint
        /// Sends the picture uploaded before, again.
        case sendAgain
        /// Uploads bytes that are not an image.
        case uploadText
    }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            if let picture = state.picture { Image(.upload(picture), label: "The picture", width: 64, height: 64, id: "picture") }
            Button("Paint", action: Action.paint)
            Button("Send again", action: Action.sendAgain)
            Button("Upload text", action: Action.uploadText)
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .paint:
            let picture = try await context.conversation.upload(image: TestImages.jpegWithPosition)
            guard case .upload(let id) = picture else { return }
            state.picture = id
            try await context.conversation.send(Self.message(showing: id))
        case .sendAgain:
            guard let picture = state.picture else { return }
            try await context.conversation.send(Self.message(showing: picture))
        case .uploadText:
            _ = try await context.conversation.upload(image: Data("not an image".utf8))
        }
    }

    static func message(showing id: String) -> Message {
        Message(url: URL(string: "https://parlor.example/painter"), layout: .template(TemplateLayout(image: .upload(id), caption: "A picture")))
    }
}

/// A test app whose view has a button per other participant, in the order the host gives them.
struct RollCall: MessagesApp {
    static let id: AppID = "org.parlor.test.rollcall"
    var manifest: AppManifest {
        AppManifest(id: Self.id, name: "Roll Call", icon: .svg(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>"#))
    }
    struct State: Codable, Sendable {}
    enum Action: Codable, Sendable { case wave }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            for person in environment.remoteParticipantIdentifiers { Button(person.mention, action: Action.wave) }
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {}
}
