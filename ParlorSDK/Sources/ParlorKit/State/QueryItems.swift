import Foundation

/// One `name=value` pair of a URL query.
public struct QueryItem: Sendable, Hashable, Codable {
    /// The item's name.
    public var name: String
    /// The item's value; empty for `name=` or a bare `name`.
    public var value: String
    /// Creates an item.
    /// - Parameters:
    ///   - name: the item's name.
    ///   - value: the item's value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of query items: how most apps carry their state in a message URL.
///
/// Every character outside RFC 3986's unreserved set is percent-encoded, so names and values
/// round-trip exactly, `&`, `=`, `%`, `+`, spaces and emoji included. Parsing never crashes:
/// malformed input throws `MessagesError(.malformedURLState)`.
///
/// ```swift
/// let url = try QueryItems(["title": "Party at 8", "yesCount": "3"]).url(base: "https://example.org/rsvp")
/// let items = try QueryItems(url: url)
/// let yes = try items.int("yesCount")
/// ```
public struct QueryItems: Sendable, Hashable, Codable, ExpressibleByDictionaryLiteral, Sequence {
    /// The items, in order; names may repeat.
    public var items: [QueryItem]

    /// Wraps items, in their order.
    /// - Parameter items: the items; none by default.
    public init(_ items: [QueryItem] = []) { self.items = items }

    /// Items in the dictionary literal's order.
    /// - Parameter elements: the name-value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.items = elements.map { QueryItem($0.0, $0.1) }
    }

    /// Items in the given pairs' order.
    /// - Parameter pairs: the name-value pairs.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.items = pairs.map { QueryItem($0.key, $0.value) }
    }

    /// Iterates over the items in order.
    public func makeIterator() -> IndexingIterator<[QueryItem]> { items.makeIterator() }

    /// The first value named `name`, or nil. Setting replaces every item of that name
    /// (appending when there was none); setting nil removes them.
    /// - Parameter name: the items' name.
    public subscript(name: String) -> String? {
        get { items.first { $0.name == name }?.value }
        set {
            var result: [QueryItem] = []
            var placed = false
            for item in items {
                guard item.name == name else {
                    result.append(item)
                    continue
                }
                if !placed, let newValue { result.append(QueryItem(name, newValue)) }
                placed = true
            }
            if !placed, let newValue { result.append(QueryItem(name, newValue)) }
            items = result
        }
    }

    /// Every value named `name`, in order.
    /// - Parameter name: the items' name.
    public func values(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    /// Adds an item at the end, keeping any others of the same name.
    /// - Parameters:
    ///   - name: the item's name.
    ///   - value: the item's value.
    public mutating func append(_ name: String, _ value: String) { items.append(QueryItem(name, value)) }

    /// The value named `name`.
    /// - Parameter name: the item's name.
    /// - Throws: `.malformedURLState` when it is missing.
    public func require(_ name: String) throws(MessagesError) -> String {
        guard let value = self[name] else {
            throw MessagesError(.malformedURLState, "The message is missing its '\(name)' value.")
        }
        return value
    }

    /// The value named `name` as an integer.
    /// - Parameter name: the item's name.
    /// - Throws: `.malformedURLState` when it is missing or not a whole number.
    public func int(_ name: String) throws(MessagesError) -> Int {
        let text = try require(name)
        guard let value = Int(text) else {
            throw MessagesError(.malformedURLState, "The message's '\(name)' should be a whole number, not '\(text.prefix(40))'.")
        }
        return value
    }

    /// The percent-encoded query string, without the leading `?`.
    public var percentEncodedQuery: String {
        items.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
    }

    /// A URL made of `base` (whose own query is replaced) and these items.
    /// - Parameter base: an absolute URL, such as `https://example.org/rsvp`.
    /// - Throws: `.improperFileURL` for a bad base, `.urlExceedsMaxSize` when the result is too long.
    public func url(base: String) throws(MessagesError) -> URL {
        // The base's own query is replaced; its fragment stays after the new query.
        let fragment = base.firstIndex(of: "#").map { String(base[$0...]) } ?? ""
        let withoutFragment = base.prefix { $0 != "#" }
        let trimmed = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let text = (items.isEmpty ? trimmed : trimmed + "?" + percentEncodedQuery) + fragment
        guard let url = URL(string: text), url.scheme != nil else {
            throw MessagesError(.improperFileURL, "'\(base.prefix(80))' is not an absolute URL.")
        }
        try Message.validateURL(url)
        return url
    }

    /// Parses the query of `url`. `+` is kept as a literal plus, as `URLComponents` writes it.
    /// - Parameter url: the URL whose query to read; a URL without one gives no items.
    /// - Throws: `.malformedURLState` on invalid percent-encoding.
    public init(url: URL) throws(MessagesError) {
        try self.init(query: QueryItems.rawQuery(of: url.absoluteString))
    }

    /// Parses a percent-encoded query string (without `?`).
    /// - Parameter query: the query, such as `title=Party&yes=3`.
    /// - Throws: `.malformedURLState` on invalid percent-encoding.
    public init(query: String) throws(MessagesError) {
        var items: [QueryItem] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = QueryItems.decode(pair[0]), let value = QueryItems.decode(pair.count > 1 ? pair[1] : "") else {
                throw MessagesError(.malformedURLState, "The message URL has invalid percent-encoding near '\(part.prefix(40))'.")
            }
            items.append(QueryItem(name, value))
        }
        self.items = items
    }

    /// The query of a URL string: after the first `?` and before the fragment (a `?` inside the
    /// fragment does not start a query).
    static func rawQuery(of urlString: String) -> String {
        let beforeFragment = urlString.prefix { $0 != "#" }
        guard let start = beforeFragment.firstIndex(of: "?") else { return "" }
        return String(beforeFragment[beforeFragment.index(after: start)...])
    }

    /// Decodes percent escapes into UTF-8; nil for a bad escape or bytes that are not UTF-8.
    /// Unlike `removingPercentEncoding`, keeps a leading U+FEFF (which UTF-8 decoders drop as a BOM).
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
