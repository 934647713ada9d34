import Foundation
import ParlorKit

/// Apps outside the server that may dial in (`parlor apps add`).
public protocol AppRegistryStore: Sendable {
    /// Every app registered to dial in, oldest first.
    func registeredApps() async throws -> [RegisteredApp]
    /// Registers an app, or replaces its manifest and credential hash when its id is registered
    /// (a seed app hosted outside, registered again at each start).
    func saveRegisteredApp(_ app: RegisteredApp) async throws
    /// Registers an app whose id is not registered.
    /// - Returns: false, changing nothing, when the id is taken (two adds at once: one wins).
    func addRegisteredApp(_ app: RegisteredApp) async throws -> Bool
    /// Replaces a registered app's credential hash.
    /// - Returns: false when the app is not registered (a rotation never brings back a removed app).
    func setRegisteredAppSecret(_ secretHash: String, of id: AppID) async throws -> Bool
    /// Forgets a registered app.
    /// - Returns: whether it was registered.
    func deleteRegisteredApp(_ id: AppID) async throws -> Bool
}

/// An app that runs outside the server and dials in with a credential.
public struct RegisteredApp: Sendable, Hashable {
    public var manifest: AppManifest
    /// Lowercase hex SHA-256 of the app's credential: the credential itself is never stored.
    public var secretHash: String
    public var addedAt: Date

    public init(manifest: AppManifest, secretHash: String, addedAt: Date) {
        self.manifest = manifest
        self.secretHash = secretHash
        self.addedAt = addedAt
    }
}
