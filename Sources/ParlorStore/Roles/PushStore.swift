import Foundation
import ParlorKit

/// Web Push subscriptions: each browser that asked for notifications with the tab closed, kept
/// per device and per sign-in (a subscription goes when the sign-in that made it ends: signing
/// out, everywhere, a password change or an expired session leaves no device receiving pushes),
/// and whether each person lets a push show their messages' text.
public protocol PushStore: Sendable {
    /// Keeps `subscription` (one per endpoint: a browser subscribing again, for this or another
    /// account, replaces its earlier one), and drops the person's oldest beyond `keepingAtMost`.
    func addPushSubscription(_ subscription: PushSubscriptionRecord, keepingAtMost: Int) async throws
    /// The subscriptions of `users` whose sign-in is still valid at `now`.
    func pushSubscriptions(of users: [UserID], now: Date) async throws -> [PushSubscriptionRecord]
    /// Removes one of `user`'s subscriptions; false when they have none with that id.
    func removePushSubscription(id: String, user: UserID) async throws -> Bool
    /// Removes the subscription at `endpoint` (its push service said it is gone).
    func removePushSubscription(endpoint: String) async throws
    /// Whether a push shows `user`'s messages' text (else only who wrote, and where).
    func pushShowsText(_ user: UserID) async throws -> Bool
    func setPushShowsText(_ showsText: Bool, user: UserID) async throws
}

/// One browser's push subscription (RFC 8030): where its push service takes messages for it, and
/// the keys it gave to encrypt them (RFC 8291).
public struct PushSubscriptionRecord: Sendable, Hashable {
    public var id: String
    public var user: UserID
    /// The sign-in (its token's SHA-256) that subscribed: the subscription ends with it.
    public var tokenHash: String
    public var endpoint: String
    /// The browser's P-256 public key (65 bytes) and authentication secret (16 bytes), base64url.
    public var publicKey: String
    public var authSecret: String
    /// What the person sees in Settings to tell their devices apart ("Chrome on Android").
    public var device: String
    public var createdAt: Date
    /// Whether pushes show message text (the person's setting, read with the subscription).
    public var showsText: Bool

    public init(
        id: String, user: UserID, tokenHash: String, endpoint: String, publicKey: String, authSecret: String, device: String,
        createdAt: Date, showsText: Bool = true
    ) {
        self.id = id
        self.user = user
        self.tokenHash = tokenHash
        self.endpoint = endpoint
        self.publicKey = publicKey
        self.authSecret = authSecret
        self.device = device
        self.createdAt = createdAt
        self.showsText = showsText
    }
}
