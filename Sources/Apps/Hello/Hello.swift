import ParlorKit

/// The smallest complete message app: pick a greeting, it is staged as a message carrying it in
/// its URL, and whoever taps the message sees the greeting and who sent it.
public struct Hello: MessagesApp {
    public init() {}
    public var manifest: AppManifest {
        AppManifest(id: "org.parlor.hello", name: "Hello", icon: .svg(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#f9ab00"/><path d="M14 18h36v22H30l-10 8v-8h-6z" fill="#fff"/></svg>"##), summary: "Say hello with a message that carries who sent it.")
    }

    public struct State: Codable, Sendable { var received: String?; var from: ParticipantID? }
    public enum Action: Codable, Sendable { case greet(String) }
    public var initialState: State { State() }
    static let greetings = ["Hi!", "Good morning", "Party time 🎉"]
    /// Its words in French and German; anyone else reads the English keys.
    static let strings = LocalizedStrings([
        "fr": ["Hi!": "Salut !", "Good morning": "Bonjour", "Party time 🎉": "C'est la fête 🎉", "from %@": "de %@", "Said %@": "A dit « %@ »"],
        "de": ["Hi!": "Hallo!", "Good morning": "Guten Morgen", "Party time 🎉": "Party! 🎉", "from %@": "von %@", "Said %@": "Sagte „%@“"],
    ])

    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            if let received = state.received {
                Text(received, style: .title, id: "greeting")
                if let from = state.from { Text(Self.strings.format("from %@", language: environment.language, from.mention), style: .caption) }
            }
            // The greeting is sent in the sender's words, as a person types them.
            for greeting in Self.greetings {
                let words = Self.strings[greeting, in: environment]
                Button(words, action: Action.greet(words))
            }
        }
    }

    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        guard case .greet(let text) = action else { return }
        let url = try QueryItems(["text": text]).url(base: "https://parlor.example/hello")
        let summary = Self.strings.format("Said %@", language: context.language, text)
        try await context.conversation.insert(Message(url: url, layout: .template(TemplateLayout(caption: text)), summaryText: summary))
    }

    public func willBecomeActive(state: inout State, context: AppContext) async throws {
        guard let message = context.conversation.selectedMessage, let url = message.url else { return }
        state.received = try QueryItems(url: url).require("text")
        state.from = message.senderParticipantIdentifier
    }
}
