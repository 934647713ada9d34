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
    /// Registers an app that is one WebAssembly module (`app.moduleHash` is the module's hash),
    /// whose id is not registered.
    /// - Returns: false, changing nothing, when the id is taken.
    func addRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool
    /// Replaces the module (and manifest) of a registered module app: an upgrade in place.
    /// - Returns: false, changing nothing, when no module app has that id.
    func replaceRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool
    /// The module of a registered module app, if it is one.
    func registeredModule(_ id: AppID) async throws -> Data?
}

/// An app registered by the operator: one that runs outside the server and dials in with a
/// credential, or one that is a WebAssembly module Parlor runs itself (`moduleHash`).
public struct RegisteredApp: Sendable, Hashable {
    public var manifest: AppManifest
    /// Lowercase hex SHA-256 of the app's credential: the credential itself is never stored. A
    /// module app has one no one knows (it does not dial in).
    public var secretHash: String
    public var addedAt: Date
    /// Lowercase hex SHA-256 of the app's WebAssembly module, when it is one.
    public var moduleHash: String?

    public init(manifest: AppManifest, secretHash: String, addedAt: Date, moduleHash: String? = nil) {
        self.manifest = manifest
        self.secretHash = secretHash
        self.addedAt = addedAt
        self.moduleHash = moduleHash
    }
}
