import ParlorKit

/// Quick Poll: a question, 2 to 4 options (empty ones are left out), one changeable vote each, one bubble with the counts.
public struct Poll: MessagesApp {
    public typealias Ballot = SharedState<Question, Int>
    public struct Question: Codable, Sendable, Equatable { var text = "", options = ["", "", "", ""] }
    public struct State: Codable, Sendable { var draft = Question(), ballot: Ballot?, session: Session? }
    public enum Action: Codable, Sendable { case question(String), option(Int, String), create, vote(Int) }
    public init() {}
    public var initialState: State { State() }
    public var manifest: AppManifest {
        AppManifest(id: "org.example.poll", name: "Poll", icon: .svg(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#7b61ff"/></svg>"##),
                    summary: "Ask a question; everyone votes, and can change their mind.")
    }
    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if let ballot = state.ballot {
            Text(ballot.fixed.text, style: .title)
            for (index, option) in ballot.fixed.options.enumerated() {
                let mine = ballot[environment.localParticipantIdentifier] == index ? "✓ " : ""
                Button("\(mine)\(option): \(ballot.count(of: index))", action: Action.vote(index), id: "option-\(index)")
            }
        } else {
            TextField("Question", text: state.draft.text, id: "question", onChange: Action.question)
            for (index, option) in state.draft.options.enumerated() {
                TextField("Option \(index + 1)", text: option, id: "option-\(index)", onChange: { Action.option(index, $0) })
            }
            Button("Create", action: Action.create)
        }
    }
    public func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .question(let text): state.draft.text = text
        case .option(let index, let text): state.draft.options[index] = text
        case .create:
            try await context.conversation.insert(try bubble(Ballot(Question(text: state.draft.text, options: state.draft.options.filter { !$0.isEmpty })), session: Session()))
        case .vote(let index):
            state.ballot?[context.conversation.localParticipantIdentifier] = index
            if let ballot = state.ballot, let session = state.session { try await context.conversation.insert(try bubble(ballot, session: session)) }
        }
    }
    public func willBecomeActive(state: inout State, context: AppContext) async throws { show(context.conversation.selectedMessage, in: &state) }
    public func didReceive(_ message: Message, state: inout State, context: AppContext) async throws { show(message, in: &state) }
    func show(_ message: Message?, in state: inout State) { (state.ballot, state.session) = (try? Ballot(message: message), message?.session) }

    public func validate(_ message: Message, replacing head: Message?) throws {
        try Ballot.validate(message, replacing: head) { poll, _ in
            guard (2...4).contains(poll.fixed.options.count), !(poll.fixed.options + [poll.fixed.text]).contains(""),
                  poll.entries.allSatisfy({ poll.fixed.options.indices.contains($0.entry) })
            else { throw MessagesError(.actionRefused, "A poll has a question, 2 to 4 options, and votes for them.") }
        }
    }
    public func rebase(_ message: Message, onto head: Message) throws -> Message? {
        try Ballot.rebase(message, onto: head) { try bubble($0, session: head.session ?? Session()) }
    }
    func bubble(_ ballot: Ballot, session: Session) throws -> Message {
        let counts = ballot.fixed.options.indices.map { "\(ballot.fixed.options[$0]) \(ballot.count(of: $0))" }.joined(separator: " · ")
        return Message(session: session, url: try ballot.url(base: "https://parlor.example/poll"),
                       layout: .template(TemplateLayout(caption: ballot.fixed.text, subcaption: counts)), summaryText: "Voted on “\(ballot.fixed.text)”")
    }
}
