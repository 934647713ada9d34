@testable import ParlorServer
import Testing

/// The inbound side of a connection, driven event by event with no channel and no hub.
@Suite("A connection's inbox")
struct InboxStateMachineTests {
    typealias Inbox = InboxStateMachine<String>

    /// Takes every message the working task would handle, in order.
    private func drain(_ inbox: inout Inbox) -> [String] {
        var handled: [String] = []
        while let (message, _) = inbox.next() { handled.append(message) }
        return handled
    }

    @Test("What comes while the connection is registered waits, then is handled in order by one task; the task ends when nothing waits")
    func registeringThenWorking() {
        var inbox = Inbox(limit: 8)
        #expect(inbox.received("hello") == .none, "no task before the hub answers")
        #expect(inbox.received("ping") == .none)
        #expect(inbox.registered(true) == .work)
        #expect(inbox.received("sendText") == .none, "the running task takes it")
        #expect(drain(&inbox) == ["hello", "ping", "sendText"])
        guard case .idle = inbox.state else {
            Issue.record("idle once drained: \(inbox.state)")
            return
        }
        #expect(inbox.received("typing") == .work, "a new task for the next message")
        #expect(inbox.received("typing again") == .none, "one task at a time")
        #expect(drain(&inbox) == ["typing", "typing again"])
    }

    @Test("Registered with nothing waiting: no task until a message comes")
    func registeredIdle() {
        var inbox = Inbox(limit: 8)
        #expect(inbox.registered(true) == .none)
        #expect(inbox.next() == nil)
        #expect(inbox.received("ping") == .work)
    }

    @Test("A refused connection handles nothing, before or after, and is not unregistered when it closes")
    func refused() {
        var inbox = Inbox(limit: 8)
        #expect(inbox.received("hello") == .none)
        #expect(inbox.registered(false) == .none)
        #expect(inbox.waiting == 0, "what waited is dropped")
        #expect(inbox.received("sendText") == .none)
        #expect(inbox.next() == nil)
        #expect(inbox.closed() == .none)
    }

    @Test("Closed while the hub registers it: unregistered once the registration ends, and nothing is handled")
    func closedWhileRegistering() {
        var inbox = Inbox(limit: 8)
        #expect(inbox.received("hello") == .none)
        #expect(inbox.closed() == .none, "not registered yet: nothing to undo now")
        #expect(inbox.registered(true) == .unregister)
        #expect(inbox.next() == nil)
        #expect(inbox.received("late") == .none)
        #expect(inbox.closed() == .none, "unregistered once")

        var refusedToo = Inbox(limit: 8)
        #expect(refusedToo.closed() == .none)
        #expect(refusedToo.registered(false) == .none, "refused: nothing to undo")
    }

    @Test("Closed while working or idle: unregistered once, what waits is dropped, and the task ends")
    func closedWhileWorking() {
        var working = Inbox(limit: 8)
        #expect(working.registered(true) == .none)
        #expect(working.received("a") == .work)
        #expect(working.received("b") == .none)
        #expect(working.next()?.message == "a")
        #expect(working.closed() == .unregister)
        #expect(working.next() == nil, "b is dropped")
        #expect(working.closed() == .none)

        var idle = Inbox(limit: 8)
        #expect(idle.registered(true) == .none)
        #expect(idle.closed() == .unregister)
        #expect(idle.received("late") == .none)
    }

    @Test("At the limit the socket is not read; taking one from a full inbox says to read again, and only then")
    func limit() {
        var inbox = Inbox(limit: 3)
        #expect(inbox.registered(true) == .none)
        #expect(inbox.received("1") == .work)
        #expect(inbox.acceptsMore)
        #expect(inbox.received("2") == .none)
        #expect(inbox.received("3") == .none)
        #expect(!inbox.acceptsMore, "three wait")
        #expect(inbox.next()?.readAgain == true, "room again")
        #expect(inbox.acceptsMore)
        #expect(inbox.next()?.readAgain == false, "it was not full")
        #expect(inbox.next()?.readAgain == false)
        #expect(inbox.next() == nil)
    }
}
