import Foundation
import ParlorHost
import ParlorKit
import Testing

/// `Message.error` (MSMessage.error): set only by the host, on a staged message whose Send was
/// refused; kept through the message's JSON (the compose field is stored), gone once it is sent.
@Suite("Why a message failed to send")
struct SendFailureTests {
    static let failure = SendFailure(MessagesError(.actionRefused, "That square is taken; choose an empty one."))

    @Test("A refused send keeps the message with its failure through JSON; staging it again or sending it clears it")
    func lifecycle() throws {
        let message = Message(url: URL(string: "https://example.org/move?square=4"), layout: .template(TemplateLayout(caption: "O at 4")))
        #expect(message.error == nil)
        let failed = MessageRules.failedToSend(message, Self.failure)
        #expect(failed.error?.code == "actionRefused" && failed.error?.message == "That square is taken; choose an empty one.")
        #expect(failed.url == message.url && failed.id == message.id, "the message itself is unchanged")
        let stored = try JSONDecoder().decode(Message.self, from: JSONEncoder().encode(failed))
        #expect(stored.error == Self.failure, "the compose field is stored with its failure")
        // An app cannot make its own message look refused, and a message sent carries no failure.
        #expect(MessageRules.staging(failed).error == nil)
        let manifest = AppManifest(id: "org.example.squares", name: "Squares", icon: .asset("squares.png"))
        #expect(try MessageRules.prepare(failed, sender: ParticipantID(), app: manifest).error == nil)
        // A message written without one (an app outside the server) decodes with none.
        let plain = try JSONDecoder().decode(Message.self, from: Data(#"{"url":"https://example.org/m"}"#.utf8))
        #expect(plain.error == nil)
    }
}
