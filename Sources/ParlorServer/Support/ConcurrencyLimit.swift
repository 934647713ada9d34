/// At most `perKey` things at once for one key (a person's image fetches) and `total` for all
/// keys together (the server's). Memory is bounded by what is under way.
actor ConcurrencyLimit {
    let perKey: Int
    let total: Int
    private var counts: [String: Int] = [:]
    private var running = 0

    enum Entry { case entered, keyFull, totalFull }

    init(perKey: Int, total: Int) {
        self.perKey = max(1, perKey)
        self.total = max(1, total)
    }

    /// Counts one more for `key`, unless that passes a limit; call `leave` after an `.entered`.
    func enter(_ key: String) -> Entry {
        guard running < total else { return .totalFull }
        guard counts[key, default: 0] < perKey else { return .keyFull }
        counts[key, default: 0] += 1
        running += 1
        return .entered
    }

    func leave(_ key: String) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
        running -= 1
    }
}
