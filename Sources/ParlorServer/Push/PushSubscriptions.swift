import Foundation
import ParlorInput
import ParlorKit
import ParlorStore

/// The devices a person receives pushes on: subscribing (each browser's endpoint and keys
/// checked: a push service of a known browser over HTTPS, keys that are a P-256 point and a
/// 16-byte secret), listing them for Settings, removing one, and whether pushes show text.
final class PushSubscriptions: Sendable {
    let store: any PushStore
    let keys: PushKeys
    let allowedHosts: [String]
    let maxDevices: Int

    init(store: any PushStore, keys: PushKeys, configuration: ServerConfiguration) {
        self.store = store
        self.keys = keys
        allowedHosts = configuration.pushServiceHosts
        maxDevices = configuration.maxPushDevices
    }

    /// The longest endpoint kept (push services' are a few hundred characters).
    static let maxEndpointLength = 2_048
    static let maxDeviceLength = 60

    /// What Settings shows: the public key browsers subscribe with, the text setting, the devices.
    func settings(of user: UserID, thisSignIn tokenHash: String?) async throws -> Wire.PushSettings {
        let devices = try await store.pushSubscriptions(of: [user], now: Date())
        return Wire.PushSettings(
            publicKey: try await keys.vapid().publicKey, showsText: try await store.pushShowsText(user),
            devices: devices.reversed().map { Wire.PushDevice(id: $0.id, device: $0.device, createdAt: $0.createdAt, isThisDevice: $0.tokenHash == tokenHash) })
    }

    /// Keeps this browser's subscription for `user`, tied to the sign-in `tokenHash`.
    /// - Throws: `invalidValue` with what is wrong: an endpoint that is not HTTPS or not a known
    ///   push service's, keys of the wrong size or not on the curve.
    func subscribe(_ request: Wire.PushSubscriptionRequest, user: UserID, tokenHash: String) async throws {
        let endpoint = try checkedEndpoint(request.endpoint)
        guard let key = Base64URL.decode(request.keys.p256dh), let auth = Base64URL.decode(request.keys.auth) else {
            throw APIError.invalid("The subscription's keys are base64url: 'p256dh' and 'auth' as the browser gives them.")
        }
        do {
            _ = try WebPushEncryption.Recipient(publicKey: key, authSecret: auth)
        } catch WebPushEncryption.Refusal.authSecret {
            throw APIError.invalid("The subscription's 'auth' secret is 16 bytes.")
        } catch {
            throw APIError.invalid("The subscription's 'p256dh' key is a P-256 public key of 65 bytes.")
        }
        let device = String(
            (request.device ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init)
        ).trimmingCharacters(in: .whitespaces).prefix(Self.maxDeviceLength)
        try await store.addPushSubscription(
            PushSubscriptionRecord(
                id: UUID().uuidString.lowercased(), user: user, tokenHash: tokenHash, endpoint: endpoint.absoluteString,
                publicKey: Base64URL.encode(key), authSecret: Base64URL.encode(auth), device: device.isEmpty ? "A browser" : String(device),
                createdAt: Date()),
            keepingAtMost: maxDevices)
    }

    /// Removes one of `user`'s devices.
    /// - Throws: `notFound` when they have none with that id.
    func remove(_ id: String, user: UserID) async throws {
        guard id.count <= 64, try await store.removePushSubscription(id: id, user: user) else { throw APIError.notFound }
    }

    func setShowsText(_ showsText: Bool, user: UserID) async throws {
        try await store.setPushShowsText(showsText, user: user)
    }

    /// The endpoint, if Parlor may send to it: HTTPS to a listed push service (a loopback host
    /// the operator listed may be plain HTTP: tests).
    private func checkedEndpoint(_ text: String) throws -> URL {
        guard text.count <= Self.maxEndpointLength, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host?.lowercased(), url.user == nil, url.password == nil
        else { throw APIError.invalid("The subscription's 'endpoint' is the push service's URL, as the browser gives it.") }
        let listed = allowedHosts.contains { host == $0 || host.hasSuffix(".\($0)") }
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        guard listed else {
            throw APIError.invalid("Parlor sends notifications only through the push services of Chrome, Edge, Firefox and Safari; \(host.prefix(80)) is not one.")
        }
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw APIError.invalid("A push service is reached over HTTPS; this endpoint is not.")
        }
        return url
    }
}

extension Wire {
    /// `POST /api/me/push`: a browser's `PushSubscription` as `toJSON()` gives it, and a name for
    /// the device.
    public struct PushSubscriptionRequest: Decodable, Sendable {
        public struct Keys: Decodable, Sendable {
            public var p256dh: String
            public var auth: String
        }

        public var endpoint: String
        public var keys: Keys
        public var device: String?
    }

    /// One device receiving pushes, as Settings lists it.
    public struct PushDevice: Codable, Sendable, Hashable {
        public var id: String
        public var device: String
        public var createdAt: Date
        /// Whether it is the browser asking.
        public var isThisDevice: Bool
    }

    /// `GET /api/me/push`: what the browser subscribes with, and what the person has.
    public struct PushSettings: Codable, Sendable {
        /// The server's VAPID public key (base64url), the `applicationServerKey`.
        public var publicKey: String
        /// Whether pushes show message text (else "New message").
        public var showsText: Bool
        /// The newest first.
        public var devices: [PushDevice]
    }

    /// `PATCH /api/me/push`.
    public struct PushSettingsChange: Decodable, Sendable {
        public var showsText: Bool
    }
}
