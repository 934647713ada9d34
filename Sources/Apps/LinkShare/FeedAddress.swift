import Foundation

/// What a person types in the Feed field, made a feed address: a subreddit name (`swift`,
/// `r/swift`), a Reddit page (`https://www.reddit.com/r/swift/`), or the http(s) address of an RSS,
/// Atom or Reddit JSON feed. Pure: no I/O.
///
/// ```swift
/// try FeedAddress.resolve("r/swift", defaultFeed: LinkShare.defaultFeedURL)  // https://www.reddit.com/r/swift.json
/// ```
enum FeedAddress {
    /// The most characters the Feed field takes.
    static let maxInputLength = 2_000

    /// A typed feed that LinkShare cannot read, with a sentence saying what to type instead.
    struct Refusal: Error, Hashable {
        let message: String
    }

    /// The feed `text` names. Subreddit names resolve against the default feed's server when that
    /// is a Reddit-style listing (`…/r/<name>.json`), else against www.reddit.com.
    ///
    /// A chosen feed may not be on a local or private address (`localhost`, `10.0.0.1`, a name
    /// without a dot), so a person cannot make the server fetch from its own network; the
    /// default feed's host, which the operator chose, is the exception.
    /// - Throws: `Refusal` for text that is not a subreddit name or a web address, or a local address.
    static func resolve(_ text: String, defaultFeed: URL) throws(Refusal) -> URL {
        var typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !typed.isEmpty else { throw Refusal(message: "Type a subreddit name such as swift, or a feed's address.") }
        guard typed.count <= maxInputLength else { throw Refusal(message: "That address is too long to be a feed's.") }
        if let subreddit = subredditName(typed) {
            return subredditBase(for: defaultFeed).appendingPathComponent("r").appendingPathComponent("\(subreddit).json")
        }
        if !typed.contains("://"), typed.contains(".") { typed = "https://" + typed }
        let scheme = typed.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw Refusal(message: "“\(text.clipped(to: 40))” isn't a subreddit name (letters, digits and _) or a web address starting with https://.")
        }
        guard let url = Post.webURL(typed), let host = url.host else {
            throw Refusal(message: "“\(text.clipped(to: 40))” isn't a web address LinkShare can read.")
        }
        guard !isLocal(host) || host.lowercased() == defaultFeed.host?.lowercased() else {
            throw Refusal(message: "LinkShare doesn't read feeds from local or private addresses such as \(host.clipped(to: 60)). Choose a public feed.")
        }
        return redditPageFeed(url) ?? url
    }

    /// The short name the view gives a feed: "r/swift", else its host and path.
    static func name(of url: URL) -> String {
        let parts = url.path.split(separator: "/").map(String.init)
        if let index = parts.firstIndex(of: "r"), index + 1 < parts.count {
            let name = parts[index + 1]
            return "r/" + (name.hasSuffix(".json") ? String(name.dropLast(5)) : name)
        }
        let host = url.host ?? url.absoluteString
        let path = url.path == "/" ? "" : url.path
        return (host + path).clipped(to: 60)
    }

    // MARK: Helpers

    /// The subreddit `text` names (`swift`, `r/swift`, `/r/swift/`), if it is one.
    private static func subredditName(_ text: String) -> String? {
        var name = Substring(text)
        if name.hasPrefix("/") { name = name.dropFirst() }
        if name.lowercased().hasPrefix("r/") { name = name.dropFirst(2) }
        if name.hasSuffix("/") { name = name.dropLast() }
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return allowed && (2...21).contains(name.count) ? String(name) : nil
    }

    /// Where subreddits are read: the default feed's server when it serves `/r/<name>.json`.
    private static func subredditBase(for defaultFeed: URL) -> URL {
        let fallback = URL(string: "https://www.reddit.com")!  // a literal: always parses
        guard name(of: defaultFeed).hasPrefix("r/"), let host = defaultFeed.host else { return fallback }
        var components = URLComponents()
        components.scheme = defaultFeed.scheme
        components.host = host
        components.port = defaultFeed.port
        return components.url ?? fallback
    }

    /// A Reddit page (`https://www.reddit.com/r/swift/`) made its listing (`…/r/swift.json`).
    private static func redditPageFeed(_ url: URL) -> URL? {
        guard let host = url.host?.lowercased(), host == "reddit.com" || host.hasSuffix(".reddit.com") else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "r", let name = subredditName(String(parts[1])) else { return nil }
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = host
        components.path = "/r/\(name).json"
        return components.url
    }

    /// Whether `host` names this machine or a private network: `localhost`, `*.local`, a name
    /// without a dot, an IPv6 literal, or an IPv4 address in a private, loopback, link-local or
    /// shared range (or written in a form other than four decimal numbers, like `2130706433`).
    static func isLocal(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if host.contains(":") || !host.contains(".") { return true }
        let localSuffixes = [".localhost", ".local", ".internal", ".lan", ".home.arpa"]
        if localSuffixes.contains(where: host.hasSuffix) { return true }
        guard let last = host.split(separator: ".").last, last.allSatisfy({ $0.isNumber || $0 == "x" }) else { return false }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { part -> Int? in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                  part == "0" || !part.hasPrefix("0") else { return nil }
            return Int(part).flatMap { $0 <= 255 ? $0 : nil }
        }
        guard octets.count == 4, case let values = octets.compactMap({ $0 }), values.count == 4 else { return true }
        switch (values[0], values[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168), (224...255, _): return true
        case (100, 64...127), (172, 16...31), (198, 18...19): return true
        case (192, 0) where values[2] == 0: return true
        default: return false
        }
    }
}
