import ParlorKit

extension RSVP {
    /// Accepts exactly the messages this app makes; refuses forged ones with `.actionRefused`.
    ///
    /// - A new session is an RSVP nobody has answered yet, organized by its sender.
    /// - A reply keeps the title and organizer, and changes only its sender's own answer.
    /// - The URL is the canonical encoding (counts equal lists, no stray items), and the bubble's
    ///   layout, summary line and accessibility label say what the URL says.
    public func validate(_ message: Message, replacing head: Message?) throws {
        guard let sender = message.senderParticipantIdentifier else { throw refusal("An RSVP message must say who sent it.") }
        guard let session = message.session else { throw refusal("An RSVP message belongs to a session.") }
        let proposed: Invitation
        do throws(MessagesError) {
            proposed = try Invitation(url: message.url)
        } catch {
            throw refusal(error.message)
        }
        guard message.url == (try? proposed.url()) else {
            throw refusal("The RSVP's URL carries something besides the RSVP.")
        }
        let summary: String
        if let head {
            summary = try checkReply(proposed, from: sender, replacing: head)
        } else {
            guard proposed.organizer == sender else { throw refusal("Only its sender can be the organizer of a new RSVP.") }
            guard proposed.yes.isEmpty, proposed.no.isEmpty else { throw refusal("A new RSVP starts with no answers.") }
            summary = proposed.creationSummary
        }
        let expected = try? proposed.message(session: session, summary: summary)
        guard let expected, message.layout == expected.layout, message.summaryText == expected.summaryText,
              message.accessibilityLabel == expected.accessibilityLabel
        else { throw refusal("The message does not show what its RSVP says.") }
    }

    /// Checks that `proposed` changes only `sender`'s answer on `head`; returns the summary line
    /// that answer leaves.
    private func checkReply(_ proposed: Invitation, from sender: ParticipantID, replacing head: Message) throws(MessagesError) -> String {
        let current: Invitation
        do throws(MessagesError) {
            current = try Invitation(url: head.url)
        } catch {
            throw refusal("The RSVP this answers cannot be read.")
        }
        guard proposed.title == current.title, proposed.organizer == current.organizer else {
            throw refusal("An answer cannot change the RSVP's title or organizer.")
        }
        guard proposed.answering(nil, for: sender) == current.answering(nil, for: sender) else {
            throw refusal("An answer may change only its sender's own answer.")
        }
        let previous = current.answer(of: sender)
        guard let answer = proposed.answer(of: sender), answer != previous else {
            throw refusal("This message does not answer the RSVP.")
        }
        return Invitation.answerSummary(by: sender, answer: answer, previous: previous)
    }

    private func refusal(_ reason: String) -> MessagesError {
        MessagesError(.actionRefused, "RSVP refused this message. \(reason)")
    }
}
