import Foundation

/// What a username looks like, for uniqueness: two usernames with the same key could be taken for
/// each other, so a store refuses the second (`alice`, `Alice`, `AIice` with a capital i, `a1ice`,
/// `alice_`, `a.lice` and `alice-` all share one key).
///
/// Usernames are ASCII letters, digits, `.`, `-` and `_` (`Accounts`), so Unicode's confusables
/// reduce to these: case; capital I, small L and the digit 1; the letter o and the digit 0; the
/// separators, which do not count; `rn` and `m`; `vv` and `w`.
public enum UsernameKey {
    public static func of(_ username: String) -> String {
        var key = String(username.replacingOccurrences(of: "I", with: "l").lowercased().compactMap { character -> Character? in
            switch character {
            case "0": "o"
            case "1": "l"
            case "_", "-", ".": nil  // separators are easy to miss: `alice_`, `a.lice` and `alice` look alike
            default: character
            }
        })
        for (from, to) in [("rn", "m"), ("vv", "w")] { key = key.replacingOccurrences(of: from, with: to) }
        return key
    }
}

extension UsernameKey {
    /// Keys for accounts made before keys existed, oldest account first: where two already look
    /// alike, the younger one's key gets its id appended, so both keep signing in.
    public static func backfill(_ users: [(id: String, username: String)]) -> [(id: String, key: String)] {
        var taken = Set<String>()
        return users.map { user in
            var key = of(user.username)
            if !taken.insert(key).inserted { key += "#" + user.id }
            return (user.id, key)
        }
    }
}
