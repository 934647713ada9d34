import Foundation
import ParlorServer
import ParlorStore

/// The demo: three people, a group conversation and a 1:1, created once.
enum DemoData {
    static let password = "parlor-demo"
    static let people = [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")]

    /// What the sign-in page says under `--demo`.
    static var signInNotice: String {
        "Demo accounts: " + people.map(\.0).joined(separator: ", ") + ", each with the password \(password)."
    }

    /// Creates what is missing and returns the lines to print.
    static func create(store: any ParlorStore, configuration: ServerConfiguration) async throws -> [String] {
        let accounts = Accounts(store: store, configuration: configuration)
        var users: [User] = []
        for (username, name) in people {
            if let existing = try await store.credentials(username: username)?.user {
                users.append(existing)
            } else {
                users.append(try await accounts.signUp(username: username, displayName: name, password: password))
            }
        }
        if try await store.conversations(of: users[0].id).isEmpty {
            _ = try await store.createConversation(title: "Parlor demo", isGroup: true, members: users.map(\.id))
            _ = try await store.createConversation(title: nil, isGroup: false, members: [users[0].id, users[1].id])
        }
        return ["Demo sign-ins (password \"\(password)\"): " + people.map(\.0).joined(separator: ", ") + ". Open a second browser profile or a private window to be two people at once."]
    }
}
