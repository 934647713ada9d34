@_spi(Hosting) import ParlorKit

/// Where an app instance stands in the Messages framework's lifecycle, as a value: closed or
/// open, how it is shown, the modal it presents and the message it was opened on. It runs no app
/// code: `AppInstance` runs the hooks and tells it each step between them (`becomeActive` before
/// willBecomeActive, `resignActive` between willResignActive and didResignActive,
/// `transition(to:)` between willTransition and didTransition, `select(_:)` between willSelect and
/// didSelect), so a closed app with a modal, or a bubble that changes style, cannot be represented.
///
///     inactive ─becomeActive─▶ compact ◀─transition─▶ expanded
///        ▲  └──becomeActive─▶ transcript                 │
///        └─────────────── resignActive ──────────────────┘ (from any open state)
struct InstanceLifecycle: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Closed. `last` is the style it was last shown in, which its update and snapshot keep.
        case inactive(last: PresentationStyle)
        /// Open in place of the keyboard, with the modal it presents, if any.
        case compact(modal: String?)
        /// Open over most of the screen, with the modal it presents, if any.
        case expanded(modal: String?)
        /// Drawn in its message's bubble (a live layout): it takes no events and changes nothing
        /// of how it is shown.
        case transcript
    }

    private(set) var state: State
    /// The message the instance was opened on or last selected; kept while it is closed (its
    /// resign hooks and its snapshot see it), cleared when it opens from the drawer.
    private(set) var selectedMessage: Message?

    /// A new instance: closed, nothing selected.
    init() {
        state = .inactive(last: .compact)
    }

    /// The lifecycle an instance saved (`InstanceSnapshot`).
    init(resuming snapshot: InstanceSnapshot) {
        selectedMessage = snapshot.selectedMessage
        state =
            if snapshot.isActive {
                Self.shown(snapshot.presentationStyle, modal: snapshot.modal)
            } else {
                .inactive(last: snapshot.presentationStyle)
            }
    }

    // MARK: What the instance is

    var isActive: Bool {
        if case .inactive = state { false } else { true }
    }

    /// How it is shown now, or was last shown while closed.
    var style: PresentationStyle {
        switch state {
        case .inactive(let last): last
        case .compact: .compact
        case .expanded: .expanded
        case .transcript: .transcript
        }
    }

    var modal: String? {
        switch state {
        case .compact(let modal), .expanded(let modal): modal
        case .inactive, .transcript: nil
        }
    }

    /// Open in compact or expanded: the person uses it, and the hooks about selecting, receiving
    /// and sending messages reach it (an instance in a bubble only draws).
    var isInteractive: Bool {
        switch state {
        case .compact, .expanded: true
        case .inactive, .transcript: false
        }
    }

    /// Whether a change to `style` runs its hooks: the instance is open in compact or expanded,
    /// and `style` is the other of the two.
    func allowsTransition(to style: PresentationStyle) -> Bool {
        isInteractive && style != .transcript && style != self.style
    }

    // MARK: Events

    /// Before willBecomeActive: shown in `style`, with no modal. Opening an open instance again
    /// (a tap on its bubble) starts over the same way.
    mutating func becomeActive(_ style: PresentationStyle) {
        state = Self.shown(style, modal: nil)
    }

    /// Between willResignActive and didResignActive: closed, its style and selection kept, its
    /// modal gone.
    mutating func resignActive() {
        state = .inactive(last: style)
    }

    /// The selected message changes: between willSelect and didSelect, or before opening.
    mutating func select(_ message: Message?) {
        selectedMessage = message
    }

    /// Between willTransition and didTransition: shown in `style`, the modal kept.
    /// - Precondition: `allowsTransition(to: style)`.
    mutating func transition(to style: PresentationStyle) {
        precondition(allowsTransition(to: style), "A transition from \(state) to \(style)")
        state = Self.shown(style, modal: modal)
    }

    /// A hook asked for the modal `name`, or for none: shown only while the instance is open in
    /// compact or expanded (one that closed in the same call, or a bubble, presents nothing).
    mutating func present(modal name: String?) {
        switch state {
        case .compact: state = .compact(modal: name)
        case .expanded: state = .expanded(modal: name)
        case .inactive, .transcript: break
        }
    }

    /// The person closed the modal.
    mutating func dismissModal() {
        present(modal: nil)
    }

    private static func shown(_ style: PresentationStyle, modal: String?) -> State {
        switch style {
        case .compact: .compact(modal: modal)
        case .expanded: .expanded(modal: modal)
        case .transcript: .transcript
        }
    }
}
