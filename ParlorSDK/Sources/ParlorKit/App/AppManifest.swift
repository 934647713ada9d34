import Foundation

/// What a host needs to know about an app before running it.
public struct AppManifest: Sendable, Hashable, Codable {
    /// The app's unique id, in reverse-DNS form.
    public var id: AppID
    /// Shown in the drawer and on the bubble ("from <name>").
    public var name: String
    /// The app's icon: one of its assets, or a URL.
    public var icon: ImageSource
    /// One line for the store.
    public var summary: String
    /// Who made the app ("Acme Games"), shown in the store beside an app from outside the
    /// server so that people can tell it from an app of the same kind the server ships.
    public var publisher: String?
    /// The hosts `context.fetch` may reach (`www.reddit.com`, `*.example.org` for subdomains, or
    /// `*` for any host, for an app that reads addresses its users choose).
    public var allowedHosts: [String]
    /// Whether the app has a full-screen home surface besides its message extension.
    public var hasHomeSurface: Bool
    /// Whether the app keeps data for each person (`context.container`); without it the
    /// container refuses reads and writes.
    public var keepsData: Bool
    /// Whether the app's messages may have live layouts (drawn by the app for each viewer).
    public var drawsLiveMessages: Bool
    /// Whether the app's messages may expire once read (`shouldExpire`).
    public var sendsExpiringMessages: Bool
    /// Whether the app's messages may answer their session (`Message.answersSession`): drawn in
    /// the bubble of whoever started the session. An app that asks for it compares in `validate`
    /// every message with the one it would send itself (`Message.showsTheSame(as:)`), since a
    /// bubble in someone's name must show only what the app would have drawn there.
    public var answersSessions: Bool
    /// How tall the app's view wants its compact tray, in points (`compactHeights`: 120…480); nil
    /// for the host's default (about 340). Parlor's answer to `contentSizeThatFits`: one height
    /// per app, known before the app answers, so the tray opens at its size and does not jump.
    public var compactHeight: Int?

    /// The heights a compact tray may ask for, in points (`compactHeight`).
    public static let compactHeights = 120...480

    /// Creates a manifest; only the id, name and icon are required.
    /// - Parameters:
    ///   - id: the app's unique id.
    ///   - name: the name shown in the drawer and on the bubble.
    ///   - icon: the app's icon.
    ///   - summary: one line for the store.
    ///   - publisher: who made the app, shown in the store.
    ///   - allowedHosts: the hosts `context.fetch` may reach.
    ///   - hasHomeSurface: whether the app has a full-screen home surface.
    ///   - keepsData: whether the app keeps data for each person.
    ///   - drawsLiveMessages: whether the app's messages may have live layouts.
    ///   - sendsExpiringMessages: whether the app's messages may expire once read.
    ///   - answersSessions: whether the app's messages may answer their session, drawn in the
    ///     name of whoever started it.
    ///   - compactHeight: how tall the compact tray should be, in points (120…480), or nil.
    public init(
        id: AppID, name: String, icon: ImageSource, summary: String = "", publisher: String? = nil,
        allowedHosts: [String] = [], hasHomeSurface: Bool = false, keepsData: Bool = false,
        drawsLiveMessages: Bool = false, sendsExpiringMessages: Bool = false, answersSessions: Bool = false, compactHeight: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.summary = summary
        self.publisher = publisher
        self.allowedHosts = allowedHosts
        self.hasHomeSurface = hasHomeSurface
        self.keepsData = keepsData
        self.drawsLiveMessages = drawsLiveMessages
        self.sendsExpiringMessages = sendsExpiringMessages
        self.answersSessions = answersSessions
        self.compactHeight = compactHeight
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, icon, summary, publisher, allowedHosts, hasHomeSurface, keepsData, drawsLiveMessages, sendsExpiringMessages
        case answersSessions, compactHeight
    }

    /// Decodes a manifest; everything but `id`, `name` and `icon` may be left out (a manifest file
    /// of an app outside the server names only what it needs).
    /// - Parameter decoder: the decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(AppID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        icon = try container.decode(ImageSource.self, forKey: .icon)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        publisher = try container.decodeIfPresent(String.self, forKey: .publisher)
        allowedHosts = try container.decodeIfPresent([String].self, forKey: .allowedHosts) ?? []
        hasHomeSurface = try container.decodeIfPresent(Bool.self, forKey: .hasHomeSurface) ?? false
        keepsData = try container.decodeIfPresent(Bool.self, forKey: .keepsData) ?? false
        drawsLiveMessages = try container.decodeIfPresent(Bool.self, forKey: .drawsLiveMessages) ?? false
        sendsExpiringMessages = try container.decodeIfPresent(Bool.self, forKey: .sendsExpiringMessages) ?? false
        answersSessions = try container.decodeIfPresent(Bool.self, forKey: .answersSessions) ?? false
        compactHeight = try container.decodeIfPresent(Int.self, forKey: .compactHeight)
    }

    /// What the app may do, in plain words, as a store shows it before someone adds the app.
    public var permissions: [String] {
        var lines: [String] = []
        if allowedHosts.contains(Self.anyHost) {
            lines.append("Reach any website on the internet")
        } else if !allowedHosts.isEmpty {
            lines.append("Reach \(allowedHosts.joined(separator: ", ")) on the internet")
        }
        if keepsData { lines.append("Keep data for you, such as your notes or purchases") }
        if hasHomeSurface { lines.append("Have its own screen in the sidebar") }
        if drawsLiveMessages { lines.append("Draw its messages live, for each person who sees them") }
        if sendsExpiringMessages { lines.append("Send messages that disappear after they are read") }
        if answersSessions { lines.append("Show your likes and answers on the message someone shared, in their name") }
        return lines
    }

    /// The `allowedHosts` entry that allows every host.
    public static let anyHost = "*"

    /// Whether an entry of `allowedHosts` other than `*` allows `host`: the app names it (or its
    /// domain) rather than reaching it as any host. Hosts keep their own network for these.
    /// - Parameter host: a host name, such as `api.example.org`.
    public func names(host: String) -> Bool {
        var named = self
        named.allowedHosts.removeAll { $0 == Self.anyHost }
        return named.allows(host: host)
    }

    /// Whether `host` is one of `allowedHosts` (case-insensitive; `*.` matches subdomains, `*` any host).
    /// - Parameter host: a host name, such as `api.example.org`.
    public func allows(host: String) -> Bool {
        let host = host.lowercased()
        return allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern == Self.anyHost { return true }
            if pattern.hasPrefix("*.") {
                return host.hasSuffix(String(pattern.dropFirst(1)))
            }
            return host == pattern
        }
    }
}
