import Foundation
import ParlorKit
import ParlorStore
import ParlorWasmHost

/// Adding, listing, removing apps that run outside the server, and replacing their credentials:
/// what `parlor apps` does, on the store a running server reads every second (`RemoteApps`).
public struct AppRegistrations: Sendable {
    let store: any AppRegistryStore

    public init(store: any AppRegistryStore) {
        self.store = store
    }

    /// The longest app id.
    public static let maxIDLength = 100
    /// The longest name and summary, in characters.
    public static let maxNameLength = 40
    public static let maxSummaryLength = 300

    /// Registers the app `manifest` describes, unless people could take it for an app already
    /// here: its id is compared whatever the letter case, its name by what it looks like
    /// (`NameKey`: `Tic Tac Toe`, `TIC-TAC-TOE` or one with a Cyrillic `Т` is the built-in
    /// Tic-Tac-Toe).
    /// - Parameter builtIn: the manifests of the apps in the server.
    /// - Returns: the app's credential, shown once: only its hash is stored.
    /// - Throws: `invalidValue` for a manifest that breaks a rule (named in the message);
    ///   `idInUse` when the id, in any case, is registered or belongs to an app in the server;
    ///   `appNameTaken` (409) when the name looks like one of theirs.
    public func add(_ manifest: AppManifest, builtIn: [AppManifest]) async throws -> String {
        let manifest = try Self.checked(manifest)
        try await checkAvailable(manifest, builtIn: builtIn)
        let secret = RemoteApps.makeSecret()
        // Insert only: of two adds of one id at once, the second is refused, not an overwrite.
        guard try await store.addRegisteredApp(RegisteredApp(manifest: manifest, secretHash: RemoteApps.hash(secret: secret), addedAt: Date()))
        else { throw Self.taken(manifest.id) }
        return secret
    }

    /// Registers an app that is one WebAssembly module (docs/APPS-WASM.md), kept in the store so
    /// every node runs it. The module is checked as the server will run it (`limits`), its
    /// manifest (carried in the module) as any app's.
    /// - Returns: the app as registered (its `moduleHash` is what `parlor apps list` shows).
    /// - Throws: `invalidValue` for a module or manifest that breaks a rule (named in the
    ///   message); `idInUse`, `appNameTaken` as `add`.
    public func add(module: Data, limits: WasmLimits, builtIn: [AppManifest]) async throws -> RegisteredApp {
        let app = try Self.checked(module: module, limits: limits)
        try await checkAvailable(app.manifest, builtIn: builtIn)
        guard try await store.addRegisteredModule(app, module: module) else { throw Self.taken(app.manifest.id) }
        return app
    }

    /// Replaces the module of an app added with `add(module:…)`: running servers take the new
    /// one between calls; open instances keep their state.
    /// - Parameter id: the app the module must be, when the caller names one.
    /// - Throws: `fileNotFound` when no module app has the new module's id; `invalidValue` when
    ///   it is not `id`.
    public func upgrade(module: Data, limits: WasmLimits, builtIn: [AppManifest], id: AppID? = nil) async throws -> RegisteredApp {
        var app = try Self.checked(module: module, limits: limits)
        if let id, app.manifest.id != id {
            throw MessagesError(.invalidValue, "This module is the app \(app.manifest.id), not \(id): an upgrade keeps the app's id.")
        }
        guard let old = try await store.registeredApps().first(where: { $0.manifest.id == app.manifest.id && $0.moduleHash != nil }) else {
            throw Self.notRegistered(app.manifest.id)
        }
        try await checkAvailable(app.manifest, builtIn: builtIn, except: app.manifest.id)
        app.addedAt = old.addedAt
        guard try await store.replaceRegisteredModule(app, module: module) else { throw Self.notRegistered(app.manifest.id) }
        return app
    }

    /// A module and its manifest checked; the app as it would be registered.
    private static func checked(module: Data, limits: WasmLimits) throws(MessagesError) -> RegisteredApp {
        let wasm = try WasmAppModule(bytes: Array(module), limits: limits)
        // No one knows this credential: a module app does not dial in.
        let unknown = RemoteApps.hash(secret: RemoteApps.makeSecret())
        return RegisteredApp(manifest: try checked(wasm.manifest), secretHash: unknown, addedAt: Date(), moduleHash: Digest.sha256Hex(module))
    }

    /// Refuses a manifest people could take for an app already here: its id is compared whatever
    /// the letter case, its name by what it looks like (`NameKey`: `Tic Tac Toe`, `TIC-TAC-TOE` or
    /// one with a Cyrillic `Т` is the built-in Tic-Tac-Toe).
    /// - Parameter except: the app being upgraded, which may keep its own name.
    private func checkAvailable(_ manifest: AppManifest, builtIn: [AppManifest], except: AppID? = nil) async throws {
        let here = (builtIn + (try await store.registeredApps()).map(\.manifest)).filter { $0.id != except }
        if let same = here.first(where: { $0.id.rawValue.lowercased() == manifest.id.rawValue.lowercased() }) {
            guard same.id == manifest.id else {
                throw MessagesError(.idInUse, "The id \(manifest.id) differs only in letter case from \(same.id), already on this server; choose another id.")
            }
            throw Self.taken(manifest.id)
        }
        let key = NameKey.of(manifest.name)
        if let alike = here.first(where: { NameKey.of($0.name) == key }) {
            throw APIError(
                .conflict, code: .appNameTaken,
                "The name '\(manifest.name)' looks too much like '\(alike.name)' (\(alike.id)), already on this server; people could take one for the other. Choose another name.")
        }
    }

    private static func taken(_ id: AppID) -> MessagesError {
        MessagesError(.idInUse, "An app with the id \(id) is already on this server; remove it first or choose another id.")
    }

    /// Registers (or re-registers with a new credential) a seed app the server hosts outside
    /// itself (`parlor serve --out-of-process`); its manifest is trusted as it is.
    /// - Returns: the credential for `parlor apps run`.
    public func register(seed manifest: AppManifest) async throws -> String {
        let secret = RemoteApps.makeSecret()
        let added = try await store.registeredApps().first { $0.manifest.id == manifest.id }?.addedAt ?? Date()
        try await store.saveRegisteredApp(RegisteredApp(manifest: manifest, secretHash: RemoteApps.hash(secret: secret), addedAt: added))
        return secret
    }

    public func list() async throws -> [RegisteredApp] {
        try await store.registeredApps()
    }

    /// Forgets an app: a running server closes its connections and open surfaces within a second.
    /// - Throws: `fileNotFound` when no such app is registered.
    public func remove(_ id: AppID) async throws {
        guard try await store.deleteRegisteredApp(id) else { throw Self.notRegistered(id) }
    }

    /// Gives an app a new credential; the old one stops working (its connections end) at once.
    /// - Returns: the new credential, shown once.
    public func rotateSecret(of id: AppID) async throws -> String {
        if try await store.registeredApps().contains(where: { $0.manifest.id == id && $0.moduleHash != nil }) {
            throw MessagesError(.invalidValue, "\(id) is a WebAssembly module Parlor runs itself: it has no credential to replace.")
        }
        let secret = RemoteApps.makeSecret()
        // Update only: a rotation racing a removal never brings the app back.
        guard try await store.setRegisteredAppSecret(RemoteApps.hash(secret: secret), of: id) else { throw Self.notRegistered(id) }
        return secret
    }

    private static func notRegistered(_ id: AppID) -> MessagesError {
        MessagesError(.fileNotFound, "No app \(id.rawValue.prefix(maxIDLength)) is registered; `parlor apps list` shows which are.")
    }

    /// The manifest, its texts trimmed, when it keeps the rules for an app outside the server.
    /// - Throws: `invalidValue` naming the broken rule.
    public static func checked(_ manifest: AppManifest) throws(MessagesError) -> AppManifest {
        var manifest = manifest
        let id = manifest.id.rawValue
        let idCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        guard !id.isEmpty, id.count <= maxIDLength, id.unicodeScalars.allSatisfy(idCharacters.contains), id.contains("."),
              !id.hasPrefix("."), !id.hasSuffix(".")
        else {
            throw MessagesError(
                .invalidValue, "An app id is reverse-DNS (for example org.example.dice): letters, digits, dots, dashes, at most \(maxIDLength) characters.")
        }
        manifest.name = try NameRules.check(manifest.name, what: "The app's name", maxLength: maxNameLength)
        if let publisher = manifest.publisher {
            manifest.publisher = try NameRules.check(publisher, what: "The app's publisher", maxLength: maxNameLength)
        }
        if !manifest.summary.isEmpty {
            manifest.summary = try NameRules.check(manifest.summary, what: "The app's summary", maxLength: maxSummaryLength)
        }
        switch manifest.icon {
        case .asset, .upload:
            throw MessagesError(.invalidValue, "An app outside the server gives its icon as a URL: https, or a data:image URL.")
        case .url(let url):
            let scheme = url.scheme?.lowercased() ?? ""
            guard scheme == "https" || (scheme == "data" && url.absoluteString.lowercased().hasPrefix("data:image/")),
                  url.absoluteString.count <= Limits.maxURLLength
            else {
                throw MessagesError(.invalidValue, "The app's icon is an https or data:image URL of at most \(Limits.maxURLLength) characters.")
            }
        }
        guard manifest.allowedHosts.count <= 20, manifest.allowedHosts.allSatisfy({ !$0.isEmpty && $0.count <= 253 }) else {
            throw MessagesError(.invalidValue, "A manifest names at most 20 hosts.")
        }
        let heights = AppManifest.compactHeights
        if let height = manifest.compactHeight, !heights.contains(height) {
            throw MessagesError(
                .invalidValue,
                "compactHeight is the compact tray's height in points, from \(heights.lowerBound) to \(heights.upperBound); this manifest asks for \(height). Leave it out for the default.")
        }
        return manifest
    }
}
