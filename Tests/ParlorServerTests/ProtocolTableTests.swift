import Foundation
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// The frame tables (`Wire.ClientFrame.Kind`, `Wire.ServerFrame.Kind`) are what the browser and the
/// other clients read: they must say what the decoder and the encoder do, and the copies
/// `parlor protocol` publishes must be current.
@Suite("The protocol's frame tables")
struct ProtocolTableTests {
    @Test("docs/protocol.json and the browser's js/protocol.js are what `parlor protocol` writes now")
    func publishedCopiesAreCurrent() throws {
        for file in Wire.ProtocolTable.files {
            let committed = try String(contentsOf: OpenAPISpec.packageRoot.appendingPathComponent(file.path), encoding: .utf8)
            #expect(committed == file.contents(), "\(file.path) is stale: run `swift run parlor protocol` and commit it")
        }
    }

    @Test("docs/protocol.json reads as JSON listing every frame kind with its fields, and the close codes")
    func jsonCopyReads() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Wire.ProtocolTable.json.utf8)) as? [String: Any])
        #expect(object["protocolVersion"] as? Int == Wire.protocolVersion)
        func table(_ key: String) throws -> [String: [String]] {
            let frames = try #require(object[key] as? [[String: Any]])
            var table: [String: [String]] = [:]
            for frame in frames {
                let fields = try #require(frame["fields"] as? [[String: Any]])
                table[try #require(frame["type"] as? String)] = fields.compactMap { $0["name"] as? String }
            }
            return table
        }
        #expect(try table("clientFrames") == Dictionary(uniqueKeysWithValues: Wire.ClientFrame.Kind.allCases.map { ($0.rawValue, $0.fields.map(\.name)) }))
        #expect(try table("serverFrames") == Dictionary(uniqueKeysWithValues: Wire.ServerFrame.Kind.allCases.map { ($0.rawValue, $0.fields.map(\.name)) }))
        #expect(object["closeCodes"] as? [String: Int] == ["signedOut": 4401, "fellBehind": 1013, "storeFailed": 1011])
    }

    // MARK: Client frames against the decoder

    /// A valid value for every field any client frame has.
    static var clientSamples: [String: Any] {
        [
            "since": [UUID().uuidString: 3],
            "conversation": UUID().uuidString,
            "id": UUID().uuidString,
            "message": UUID().uuidString,
            "replyTo": UUID().uuidString,
            "text": "Hello",
            "linkPreview": "https://example.com/page",
            "sticker": "classic/owl.png",
            "placement": ["message": UUID().uuidString, "x": 0.5, "y": 0.25],
            "app": "org.parlor.tictactoe",
            "event": ["kind": "dismissModal"],
            "style": "expanded",
            "sequence": 7,
            "emoji": "👍",
            "on": true,
            "typing": true,
            "appMessage": ["id": UUID().uuidString, "url": "https://parlor.example/hello?greeting=Hi", "layout": ["template": ["caption": "Hi"]]],
            "replacing": UUID().uuidString,
            "language": "fr-CA",
        ]
    }

    static func decode(_ object: [String: Any]) throws -> Wire.ClientRequest {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try Wire.ClientRequest.decode(String(decoding: data, as: UTF8.self))
    }

    @Test("Each client frame kind's fields are what the decoder reads: required ones named when missing, optional ones used, others ignored",
          arguments: Wire.ClientFrame.Kind.allCases)
    func clientFields(kind: Wire.ClientFrame.Kind) throws {
        var object: [String: Any] = ["type": kind.rawValue, "requestId": "r1"]
        for field in kind.fields {
            guard let sample = Self.clientSamples[field.name] else {
                Issue.record("no sample for \(field.name)")
                return
            }
            object[field.name] = sample
        }
        let full = try Self.decode(object)
        #expect(full.frame.kind == kind)
        #expect(full.requestId == "r1")
        for field in kind.fields {
            var without = object
            without[field.name] = nil
            if field.isRequired {
                do {
                    _ = try Self.decode(without)
                    Issue.record("\(kind.rawValue) decodes without its required '\(field.name)'")
                } catch let error as Wire.FrameError {
                    #expect(error.code == .invalidValue)
                    #expect(error.message == "This frame needs '\(field.name)'.")
                    #expect(error.requestId == "r1")
                }
            } else {
                #expect(try Self.decode(without).frame != full.frame, "\(kind.rawValue) does not read its optional '\(field.name)'")
            }
        }
        for (name, sample) in Self.clientSamples where !kind.fields.contains(where: { $0.name == name }) {
            var with = object
            with[name] = sample
            #expect(try Self.decode(with).frame == full.frame, "\(kind.rawValue) reads '\(name)', which its table does not list")
        }
    }

    // MARK: Server frames against the encoder

    /// A frame of each kind with every optional field present.
    static func sample(_ kind: Wire.ServerFrame.Kind) throws -> Wire.ServerFrame {
        let conversation = ConversationID()
        let message = WireEncodingTests.message
        let user = try JSONDecoder().decode(Wire.User.self, from: Data(#"{"id":"\#(UUID().uuidString)","username":"ada","displayName":"Ada"}"#.utf8))
        let update = Wire.AppUpdate(
            appID: AppID("org.parlor.tictactoe"), appName: "Tic-Tac-Toe", isActive: true, presentationStyle: .compact, modal: nil,
            view: .empty, error: nil, names: [:], compactHeight: 160)
        return switch kind {
        case .welcome: .welcome(protocolVersion: 1, user: user)
        case .ready: .ready
        case .pong: .pong(requestId: "r1")
        case .message: .message(Wire.EncodedMessage(message))
        case .messageChanged: .messageChanged(message)
        case .ack: .ack(requestId: "r1", message: Wire.EncodedMessage(message))
        case .resync: .resync(conversation: conversation)
        case .conversation:
            .conversation(
                conversation,
                info: Wire.Conversation(
                    id: conversation, title: nil, isGroup: false, members: [user], admins: [], lastSequence: 0, unreadCount: 0,
                    isMuted: false, unreadMentions: 0, isArchived: false, isMarkedUnread: false, isDeleted: false))
        case .staged: .staged(conversation: conversation, staged: Wire.Staged(kind: "sticker", sticker: nil, app: nil))
        case .composeText: .composeText(conversation: conversation, text: "Hi")
        case .app: .app(conversation: conversation, app: AppID("org.parlor.tictactoe"), update: update)
        case .home: .home(app: AppID("org.parlor.tictactoe"), update: update)
        case .expired: .expired(conversation: conversation, messageID: message.id)
        case .reactions: .reactions(conversation: conversation, messageID: message.id, reactions: [Wire.Reaction(emoji: "👍", users: [user.id])])
        case .typing: .typing(conversation: conversation, userID: user.id, isTyping: true)
        case .readReceipt:
            .readReceipt(
                conversation: conversation,
                receipt: try JSONDecoder().decode(Wire.ReadReceipt.self, from: Data(#"{"userID":"\#(user.id.uuid.uuidString)","sequence":3}"#.utf8)))
        case .error: .error(Wire.ErrorBody(code: "notFound", message: "No such thing."), requestId: "r1", head: message)
        }
    }

    @Test("Each server frame kind's fields are what the encoder writes, and a reader needs the required ones",
          arguments: Wire.ServerFrame.Kind.allCases)
    func serverFields(kind: Wire.ServerFrame.Kind) throws {
        let frame = try Self.sample(kind)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(frame.json().utf8)) as? [String: Any])
        #expect(object["type"] as? String == kind.rawValue)
        #expect(Set(object.keys) == Set(["type"] + kind.fields.map(\.name)))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for field in kind.fields {
            var without = object
            without[field.name] = nil
            let reads = (try? decoder.decode(Wire.ServerFrame.self, from: try JSONSerialization.data(withJSONObject: without))) != nil
            #expect(reads == !field.isRequired, "\(kind.rawValue) without '\(field.name)'")
        }
    }

    // MARK: The browser reads the names from js/protocol.js

    /// The client's modules, but the generated one.
    static func browserModules() throws -> [(name: String, text: String)] {
        let folder = OpenAPISpec.packageRoot.appendingPathComponent("Sources/ParlorServer/Web/js")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".js") && $0 != "protocol.js" }
            .map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test("The browser names frames and close codes only through js/protocol.js, and every name it uses is in the table")
    func browserUsesTheTable() throws {
        let client = Set(Wire.ClientFrame.Kind.allCases.map(\.rawValue))
        let server = Set(Wire.ServerFrame.Kind.allCases.map(\.rawValue))
        let codes = Set(Wire.ProtocolTable.closeCodes.map(\.key))
        var uses = 0
        for module in try Self.browserModules() {
            for match in module.text.matches(of: /\b(ClientFrame|ServerFrame|CloseCode)\.([A-Za-z]+)/) {
                uses += 1
                let known = switch match.1 { case "ClientFrame": client; case "ServerFrame": server; default: codes }
                #expect(known.contains(String(match.2)), "\(module.name): \(match.0) is not in the protocol's table")
            }
            for match in module.text.matches(of: /\btype:\s*'([A-Za-z]+)'/) {
                let name = String(match.1)
                if client.contains(name) { Issue.record("\(module.name) spells the frame type '\(name)': write ClientFrame.\(name)") }
                if server.contains(name) { Issue.record("\(module.name) spells the frame type '\(name)': write ServerFrame.\(name)") }
            }
            for match in module.text.matches(of: /\.type\s*[!=]==?\s*'([A-Za-z]+)'/) where server.contains(String(match.1)) {
                Issue.record("\(module.name) compares a frame type with '\(match.1)': write ServerFrame.\(match.1)")
            }
            for block in module.text.matches(of: /switch \(frame\.type\) \{.*?default:/.dotMatchesNewlines()) {
                for label in block.0.matches(of: /case ([^:]+):/) where !label.1.hasPrefix("ServerFrame.") {
                    Issue.record("\(module.name): case \(label.1) in a switch on frame.type: write ServerFrame.…")
                }
            }
            #expect(!module.text.contains("4401"), "\(module.name) spells the signed-out close code: write CloseCode.signedOut")
            // The mention grammar is the server's: a module writes Mention.userOpening, not the token.
            for line in module.text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(!line.contains(MentionTokens.opening), "\(module.name) spells a mention token: write Mention.userOpening…\n\(line)")
            }
        }
        #expect(uses > 40, "the browser should name its frames through js/protocol.js")
    }
}
