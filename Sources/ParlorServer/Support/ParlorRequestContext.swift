import Hummingbird
import HummingbirdWebSocket
import NIOCore
import ParlorStore

/// The request context of every route: Hummingbird's core storage, the WebSocket handler slot,
/// and the signed-in user once `SessionAuthenticator` found one.
public struct ParlorRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The signed-in user, if any.
    public var user: User?
    /// The hash of the token that signed the user in.
    public var tokenHash: String?
    /// The connection, for the WebSocket gateway to drop a client that stopped reading.
    let channel: any Channel

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    /// The client's address: the socket's peer, or, when that peer is one of `trustedProxies`,
    /// the address the proxy appended last to `X-Forwarded-For` (anything before it is the
    /// client's own say, and not believed).
    public func clientAddress(of request: Request, trustedProxies: [AddressRange]) -> String {
        let peer = channel.remoteAddress?.ipAddress ?? "unknown"
        guard trustedProxies.contains(where: { $0.contains(peer) }), let forwarded = request.headers[.xForwardedFor] else { return peer }
        let last = forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return last.isEmpty ? peer : last
    }

    /// The signed-in user.
    /// - Throws: `APIError.unauthorized` when nobody is signed in.
    public func requireUser() throws -> User {
        guard let user else { throw APIError.unauthorized }
        return user
    }
}
