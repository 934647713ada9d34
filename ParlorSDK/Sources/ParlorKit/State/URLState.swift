import Foundation

/// Carries a `Codable` value in a message URL, as compact JSON in base64url under one query item.
///
/// ```swift
/// struct Game: Codable { var board: [String] }
/// let url = try URLState.url(for: game, base: "https://example.org/game")
/// let decoded = try URLState.value(Game.self, from: url)
/// ```
public enum URLState {
    /// The query item that holds the encoded value.
    public static let itemName = "state"

    /// Encodes `value` into `base`'s query, keeping `extraItems` beside it.
    /// - Parameters:
    ///   - value: the value to carry.
    ///   - base: an absolute URL, such as `https://example.org/game`.
    ///   - extraItems: other query items to keep beside the value.
    /// - Throws: `.invalidValue` when the value cannot be encoded, `.urlExceedsMaxSize` when too long.
    public static func url<T: Encodable>(for value: T, base: String, extraItems: QueryItems = [:]) throws(MessagesError) -> URL {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(value)
        } catch {
            throw MessagesError(.invalidValue, "The state could not be encoded: \(error.localizedDescription)")
        }
        var items = extraItems
        items[itemName] = base64URL(data)
        return try items.url(base: base)
    }

    /// Decodes the value carried by `url`.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - url: a message URL made by `url(for:base:extraItems:)`.
    /// - Throws: `.malformedURLState` when the item is missing, not base64url, or not the expected JSON.
    public static func value<T: Decodable>(_ type: T.Type, from url: URL) throws(MessagesError) -> T {
        let encoded = try QueryItems(url: url).require(itemName)
        guard let data = data(base64URL: encoded) else {
            throw MessagesError(.malformedURLState, "The message's state is not valid base64url.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw MessagesError(.malformedURLState, "The message's state does not match what the app expects.")
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
