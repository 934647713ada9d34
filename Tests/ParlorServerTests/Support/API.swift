import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

/// An HTTP response as a test reads it.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as `T`; records a test failure naming the body when it does not decode.
    func decode<T: Decodable>(_ type: T.Type = T.self, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(T.self, from: body)
        } catch {
            Issue.record("\(status.code) body does not decode as \(T.self): \(text.prefix(400)) (\(error))", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// The `error.code` of an API error body, if it is one.
    var errorCode: String? { (try? JSONDecoder().decode(Wire.ErrorReply.self, from: body))?.error.code }
}

/// Someone signed up on the test server: their public user and their bearer token.
struct Person: Sendable {
    let user: Wire.User
    let token: String
    var id: UserID { user.id }
    var username: String { user.username }
}

/// The test's side of the HTTP API: JSON requests as a signed-in person (bearer token), or anonymous.
struct API: Sendable {
    let http: any TestClientProtocol

    /// The live server's port; nil in router tests.
    var port: Int? { http.port }

    func request(
        _ method: HTTPRequest.Method, _ path: String, as person: Person? = nil, json: JSON? = nil, body: Data? = nil,
        headers: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = headers
        if let person { headers[.authorization] = "Bearer \(person.token)" }
        var buffer: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(string: json.text)
        } else if let body {
            buffer = ByteBuffer(bytes: body)
        }
        let response = try await http.execute(uri: path, method: method, headers: headers, body: buffer)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }

    func get(_ path: String, as person: Person? = nil) async throws -> Reply {
        try await request(.get, path, as: person)
    }

    func post(_ path: String, as person: Person? = nil, json: JSON? = nil) async throws -> Reply {
        try await request(.post, path, as: person, json: json)
    }

    // MARK: Shortcuts for the usual setup

    /// Signs up `username` (display name: the username capitalized) with the password "password-<username>".
    func signUp(_ username: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Person {
        let reply = try await post(
            "/api/auth/signup", json: ["username": "\(username)", "displayName": "\(username.capitalized)", "password": "password-\(username)"])
        #expect(reply.status == .created, "sign up \(username): \(reply.text)", sourceLocation: sourceLocation)
        let session = try reply.decode(Wire.Session.self, sourceLocation: sourceLocation)
        return Person(user: session.user, token: session.token)
    }

    /// Creates a conversation of `person` with `others` (a group when `title` is set or there are several).
    func conversation(
        of person: Person, with others: [Person], title: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Wire.Conversation {
        var body: [String: JSON] = ["members": .array(others.map { .string($0.username) })]
        if let title { body["title"] = .string(title) }
        let reply = try await request(.post, "/api/conversations", as: person, json: .object(body))
        #expect(reply.status == .created, "create conversation: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(sourceLocation: sourceLocation)
    }

    /// Sends a text message with a new id over HTTP.
    @discardableResult
    func send(
        _ text: String, in conversation: ConversationID, as person: Person, id: String = UUID().uuidString,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Wire.Message {
        let reply = try await post("/api/conversations/\(conversation)/messages", as: person, json: ["id": "\(id)", "text": "\(text)"])
        #expect(reply.status == .created, "send: \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(sourceLocation: sourceLocation)
    }

    /// The messages `person` sees in a conversation, oldest first.
    func messages(in conversation: ConversationID, as person: Person, after: Int64? = nil, limit: Int = 500) async throws -> [Wire.Message] {
        let query = (after.map { "after=\($0)&" } ?? "") + "limit=\(limit)"
        let reply = try await get("/api/conversations/\(conversation)/messages?\(query)", as: person)
        #expect(reply.status == .ok, "messages: \(reply.text)")
        return try reply.decode()
    }

    /// Removes `item` (an app id or `sticker:<pack>`) from the person's drawer.
    func uninstall(_ item: String, as person: Person) async throws {
        let reply = try await request(.delete, "/api/apps/\(item)/install", as: person)
        #expect(reply.status == .ok, "uninstall \(item): \(reply.text)")
    }
}

/// Alice and Bob in a 1:1 conversation, and Carol, who shares none with them: the cast of the
/// tests where one person's change must reach their own tabs or contacts and nobody else.
struct ThreePeople: Sendable {
    let alice: Person
    let bob: Person
    let carol: Person
    let direct: Wire.Conversation

    var cast: (alice: Person, bob: Person, carol: Person, direct: Wire.Conversation) { (alice, bob, carol, direct) }
}

extension API {
    func threePeople() async throws -> ThreePeople {
        let alice = try await signUp("alice")
        let bob = try await signUp("bob")
        let carol = try await signUp("carol")
        return ThreePeople(alice: alice, bob: bob, carol: carol, direct: try await conversation(of: alice, with: [bob]))
    }
}
