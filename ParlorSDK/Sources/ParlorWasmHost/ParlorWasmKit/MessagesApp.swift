// An app as ParlorKit shapes one, for Embedded Swift: its state, a view of it, and the hooks it
// implements; the SDK reads each call, runs the hook and writes the answer (docs/APPS-WASM.md).
//
//     struct Counter: MessagesApp {
//         var initialState: CounterState { CounterState(count: 0) }
//         func body(state: CounterState, context: Context) -> View { … }
//         func handle(_ action: JSON, state: inout CounterState, context: Context, effects: inout Effects) throws(AppError) { … }
//     }
//
//     @_expose(wasm, "parlor_call") @_cdecl("parlor_call")
//     func parlorCall(_ call: UnsafePointer<UInt8>, _ length: Int32) -> Int64 { Counter().answer(call, length) }

/// An app's state, kept by Parlor between calls as JSON.
public protocol AppState {
    /// Reads the state an earlier call answered with.
    init(json: JSON) throws(AppError)
    var json: JSON { get }
}

public protocol MessagesApp {
    associatedtype State: AppState

    /// The state of a new instance.
    var initialState: State { get }

    /// The view for `state` in `context`: a pure function of both.
    func body(state: State, context: Context) -> View

    /// A control of the view was used; `action` is the JSON the control carried.
    func handle(_ action: JSON, state: inout State, context: Context, effects: inout Effects) throws(AppError)

    /// The app opens: from the drawer, or on a tapped message (`context.selectedMessage`).
    func willBecomeActive(state: inout State, context: Context, effects: inout Effects) throws(AppError)
    /// The app closed.
    func didResignActive(state: inout State, context: Context) throws(AppError)
    /// A message of this app was tapped while it was open.
    func didSelect(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError)
    /// A message of this app arrived from someone else while it was open.
    func didReceive(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError)
    /// Checks a message of this app before Parlor commits it: `head` is the message it replaces in
    /// its session (nil when it starts one). Throw to refuse it; the sender is trusted, the rest not.
    func validate(_ message: AppMessage, replacing head: AppMessage?) throws(AppError)
    /// `message` was staged on a session head that someone else has since replaced with `head`:
    /// the message to send instead (the same change made on `head`), or nil to leave it staged.
    func rebase(_ message: AppMessage, onto head: AppMessage) throws(AppError) -> AppMessage?
}

extension MessagesApp {
    // The hooks an app leaves out: Parlor is told they do nothing, and stops calling them.
    public func willBecomeActive(state: inout State, context: Context, effects: inout Effects) throws(AppError) { throw .unimplemented }
    public func didResignActive(state: inout State, context: Context) throws(AppError) { throw .unimplemented }
    public func didSelect(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError) { throw .unimplemented }
    public func didReceive(_ message: AppMessage, state: inout State, context: Context, effects: inout Effects) throws(AppError) { throw .unimplemented }
    public func validate(_ message: AppMessage, replacing head: AppMessage?) throws(AppError) { throw .unimplemented }
    public func rebase(_ message: AppMessage, onto head: AppMessage) throws(AppError) -> AppMessage? { throw .unimplemented }
}

// MARK: Answering a call

/// The answer of the last call, kept alive until Parlor reads it.
nonisolated(unsafe) var lastAnswer: WrittenBytes?

extension MessagesApp {
    /// Answers the call Parlor wrote at `pointer`: call this from the module's `parlor_call`.
    /// - Returns: where the answer is, `pointer << 32 | length`.
    public func answer(_ pointer: UnsafePointer<UInt8>, _ length: Int32) -> Int64 {
        let call = (try? JSON(parsing: UnsafeBufferPointer(start: pointer, count: Int(max(0, length))))) ?? .null
        let (frame, view) = answerFrame(call)
        var out = ByteWriter(capacity: 1024 + (view?.text.count ?? 0))
        frame.write(to: &out)
        if let view {
            // `{"type":"result","result":{…}}` (a frame with a view always ends so): the view goes
            // in last, as the text it was built as.
            out.removeLast()
            out.removeLast()
            out.appendLiteral(",\"view\":")
            out.append(view.text.buffer)
            out.appendLiteral("}}")
        }
        let answer = out.finish()
        lastAnswer = answer
        return Int64(UInt(bitPattern: answer.base)) << 32 | Int64(answer.count)
    }

    /// The answer frame to `call` (docs/APPS-WASM.md §1).
    public func answer(_ call: JSON) -> JSON {
        let (frame, view) = answerFrame(call)
        guard let view, case .object(var result) = frame["result"] else { return frame }
        result.append(("view", view.json))
        return ["type": "result", "result": .object(result)]
    }

    /// The answer frame to `call`, and the view that goes last in its result, if any.
    func answerFrame(_ call: JSON) -> (frame: JSON, view: View?) {
        let id = call["id"].string ?? ""
        let hook = call["hook"].string ?? ""
        do throws(AppError) {
            var result: [(String, JSON)] = [("id", .string(id))]
            if same(hook, "validate") {
                try validate(AppMessage(json: call["message"]), replacing: call["head"].isNull ? nil : AppMessage(json: call["head"]))
                return (["type": "result", "result": .object(result)], nil)
            }
            if same(hook, "rebase") {
                if let instead = try rebase(AppMessage(json: call["message"]), onto: AppMessage(json: call["head"])) {
                    result.append(("message", instead.json))
                }
                return (["type": "result", "result": .object(result)], nil)
            }
            // A hook with no place here (didBecomeActive, willResignActive, …, or one Parlor added
            // later) does nothing, whatever the call carries.
            let handled = ["render", "handle", "willBecomeActive", "didResignActive", "didSelect", "didReceive"]
            guard handled.contains(where: { same($0, hook) }) else { throw AppError.unimplemented }
            let context = try Context(json: call["context"])
            var state = call["state"].isNull ? initialState : try State(json: call["state"])
            var effects = Effects()
            var closes = false
            switch hook {
            case _ where same(hook, "render"):
                return (["type": "result", "result": ["id": .string(id)]], body(state: state, context: context))
            case _ where same(hook, "handle"):
                try handle(call["action"], state: &state, context: context, effects: &effects)
            case _ where same(hook, "willBecomeActive"):
                try willBecomeActive(state: &state, context: context, effects: &effects)
            case _ where same(hook, "didResignActive"):
                try didResignActive(state: &state, context: context)
                closes = true
            case _ where same(hook, "didSelect"):
                try didSelect(AppMessage(json: call["message"]), state: &state, context: context, effects: &effects)
            case _ where same(hook, "didReceive"):
                try didReceive(AppMessage(json: call["message"]), state: &state, context: context, effects: &effects)
            default:
                throw AppError.unimplemented  // not reached: `handled` lists the hooks above

            }
            result.append(("state", state.json))
            if !effects.list.isEmpty { result.append(("effects", .array(effects.list))) }
            let view = !closes && !(effects.dismisses && context.style != .transcript) ? body(state: state, context: context) : nil
            return (["type": "result", "result": .object(result)], view)
        } catch {
            if error.isUnimplemented { return (["type": "result", "result": ["id": .string(id), "unimplemented": true]], nil) }
            return (["type": "refuse", "refusal": ["id": .string(id), "code": .string(error.code.rawValue), "message": .string(error.message)]], nil)
        }
    }
}

/// Where Parlor writes a call: `size` bytes the module's allocator gives (docs/APPS-WASM.md §1).
@_expose(wasm, "parlor_alloc")
@_cdecl("parlor_alloc")
public func parlorAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    size < 0 ? nil : UnsafeMutableRawPointer.allocate(byteCount: Int(size), alignment: 16)
}
