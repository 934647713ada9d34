import Foundation

/// The server's own secrets (signing keys), shared by every node of one store.
public protocol SecretStore: Sendable {
    /// The secret called `name`, the same on every node sharing the store: the one stored, or
    /// `candidate` stored now when there is none (of two nodes storing one at once, the first
    /// wins and both get it).
    func secret(named name: String, candidate: [UInt8]) async throws -> [UInt8]
}
