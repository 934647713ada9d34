import Crypto
import Foundation
import HTTPTypes
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// Calls every operation of the HTTP API once or more on a live server, successes and errors, and
/// records each request and reply for OpenAPITests to check against the spec.
struct SpecScenario {
    struct Call: Sendable {
        let method: String
        let path: String
        let reply: Reply
    }

    let api: API
    private let log = CallLog()

    actor CallLog {
        var calls: [Call] = []
        func append(_ call: Call) { calls.append(call) }
    }

    init(api: API) { self.api = api }

    @discardableResult
    private func call(_ method: HTTPRequest.Method, _ path: String, as person: Person? = nil, json: JSON? = nil, body: Data? = nil) async throws -> Reply {
        let reply = try await api.request(method, path, as: person, json: json, body: body)
        await log.append(Call(method: method.rawValue, path: path, reply: reply))
        return reply
    }

    func run() async throws -> [Call] {
        let port = try #require(api.port)
        let signUp = try await call(.post, "/api/auth/signup", json: ["username": "alice", "displayName": "Alice", "password": "password-alice"])
        let session = try signUp.decode(Wire.Session.self)
        let alice = Person(user: session.user, token: session.token)
        let bob = try await api.signUp("bob")
        let carol = try await api.signUp("carol")
        try await call(.post, "/api/auth/signup", json: ["username": "alice", "displayName": "Again", "password": "password-alice"])
        try await call(.post, "/api/auth/signup", json: ["username": "x", "displayName": "X", "password": "password-x"])
        try await call(.post, "/api/auth/signin", json: ["username": "alice", "password": "password-alice"])
        for _ in 0..<6 { try await call(.post, "/api/auth/signin", json: ["username": "carol", "password": "wrong-password"]) }
        try await call(.get, "/api/me", as: alice)
        try await call(.get, "/api/me")
        try await call(.get, "/api/users?query=b", as: alice)

        let created = try await call(.post, "/api/conversations", as: alice, json: ["members": ["bob", "carol"], "title": "Spec"])
        let group = try created.decode(Wire.Conversation.self)
        try await call(.post, "/api/conversations", as: alice, json: ["members": ["nobody"]])
        try await call(.post, "/api/conversations", as: alice, json: ["members": []])
        try await call(.get, "/api/conversations", as: bob)
        try await call(.get, "/api/conversations/\(group.id)", as: bob)
        try await call(.get, "/api/conversations/\(UUID().uuidString)", as: bob)
        try await call(.patch, "/api/conversations/\(group.id)", as: bob, json: ["title": "Spec club"])
        try await call(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: alice)
        try await call(.post, "/api/conversations/\(group.id)/members", as: bob, json: ["username": "carol"])
        try await call(.post, "/api/conversations/\(group.id)/members", as: bob, json: ["username": "nobody"])
        try await call(.delete, "/api/conversations/\(group.id)/members/\(carol.id)", as: bob)
        try await call(.put, "/api/conversations/\(group.id)/muted", as: bob)
        try await call(.delete, "/api/conversations/\(group.id)/muted", as: bob)
        for setting in ["pinned", "archived", "unread"] {
            try await call(.put, "/api/conversations/\(group.id)/\(setting)", as: bob)
            try await call(.delete, "/api/conversations/\(group.id)/\(setting)", as: bob)
        }
        try await call(.get, "/api/me/push", as: carol)
        try await call(.get, "/api/me/push")
        let device = try #require(P256KeyForSpec.subscription)
        let pushed = try await call(.post, "/api/me/push", as: carol, json: device).decode(Wire.PushSettings.self)
        try await call(.post, "/api/me/push", as: carol, json: ["endpoint": "https://evil.example/x", "keys": ["p256dh": "x", "auth": "y"]])
        try await call(.patch, "/api/me/push", as: carol, json: ["showsText": false])
        try await call(.patch, "/api/me/push", as: carol, json: ["showsText": "no"])
        try await call(.delete, "/api/me/push/\(try #require(pushed.devices.first?.id))", as: carol)
        try await call(.delete, "/api/me/push/nothing", as: carol)
        try await call(.get, "/api/me/blocked", as: carol)
        try await call(.put, "/api/me/blocked/\(bob.id)", as: carol)
        try await call(.put, "/api/me/blocked/\(carol.id)", as: carol)
        try await call(.put, "/api/me/blocked/\(UUID().uuidString)", as: carol)
        try await call(.delete, "/api/me/blocked/\(bob.id)", as: carol)
        try await call(.delete, "/api/me/blocked/not-an-id", as: carol)
        try await call(.put, "/api/conversations/\(group.id)/admins/\(bob.id)", as: bob)
        try await call(.put, "/api/conversations/\(group.id)/admins/\(bob.id)", as: alice)
        try await call(.delete, "/api/conversations/\(group.id)/admins/\(alice.id)", as: alice)
        try await call(.delete, "/api/conversations/\(group.id)/admins/\(bob.id)", as: bob)

        let messages = "/api/conversations/\(group.id)/messages"
        let hello = try await call(.post, messages, as: alice, json: ["id": "\(UUID().uuidString)", "text": "Hello spec"]).decode(Wire.Message.self)
        try await call(.post, messages, as: bob, json: ["id": "\(UUID().uuidString)", "text": "Hi!", "replyTo": "\(hello.id)"])
        try await call(.post, messages, as: bob, json: ["id": "\(UUID().uuidString)", "text": "Hi!", "replyTo": "\(UUID().uuidString)"])
        try await call(.get, "\(messages)/\(hello.id)/replies", as: carol)
        try await call(.post, "\(messages)/\(hello.id)/forward", as: carol, json: ["to": .array([.string(group.id.description)])])
        try await call(.post, "\(messages)/\(hello.id)/forward", as: carol, json: ["to": []])
        try await call(.get, "/api/conversations/\(group.id)/reads", as: carol)
        try await call(.get, "/api/search?q=hello&limit=5", as: carol)
        try await call(.get, "/api/search?q=%3F%21", as: carol)
        try await call(.get, "/api/search?q=hello")
        try await call(.patch, "/api/me", as: carol, json: ["sharesReadReceipts": false])
        try await call(.patch, "/api/me", as: carol, json: ["sharesReadReceipts": "yes"])
        try await call(.patch, "/api/me", as: carol, json: ["sharesReadReceipts": .null])
        try await call(.patch, "/api/me", as: carol, json: ["avatar": .string(String(repeating: "a", count: 64))])
        try await call(.patch, "/api/me", as: carol, json: ["avatar": .null])
        try await call(.get, "\(messages)/\(hello.id)/versions", as: carol)
        try await call(.get, "\(messages)/\(UUID().uuidString)/versions", as: carol)
        try await call(.post, messages, as: alice, json: ["id": "\(UUID().uuidString)", "text": "\(String(repeating: "x", count: 10_001))"])
        try await call(.post, messages, as: alice, json: ["id": "\(UUID().uuidString)", "sticker": "none/none.png"])
        let directory = try await call(.get, "/api/apps", as: alice).decode(Wire.Directory.self)
        let sticker = try #require(directory.packs.first?.stickers.first)
        try await call(.post, messages, as: bob, json: ["id": "\(UUID().uuidString)", "sticker": "\(sticker.id)"])
        try await call(.post, messages, as: bob, json: [
            "id": "\(UUID().uuidString)", "sticker": "\(sticker.id)", "placement": ["message": "\(hello.id)", "x": 0.5, "y": 0.25],
        ])
        try await call(.post, messages, as: bob, json: [
            "id": "\(UUID().uuidString)", "sticker": "\(sticker.id)", "placement": ["message": "\(UUID().uuidString)", "x": 0.5, "y": 0.25],
        ])
        try await call(.post, messages, as: bob, json: [
            "id": "\(UUID().uuidString)", "sticker": "\(sticker.id)", "placement": ["message": "\(hello.id)", "x": 2, "y": 0.25],
        ])
        // The server does not fetch from private networks: the text goes without a card, the preview is refused.
        try await call(.post, messages, as: alice, json: [
            "id": "\(UUID().uuidString)", "text": "see http://127.0.0.1:9/page", "linkPreview": "http://127.0.0.1:9/page",
        ])
        try await call(.get, "/api/link-preview?url=http%3A%2F%2F127.0.0.1%3A9%2Fpage", as: alice)
        try await call(.get, "/api/link-preview?url=ftp%3A%2F%2Fexample.org%2F", as: alice)
        try await call(.get, "/api/link-preview?url=http%3A%2F%2F127.0.0.1%3A9%2Fpage")

        try await sendHelloMessage(port: port, from: alice, in: group.id)
        try await call(.get, "\(messages)?after=0&limit=50", as: carol)
        try await call(.get, "/api/conversations", as: carol)
        try await call(.get, "/api/conversations/\(group.id)", as: alice)
        try await call(.get, "/api/conversations/\(group.id)/staged", as: alice)
        try await call(.get, "/api/conversations/\(group.id)/staged", as: carol)

        try await call(.put, "/api/drawer", as: carol, json: .object(["items": .array(directory.drawer.map { .string($0) })]))
        try await call(.put, "/api/drawer", as: carol, json: ["items": ["org.example.nothing"]])
        try await call(.delete, "/api/apps/org.parlor.hello/install", as: carol)
        try await call(.post, "/api/apps/org.parlor.hello/install", as: carol)
        try await call(.post, "/api/apps/org.example.nothing/install", as: carol)
        try await call(.get, "/assets/apps/org.parlor.iconstore/iconstore.png")
        try await call(.get, "/assets/apps/org.parlor.iconstore/none.png")
        try await call(.get, sticker.url)
        let png = TestImages.png()
        let blob = try await call(.post, "/api/blobs", as: alice, body: png).decode(Wire.Blob.self)
        try await call(.post, "/api/blobs", as: alice, body: Data("text".utf8))
        try await call(.get, blob.url, as: alice)
        let file = try await call(.post, "/api/blobs?kind=file", as: alice, body: Data("notes".utf8)).decode(Wire.Blob.self)
        try await call(.post, messages, as: alice, json: [
            "id": "\(UUID().uuidString)", "attachment": ["hash": .string(file.hash), "name": "notes.txt"],
        ])
        try await call(.post, messages, as: alice, json: [
            "id": "\(UUID().uuidString)", "attachment": ["hash": .string(String(repeating: "b", count: 64)), "name": "x.txt"],
        ])
        try await call(.get, file.url, as: bob)
        try await call(.get, blob.url)
        try await call(.get, "/blobs/\(String(repeating: "a", count: 64))")
        try await call(.get, "/images/proxy?url=http%3A%2F%2F127.0.0.1%2Fa.png", as: alice)
        try await call(.get, "/images/proxy?url=http%3A%2F%2F127.0.0.1%2Fa.png&sig=\(String(repeating: "0", count: 32))", as: alice)
        try await call(.get, "/images/proxy?url=ftp%3A%2F%2Fexample.com%2Fa.png", as: alice)
        try await call(.get, "/images/proxy?url=http%3A%2F%2F127.0.0.1%2Fa.png")
        try await call(.get, "/healthz")
        try await call(.get, "/readyz")
        try await call(.get, "/api/auth/notice")
        try await call(.get, "/api/rules")
        try await call(.get, "/metrics", as: alice)
        try await call(.get, "/")
        try await call(.get, "/sw.js")
        try await call(.get, "/ws", as: alice)
        try await call(.get, "/ws")
        try await call(.get, "/api/apps/connect", as: alice)
        try await call(.get, "/api/apps/connect?protocol=2")
        // The admin API is off on this server (no admin token): every route is 404.
        try await call(.get, "/api/admin/apps", as: alice)
        try await call(.post, "/api/admin/apps", as: alice, json: ["id": "org.example.x", "name": "X", "icon": ["url": "https://example.org/x.png"]])
        try await call(.post, "/api/admin/apps/org.example.x/credential", as: alice)
        try await call(.put, "/api/admin/apps/org.example.x/module", as: alice, body: Data([0x00, 0x61, 0x73, 0x6D]))
        try await call(.delete, "/api/admin/apps/org.example.x", as: alice)
        try await call(.delete, "/api/conversations/\(group.id)", as: carol)
        try await call(.delete, "/api/conversations/\(UUID().uuidString)", as: carol)
        try await call(.post, "/api/me/password", as: carol, json: ["currentPassword": "wrong-password", "newPassword": "a new password"])
        try await call(.post, "/api/me/password", as: carol, json: ["currentPassword": "password-carol", "newPassword": "short"])
        try await call(.post, "/api/me/password", as: carol, json: ["currentPassword": "password-carol", "newPassword": "a new password"])
        try await call(.post, "/api/me/password", json: ["currentPassword": "x", "newPassword": "y"])
        try await call(.post, "/api/auth/signout-everywhere", as: carol)
        try await call(.post, "/api/auth/signout-everywhere", as: carol)
        try await call(.post, "/api/auth/signout", as: alice)
        return await log.calls
    }

    /// Alice opens Hello and sends a greeting, so histories hold an app message, then stages another.
    private func sendHelloMessage(port: Int, from alice: Person, in conversation: ConversationID) async throws {
        let socket = try await TestSocket.session(port: port, as: alice, since: [conversation: 0])
        let opened = try await socket.openApp("org.parlor.hello", in: conversation)
        try await socket.activate("Hi!", in: opened, conversation: conversation)
        _ = try await socket.staged()
        _ = try await socket.sendStaged(in: conversation)
        try await socket.activate("Good morning", in: opened, conversation: conversation)
        _ = try await socket.staged()
        await socket.disconnect()
    }
}

/// A browser's push subscription as PushManager makes one: a fresh P-256 key and auth secret, an
/// endpoint at a known push service.
enum P256KeyForSpec {
    static var subscription: JSON? {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        func b64u(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return [
            "endpoint": "https://fcm.googleapis.com/fcm/send/spec", "device": "Spec phone",
            "keys": ["p256dh": .string(b64u(key)), "auth": .string(b64u(auth))],
        ]
    }
}
