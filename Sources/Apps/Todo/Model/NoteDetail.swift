import ParlorKit

/// What tapping a to-do message shows.
enum NoteDetail: Sendable, Hashable, Codable {
    /// The note, read leniently, and who shared it.
    case note(SharedNote, sender: ParticipantID?)
    /// Nothing could be shown; the sentence says why.
    case unreadable(String)

    init(_ message: Message) {
        do {
            self = .note(try TodoMessage.read(message), sender: message.senderParticipantIdentifier)
        } catch {
            self = .unreadable(error.message)
        }
    }
}
