import Foundation

/// What a host needs to know about an app before running it.
public struct AppManifest: Sendable, Hashable, Codable {
    public var id: AppID
    /// Shown in the drawer and on the bubble ("from <name>").
    public var name: String
    public var icon: ImageSource
    /// One line for the store.
    public var summary: String
    /// The hosts `context.fetch` may reach (`www.reddit.com`, or `*.example.org` for subdomains).
    public var allowedHosts: [String]
    /// Whether the app has a full-screen home surface besides its message extension.
    public var hasHomeSurface: Bool

    public init(
        id: AppID, name: String, icon: ImageSource, summary: String = "",
        allowedHosts: [String] = [], hasHomeSurface: Bool = false
    ) {
        self.id = id
        self.name = name
        self.icon = icon
        self.summary = summary
        self.allowedHosts = allowedHosts
        self.hasHomeSurface = hasHomeSurface
    }

    /// Whether `host` is one of `allowedHosts` (case-insensitive; `*.` matches subdomains).
    private enum CodingKeys: String, CodingKey { case id, name, icon, summary, allowedHosts, hasHomeSurface }

    /// Decodes a manifest; `summary`, `allowedHosts` and `hasHomeSurface` may be left out (a
    /// manifest file of an app outside the server names only what it needs).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(AppID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        icon = try container.decode(ImageSource.self, forKey: .icon)
        summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
        allowedHosts = try container.decodeIfPresent([String].self, forKey: .allowedHosts) ?? []
        hasHomeSurface = try container.decodeIfPresent(Bool.self, forKey: .hasHomeSurface) ?? false
    }

    public func allows(host: String) -> Bool {
        let host = host.lowercased()
        return allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix("*.") {
                return host.hasSuffix(String(pattern.dropFirst(1)))
            }
            return host == pattern
        }
    }
}
