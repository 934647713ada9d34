import ParlorKit

extension RSVP {
    /// Accepts exactly the messages this app makes; refuses forged ones with `.actionRefused`.
    ///
    /// - `SessionState`'s rules: a reply keeps the title, time, place and organizer, and changes
    ///   only its sender's own answer.
    /// - A new session is an RSVP nobody has answered yet, organized by its sender; a reply
    ///   changes its sender's answer.
    /// - The URL is the canonical encoding (counts equal lists, no stray items), and the bubble's
    ///   layout, summary line and accessibility label say what the URL says.
    public func validate(_ message: Message, replacing head: Message?) throws {
        do {
            try Invitation.validate(message, replacing: head) { proposed, current in
                try check(message, carrying: proposed, replacing: current)
            }
        } catch let error as MessagesError {
            throw error.message.hasPrefix(Self.refusalPrefix) ? error : refusal(error.message)
        }
    }

    /// The app's own rule, after `SessionState`'s.
    private func check(_ message: Message, carrying proposed: Invitation, replacing current: Invitation?) throws(MessagesError) {
        guard let sender = message.senderParticipantIdentifier, let session = message.session else {
            throw refusal("An RSVP message belongs to a session.")
        }
        guard message.url == (try? proposed.url()) else { throw refusal("The RSVP's URL carries something besides the RSVP.") }
        let summary: String
        if let current {
            // SessionState compares each person's answer; RSVP also lists them in the order given.
            guard proposed.answering(nil, for: sender) == current.answering(nil, for: sender) else {
                throw refusal("A message may change only its sender's own entry, not someone else's.")
            }
            let previous = current[sender]
            guard let answer = proposed[sender], answer != previous else { throw refusal("This message does not answer the RSVP.") }
            summary = Invitation.answerSummary(by: sender, answer: answer, previous: previous)
        } else {
            guard proposed.organizer == sender else { throw refusal("Only its sender can be the organizer of a new RSVP.") }
            guard proposed.participants.isEmpty else { throw refusal("A new RSVP starts with no answers.") }
            summary = proposed.creationSummary
        }
        let expected = try? proposed.message(session: session, summary: summary)
        guard let expected, message.showsTheSame(as: expected) else { throw refusal("The message does not show what its RSVP says.") }
    }

    private static let refusalPrefix = "RSVP refused this message. "

    private func refusal(_ reason: String) -> MessagesError {
        MessagesError(.actionRefused, Self.refusalPrefix + reason)
    }
}
