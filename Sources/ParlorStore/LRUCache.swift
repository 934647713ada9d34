/// A dictionary that holds at most `capacity` entries: past it, the least recently used tenth
/// goes (never everything at once). Reads and writes count as use. Not thread-safe: an actor
/// owns each one (or a `Mutex`).
public struct LRUCache<Key: Hashable, Value> {
    public let capacity: Int
    private var entries: [Key: (value: Value, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int) {
        precondition(capacity > 0, "an LRU cache holds at least one entry")
        self.capacity = capacity
    }

    public var count: Int { entries.count }
    public var keys: [Key] { entries.keys.map { $0 } }

    /// The value for `key`, marked as just used.
    public subscript(key: Key) -> Value? {
        mutating get {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key] = (entry.value, clock)
            return entry.value
        }
        set {
            guard let newValue else {
                entries[key] = nil
                return
            }
            set(newValue, for: key)
        }
    }

    /// Stores `value` for `key`; past the capacity, the least recently used go, except those
    /// `isPinned` keeps (which may leave the cache over its capacity while they are pinned).
    /// - Returns: the entries that went.
    @discardableResult
    public mutating func set(_ value: Value, for key: Key, isPinned: (Key) -> Bool = { _ in false }) -> [(key: Key, value: Value)] {
        clock += 1
        entries[key] = (value, clock)
        return entries.count > capacity ? evictLeastRecentlyUsed(isPinned: isPinned) : []
    }

    /// The value for `key` without marking it used.
    public func peek(_ key: Key) -> Value? { entries[key]?.value }

    public mutating func removeAll(where shouldRemove: (Key, Value) -> Bool) {
        entries = entries.filter { !shouldRemove($0.key, $0.value.value) }
    }

    private mutating func evictLeastRecentlyUsed(isPinned: (Key) -> Bool) -> [(key: Key, value: Value)] {
        let keep = max(1, capacity - max(1, capacity / 10))
        let newestFirst = entries.sorted { $0.value.used > $1.value.used }
        var gone: [(key: Key, value: Value)] = []
        for (offset, entry) in newestFirst.enumerated() where offset >= keep && !isPinned(entry.key) {
            entries[entry.key] = nil
            gone.append((entry.key, entry.value.value))
        }
        return gone
    }
}
