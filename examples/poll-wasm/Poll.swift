import ParlorWasmKit

/// Quick Poll as one WebAssembly file, in Embedded Swift with ParlorWasmKit: the same app as
/// examples/poll (ParlorKit), with the same messages. A question, 2 to 4 options (empty ones are
/// left out), one changeable vote each, one bubble with the counts; two votes at once both count.
struct Poll: MessagesApp {
    static let base = "https://parlor.example/poll"

    struct State: AppState {
        var question = ""
        var options = ["", "", "", ""]
        /// The poll on screen, as its message's URL, and its session.
        var ballot: String?
        var session: String?

        init() {}

        init(json: JSON) throws(AppError) {
            question = json["question"].string ?? ""
            let kept = json["options"].elements.compactMap { $0.string }
            if kept.count == 4 { options = kept }
            ballot = json["ballot"].string
            session = json["session"].string
        }

        var json: JSON {
            var members: [(String, JSON)] = [("question", .string(question)), ("options", .array(options.map { .string($0) }))]
            if let ballot { members.append(("ballot", .string(ballot))) }
            if let session { members.append(("session", .string(session))) }
            return .object(members)
        }
    }

    var initialState: State { State() }

    func body(state: State, context: Context) -> View {
        if let ballot = state.ballot.flatMap({ try? SharedState(message: AppMessage(url: $0)) }) {
            return VStack {
                Text(ballot.fixed["text"].string ?? "", style: .title)
                for (index, option) in ballot.fixed["options"].elements.enumerated() {
                    let mine = ballot[context.localParticipant] == .int(index) ? "✓ " : ""
                    Button("\(mine)\(option.string ?? ""): \(ballot.count(of: .int(index)))", action: ["vote": .int(index)], id: "option-\(index)")
                }
            }.view
        }
        return VStack {
            TextField("Question", text: state.question, id: "question", onChange: ["question": TextField.typed])
            for (index, option) in state.options.enumerated() {
                TextField("Option \(index + 1)", text: option, id: "option-\(index)", onChange: ["option": ["index": .int(index), "text": TextField.typed]])
            }
            Button("Create", action: ["create": [:]])
        }.view
    }

    func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        if let text = action["question"].string {
            state.question = text
        } else if let index = action["option"]["index"].int, let text = action["option"]["text"].string, state.options.indices.contains(index) {
            state.options[index] = text
        } else if !action["create"].isNull {
            let options = state.options.filter { !$0.utf8.isEmpty }
            let ballot = SharedState(["options": .array(options.map { .string($0) }), "text": .string(state.question)])
            effects.insert(bubble(ballot, session: Host.newID()))
        } else if let index = action["vote"].int, let url = state.ballot, var ballot = try? SharedState(message: AppMessage(url: url)) {
            ballot[context.localParticipant] = .int(index)
            state.ballot = ballot.url(base: Self.base)  // the view shows the vote at once
            if let session = state.session { effects.insert(bubble(ballot, session: session)) }
        } else {
            throw AppError(.actionRefused, "Poll has no such control.")
        }
    }

    func willBecomeActive(state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        show(context.selectedMessage, in: &state)
    }

    func didReceive(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError) {
        show(message, in: &state)
    }

    func show(_ message: AppMessage?, in state: inout State) {
        let readable = (try? SharedState(message: message)) != nil
        state.ballot = readable ? message?.url : nil
        state.session = message?.session
    }

    func validate(_ message: AppMessage, replacing head: AppMessage?) throws(AppError) {
        try SharedState.validate(message, replacing: head) { (poll, _, _) throws(AppError) in
            let options = poll.fixed["options"].elements
            let texts = options + [poll.fixed["text"]]
            guard (2...4).contains(options.count), texts.allSatisfy({ ($0.string.map { !$0.utf8.isEmpty }) ?? false }),
                poll.entries.allSatisfy({ $0.entry.int.map { options.indices.contains($0) } ?? false })
            else { throw AppError(.actionRefused, "A poll has a question, 2 to 4 options, and votes for them.") }
        }
    }

    func rebase(_ message: AppMessage, onto head: AppMessage) throws(AppError) -> AppMessage? {
        try SharedState.rebase(message, onto: head) { (merged) throws(AppError) in bubble(merged, session: head.session ?? Host.newID()) }
    }

    func bubble(_ ballot: SharedState, session: String) -> AppMessage {
        let options = ballot.fixed["options"].elements
        var counts: [String] = []
        for (index, option) in options.enumerated() { counts.append("\(option.string ?? "") \(ballot.count(of: .int(index)))") }
        let question = ballot.fixed["text"].string ?? ""
        return AppMessage(
            session: session, url: ballot.url(base: Self.base), caption: question, subcaption: counts.joined(separator: " · "),
            summaryText: "Voted on “\(question)”")
    }
}

@_expose(wasm, "parlor_call")
@_cdecl("parlor_call")
func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 {
    Poll().answer(call, length)
}
