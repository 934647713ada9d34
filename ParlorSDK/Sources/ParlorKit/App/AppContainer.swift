import Foundation

/// Storage shared by an app's home surface and its message extension for one user, like an iOS
/// app group container. Supplied by the host.
public protocol AppContainer: Sendable {
    /// The data stored under `key`; nil when absent.
    /// - Parameter key: the name the data was stored under.
    func data(forKey key: String) async throws -> Data?
    /// Stores `data` under `key`; nil removes it.
    /// - Parameters:
    ///   - data: the data to store, or nil to remove it.
    ///   - key: the name to store it under.
    func setData(_ data: Data?, forKey key: String) async throws
}

extension AppContainer {
    /// The value stored under `key`, decoded from JSON; nil when absent.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - key: the name the value was stored under.
    /// - Throws: `MessagesError(.invalidValue)` when the stored data is not a `T`.
    public func value<T: Decodable>(_ type: T.Type, forKey key: String) async throws -> T? {
        guard let data = try await data(forKey: key) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw MessagesError(.invalidValue, "The stored '\(key)' could not be read as \(T.self).")
        }
    }

    /// Stores `value` under `key` as JSON.
    /// - Parameters:
    ///   - value: the value to store.
    ///   - key: the name to store it under.
    /// - Throws: `MessagesError(.invalidValue)` when the value cannot be encoded, and the container's
    ///   own errors.
    public func setValue<T: Encodable>(_ value: T, forKey key: String) async throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw MessagesError(.invalidValue, "'\(key)' could not be stored: \(error.localizedDescription)")
        }
        try await setData(data, forKey: key)
    }
}
