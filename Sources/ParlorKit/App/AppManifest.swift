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
