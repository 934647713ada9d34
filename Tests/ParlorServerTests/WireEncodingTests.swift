import Foundation
import ParlorInput
@_spi(Hosting) import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// A message that reads the same for everyone is encoded once and copied into its fan-out frame
/// and its sender's ack by the frames' own encoder: those frames must be exactly the frames of the
/// same message encoded where it is written, byte for byte.
@Suite("Frames carrying a message encoded once")
struct WireEncodingTests {
    static let message = Wire.Message(
        id: MessageID(), conversation: ConversationID(), sequence: 42, sender: UserID(), senderName: "Zoë \"Z\" O'Neil",
        sentAt: Date(timeIntervalSince1970: 1_790_000_000), kind: "text", text: "line one\nline two \u{1} \\ </script> 🎉 https://a.example/x",
        linkPreview: nil, sticker: nil, placement: nil, attachment: nil, app: nil,
        reactions: [Wire.Reaction(emoji: "👍", users: [UserID()])], replyTo: nil, editedAt: nil)

    @Test("The ack of a message encoded once is the ack of the message, whatever the request id holds", arguments: [
        "r1", "quote \" backslash \\ newline \n control \u{7} </script>", nil,
    ])
    func ack(requestId: String?) throws {
        let once = try #require(Wire.EncodedMessage.encodedOnce(Self.message))
        let copied = Wire.ServerFrame.ack(requestId: requestId, message: once).json()
        let written = Wire.ServerFrame.ack(requestId: requestId, message: Wire.EncodedMessage(Self.message)).json()
        #expect(copied == written)
        #expect(try Self.object(copied)["requestId"] as? String == requestId)
        #expect(try Self.object(copied)["message"] as? NSDictionary == Self.object(try CompactJSONEncoder.wire.text(Self.message)))
    }

    @Test("The message frame of a message encoded once is the message frame, and reads back as the message")
    func message() throws {
        let once = try #require(Wire.EncodedMessage.encodedOnce(Self.message))
        let copied = Wire.ServerFrame.message(once).json()
        #expect(copied == Wire.ServerFrame.message(Wire.EncodedMessage(Self.message)).json())
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(Wire.ServerFrame.self, from: Data(copied.utf8))
        guard case .message(let frame) = decoded else { Issue.record("not a message frame: \(decoded.kind)"); return }
        #expect(frame.message.text == Self.message.text)
        #expect(frame.message.senderName == Self.message.senderName)
    }

    @Test("An encoder with other settings, or Foundation's, encodes the message itself, not the copied bytes")
    func otherEncoders() throws {
        let once = try #require(Wire.EncodedMessage.encodedOnce(Self.message))
        // `.wire` keeps slashes; these escape them, so a copy of `.wire`'s bytes would show.
        let escaping = try CompactJSONEncoder(dates: .iso8601, escapesSlashes: true).text(Wire.ServerFrame.message(once))
        #expect(escaping.contains(#"https:\/\/a.example"#))
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        let viaFoundation = String(decoding: try foundation.encode(Wire.ServerFrame.message(once)), as: UTF8.self)
        #expect(try Self.object(viaFoundation) == Self.object(Wire.ServerFrame.message(once).json()))
        #expect(viaFoundation.contains(#"https:\/\/a.example"#))
    }

    static func object(_ json: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }
}
