import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// A message is encoded once and spliced into its fan-out frame and its sender's ack: the spliced
/// frames must be exactly the frames the typed `Wire.ServerFrame` encodes.
@Suite("Frames spliced from an encoded message")
struct WireEncodingTests {
    static let message = Wire.Message(
        id: MessageID(), conversation: ConversationID(), sequence: 42, sender: UserID(), senderName: "Zoë \"Z\" O'Neil",
        sentAt: Date(timeIntervalSince1970: 1_790_000_000), kind: "text", text: "line one\nline two \u{1} \\ </script> 🎉",
        linkPreview: nil, sticker: nil, placement: nil, attachment: nil, app: nil,
        reactions: [Wire.Reaction(emoji: "👍", users: [UserID()])], replyTo: nil, editedAt: nil)

    @Test("The ack of an encoded message reads as the typed ack, whatever the request id holds", arguments: [
        "r1", "quote \" backslash \\ newline \n control \u{7} </script>", nil,
    ])
    func ack(requestId: String?) throws {
        let encoded = try #require(Wire.EncodedMessage(Self.message))
        let spliced = Wire.ServerFrame.ackJSON(requestId: requestId, encoded)
        let typed = Wire.ServerFrame.ack(requestId: requestId, message: Self.message).json()
        #expect(try Self.object(spliced) == Self.object(typed))
        #expect(try Self.object(spliced)["requestId"] as? String == requestId)
    }

    @Test("The message frame of an encoded message reads as the typed message frame")
    func message() throws {
        let encoded = try #require(Wire.EncodedMessage(Self.message))
        let spliced = Wire.ServerFrame.messageJSON(encoded)
        #expect(try Self.object(spliced) == Self.object(Wire.ServerFrame.message(Self.message).json()))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(Wire.ServerFrame.self, from: Data(spliced.utf8))
        guard case .message(let message) = decoded else { Issue.record("not a message frame: \(decoded.kind)"); return }
        #expect(message.text == Self.message.text)
        #expect(message.senderName == Self.message.senderName)
    }

    static func object(_ json: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }
}
