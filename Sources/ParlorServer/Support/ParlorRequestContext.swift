import Hummingbird
import NIOCore
import ParlorStore

/// The request context of every route: Hummingbird's core storage, the WebSocket endpoint an
/// upgrade request's route chose, and the signed-in user once `SessionAuthenticator` found one.
public struct ParlorRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let socketUpgrade: SocketUpgradeSlot
    /// The signed-in user, if any.
    public var user: User?
    /// The hash of the token that signed the user in.
    public var tokenHash: String?
    /// The connection, for the WebSocket gateway to drop a client that stopped reading.
    let channel: any Channel

    public init(source: Source) {
        coreContext = .init(source: source)
        socketUpgrade = SocketUpgradeSlot()
        channel = source.channel
    }

    /// The client's address: the socket's peer, or, when that peer is one of `trustedProxies`,
    /// the rightmost `X-Forwarded-For` entry that is not itself a trusted proxy (a chain of
    /// proxies each appends the address it saw; anything left of the first untrusted one is the
    /// client's own say, and not believed). An entry that is not an IP address is not believed
    /// either: the peer is used.
    public func clientAddress(of request: Request, trustedProxies: [AddressRange]) -> String {
        let peer = channel.remoteAddress?.ipAddress ?? "unknown"
        let isTrusted = { (address: String) in trustedProxies.contains { $0.contains(address) } }
        guard isTrusted(peer), let forwarded = request.headers[.xForwardedFor] else { return peer }
        for entry in forwarded.split(separator: ",").reversed().map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard AddressRange(entry) != nil, !entry.contains("/") else { return peer }
            if !isTrusted(entry) { return entry }
        }
        return peer
    }

    /// The signed-in user.
    /// - Throws: `APIError.unauthorized` when nobody is signed in.
    public func requireUser() throws -> User {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
