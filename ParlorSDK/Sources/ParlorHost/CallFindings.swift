@_spi(Hosting) import ParlorKit

/// What the call running in an `AppInstance` has learned about its app, from its first hook to
/// its save. Each call starts with a fresh one, so nothing of it outlives the call.
struct CallFindings: Sendable, Equatable {
    /// Why the app could not be reached during this call (`appUnavailable`: an app outside the
    /// process that is gone, late or unreadable); nil while it answers. Once set, the call's other
    /// hooks and its render are not tried, so a hung app costs its user one deadline, not one per hook.
    private(set) var unreachable: MessagesError?
    /// The state is older than a message the call sent: a hook that sent then threw, and no hook
    /// that sent has returned since (`InstanceConfiguration.Save`'s `olderThanItsMessage`).
    private(set) var stateOlderThanItsMessage = false

    /// App code returned, and its state is committed. `sent`: it sent a message, which the state
    /// now has.
    mutating func returned(sent: Bool) {
        if sent { stateOlderThanItsMessage = false }
    }

    /// App code threw, and its state stays as before it. `sent`: it sent a message first, which
    /// the state does not have.
    mutating func threw(sent: Bool) {
        if sent { stateOlderThanItsMessage = true }
    }

    /// The app could not be reached: `error` says why.
    mutating func appUnreachable(_ error: MessagesError) {
        unreachable = error
    }
}
