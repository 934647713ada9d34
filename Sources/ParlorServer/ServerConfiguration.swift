import Foundation
import ParlorWasmHost
import ParlorHost
import ParlorImages

/// How a Parlor server runs.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; 127.0.0.1 by default.
    public var host: String
    /// The port; 0 picks a free one (tests).
    public var port: Int
    /// The largest client WebSocket message accepted; larger ones get an error frame.
    public var maxClientMessageBytes: Int
    /// Messages waiting for one slow connection before it is disconnected (it resumes later).
    public var sendQueueLimit: Int
    /// How long a sign-in lasts.
    public var sessionLifetime: Duration
    /// The bcrypt cost for passwords (tests lower it).
    public var passwordCost: UInt8
    /// How often the server looks for sockets whose sign-in ended without it hearing (expired,
    /// or the account removed from another process) and closes them; sign-out, a password change
    /// and "sign out everywhere" close theirs at once.
    public var sessionSweepInterval: Duration = .seconds(15)
    /// How long a read expiring message stays.
    public var expiryDelay: Duration
    /// How often expired reads are swept.
    public var expirySweepInterval: Duration
    /// The largest upload (an app's image, a photo or a file sent to a conversation).
    public var maxBlobBytes: Int
    /// The most pixels an image may have (a photo, a picture, an image through the proxy), read
    /// from its headers before anything decodes it: a small file cannot unpack into gigabytes.
    public var imageBudget = PixelBudget()
    /// Set the cookie's Secure flag (behind HTTPS); an https `publicURL` sets it too.
    public var secureCookies: Bool
    /// Reverse proxies (addresses or CIDR networks) whose `X-Forwarded-For` names the client, for
    /// sign-in throttling, limits and logs.
    public var trustedProxies: [AddressRange]
    /// The address people open (`https://chat.example.org`), when it is not the one the server
    /// listens on: behind a reverse proxy. Its origin is accepted as the pages' own, it is the link
    /// the server prints, and https makes cookies `Secure`.
    public var publicURL: URL?
    /// How long the image proxy may take for one remote image, from connecting to its last byte.
    public var imageProxyTimeout: Duration = .seconds(10)
    /// How many remote images the image proxy fetches at once for one person; more wait for a
    /// place up to `imageProxyWait`, then are refused (`tooManyImages`).
    public var imageProxyFetchesPerPerson = 8
    /// How many remote images the image proxy fetches at once for everyone (each holds a socket
    /// for up to `imageProxyTimeout`); more wait up to `imageProxyWait`, then are refused
    /// (`imageProxyBusy`).
    public var imageProxyFetchesAtOnce = 64
    /// How long a remote image waits for a place among the fetches under way.
    public var imageProxyWait: Duration = .seconds(10)
    /// A sentence the sign-in page shows everyone (the demo's accounts, or how to get one); at most
    /// `NameRules`' plain text, `maxSignInNoticeLength` characters.
    public var signInNotice: String?
    public static let maxSignInNoticeLength = 300
    /// A loopback port serving `/metrics` without a token (nil: only the public listener's
    /// `/metrics`, with the admin token).
    public var metricsPort: Int?
    /// The most WebSocket connections one account may have open; the next one is closed with 1008.
    public var maxConnectionsPerUser: Int
    /// The bytes one account's uploads may take together.
    public var uploadQuotaBytes: Int64
    /// How long an upload no message uses is kept.
    public var unusedUploadLifetime: Duration
    /// The most members a group may have.
    public var maxGroupMembers: Int
    /// How many conversations others may add one person to per minute (new groups and additions);
    /// 0 for no limit (benchmarks).
    public var additionsPerMinute: Int
    /// How many accounts one client address may create per hour; 0 for no limit (benchmarks).
    public var signUpsPerHour: Int
    /// How many sign-ins and sign-ups together one client address may try per minute (each costs a
    /// password hash); 0 for no limit (benchmarks).
    public var passwordAttemptsPerMinute: Int
    /// How long one address waits for an account after five wrong passwords; each further failure
    /// doubles it, up to 15 minutes.
    public var signInLockout: Duration = .seconds(30)
    /// How often the server pings each WebSocket; a client that has not answered by the next
    /// ping is closed with 1001 (docs/PROTOCOL.md §7).
    public var webSocketPingInterval: Duration = .seconds(30)
    /// Let the image proxy, and apps reaching hosts through `allowedHosts: ["*"]`, connect to
    /// private addresses (tests; a server on a local network). Hosts a manifest names are reached
    /// wherever they are.
    public var allowsPrivateHosts: Bool
    /// How many remote images one person may have the image proxy fetch per minute (cached ones
    /// do not count); 0 for no limit.
    public var imageProxyFetchesPerMinute: Int
    /// How long the server waits for an app outside it to answer one call (tests shorten it).
    public var appCallDeadline: Duration
    /// What an app that is one WebAssembly module may use: its size and memory (checked when it
    /// is added) and the fuel of one call (docs/APPS-WASM.md).
    public var wasmLimits = WasmLimits()
    /// How long after sending its sender may edit a text message.
    public var editWindow: Duration = .seconds(15 * 60)
    /// How many times a message may be edited.
    public var maxEdits = 5
    /// How long after sending its sender may unsend a message.
    public var unsendWindow: Duration = .seconds(2 * 60)
    /// The most different emoji one message's reactions may have.
    public var maxReactionKinds = 20
    /// How many messages one person may send per minute on average (texts, photos, stickers, app
    /// messages; over HTTP and the WebSocket alike), after a burst of `messageBurst`; more are
    /// refused with `sendingTooFast` (429) and when to try again. 0 for no limit (load tests).
    public var messagesPerMinute = 120
    /// How many messages one person may send at once before `messagesPerMinute` holds them back.
    public var messageBurst = 30
    /// How many of one person's mentions of another alert that person per minute (an unread
    /// mention, a notification through a mute); further mentions are delivered as plain mentions
    /// that alert no one. 0 for no limit.
    public var mentionAlertsPerMinute = 5
    /// How many reactions one person may put on or take off per minute; 0 for no limit.
    public var reactionsPerMinute = 60
    /// How many stickers one person may place on messages per minute, so that nobody buries a
    /// message under stickers; 0 for no limit.
    public var stickerPlacementsPerMinute = 30
    /// How many searches one person may make per minute; 0 for no limit.
    public var searchesPerMinute = 60
    /// How many pages one person may have fetched for link previews per minute (pages read lately
    /// do not count); 0 for no limit.
    public var linkPreviewsPerMinute = 30
    /// How long the server waits for one page of a link preview, connecting included.
    public var linkPreviewTimeout: Duration = .seconds(5)
    /// A typing notice is relayed at most once per this long for one person in one conversation;
    /// clients send one about as often while someone types, and stop showing the dots after two
    /// such intervals without one.
    public var typingInterval: Duration = .seconds(3)
    /// The push services whose endpoints browsers may subscribe with (a host, or a domain whose
    /// subdomains count too): the server sends pushes to no other host, so a subscription cannot
    /// make it request an address of the operator's network. Those of Chrome, Edge, Firefox and
    /// Safari by default. A loopback host listed here may be reached over plain HTTP (tests).
    public var pushServiceHosts = [
        "fcm.googleapis.com", "android.googleapis.com", "updates.push.services.mozilla.com", "push.services.mozilla.com",
        "web.push.apple.com", "notify.windows.com",
    ]
    /// Who runs the server, as push services are told in each push (RFC 8292 `sub`: a `mailto:` or
    /// `https:` address); nil for the public URL's origin when it is https (`pushSubject`).
    public var pushContact: String?
    /// What pushes give as their `sub`: `pushContact`, else the https public origin, else
    /// `mailto:postmaster@localhost` (which Apple's push service refuses: a server people use has
    /// a public URL or a contact).
    public var pushSubject: String {
        if let pushContact { return pushContact }
        if let origin = publicOrigin, origin.hasPrefix("https://") { return origin }
        return Self.localPushSubject
    }
    static let localPushSubject = "mailto:postmaster@localhost"
    /// How long one push request may take, connecting included, before it is given up (and
    /// retried).
    public var pushDeadline: Duration = .seconds(10)
    /// The most devices one account receives pushes on: a new one replaces the oldest.
    public var maxPushDevices = 10
    /// The SDK's documentation as a static site (`scripts/docs` builds it), served at `/docs/`;
    /// nil: `/docs/` says how to build it.
    public var docsDirectory: URL?
    /// SHA-256 (lowercase hex) of the operator's admin token for `/api/admin/*`; nil turns that
    /// API off (`adminToken(_:)` sets it from the token).
    public var adminTokenHash: String?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxClientMessageBytes: Int = 64 * 1024, sendQueueLimit: Int = 1024,
        sessionLifetime: Duration = .seconds(30 * 24 * 3600), passwordCost: UInt8 = 11, expiryDelay: Duration = .seconds(120),
        expirySweepInterval: Duration = .seconds(5), maxBlobBytes: Int = 10 * 1024 * 1024, secureCookies: Bool = false,
        trustedProxies: [AddressRange] = [], maxConnectionsPerUser: Int = 32, uploadQuotaBytes: Int64 = 50 * 1024 * 1024,
        unusedUploadLifetime: Duration = .seconds(24 * 3600), maxGroupMembers: Int = 500, additionsPerMinute: Int = 20,
        signUpsPerHour: Int = 10, passwordAttemptsPerMinute: Int = 30, allowsPrivateHosts: Bool = false,
        imageProxyFetchesPerMinute: Int = 120, appCallDeadline: Duration = AppWire.callDeadline
    ) {
        self.host = host
        self.port = port
        self.maxClientMessageBytes = maxClientMessageBytes
        self.sendQueueLimit = sendQueueLimit
        self.sessionLifetime = sessionLifetime
        self.passwordCost = passwordCost
        self.expiryDelay = expiryDelay
        self.expirySweepInterval = expirySweepInterval
        self.maxBlobBytes = maxBlobBytes
        self.secureCookies = secureCookies
        self.trustedProxies = trustedProxies
        self.maxConnectionsPerUser = maxConnectionsPerUser
        self.uploadQuotaBytes = uploadQuotaBytes
        self.unusedUploadLifetime = unusedUploadLifetime
        self.maxGroupMembers = maxGroupMembers
        self.additionsPerMinute = additionsPerMinute
        self.signUpsPerHour = signUpsPerHour
        self.passwordAttemptsPerMinute = passwordAttemptsPerMinute
        self.allowsPrivateHosts = allowsPrivateHosts
        self.imageProxyFetchesPerMinute = imageProxyFetchesPerMinute
        self.appCallDeadline = appCallDeadline
        self.adminTokenHash = nil
    }

    /// Whether the session cookie gets `Secure`.
    public var cookiesAreSecure: Bool { secureCookies || publicURL?.scheme?.lowercased() == "https" }

    /// `scheme://host[:port]` of `publicURL`, as browsers send it in `Origin`.
    public var publicOrigin: String? {
        guard let url = publicURL, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let isDefaultPort = (scheme, url.port) == ("https", 443) || (scheme, url.port) == ("http", 80)
        let port = url.port.flatMap { isDefaultPort ? nil : ":\($0)" } ?? ""
        return "\(scheme)://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + port
    }

    /// Turns the admin API on with `token` (kept only as its hash); nil or empty turns it off.
    public mutating func adminToken(_ token: String?) {
        adminTokenHash = token.flatMap { $0.isEmpty ? nil : Digest.sha256Hex($0) }
    }
}
