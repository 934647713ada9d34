import ParlorKit

/// The day a note is due: written ISO 8601 (`2026-11-21`) in URLs, fields and storage, and shown
/// as `Nov 21, 2026`, the same in every locale and time zone (no calendar or formatter involved).
public struct NoteDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, from 1.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// Parses `yyyy-MM-dd`, checking that the day exists (no February 30th).
    /// - Throws: `MessagesError(.invalidValue)` with a sentence saying what is wrong.
    public init(iso text: String) throws(MessagesError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw MessagesError(.invalidValue, "Give the note a date: pick its day, month and year in the date field.")
        }
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        let digits = Set("0123456789")
        guard parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(digits.contains) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            throw MessagesError(
                .invalidValue, "'\(trimmed.prefix(40))' is not a whole date: pick its day, month and year in the date field (an app sends it as 2026-11-21).")
        }
        guard year >= 1, (1...12).contains(month) else {
            throw MessagesError(.invalidValue, "\(trimmed) is not a date: the month must be 01 to 12 and the year from 0001.")
        }
        let length = NoteDate.daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            throw MessagesError(
                .invalidValue, "\(trimmed) is not a day of the calendar: \(NoteDate.monthNames[month - 1]) \(year) has \(length) days.")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The ISO form, `2026-11-21`.
    public var iso: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    /// The form shown to people, `Nov 21, 2026`, independent of locale.
    public var formatted: String { "\(NoteDate.monthNames[month - 1].prefix(3)) \(day), \(year)" }

    public var description: String { iso }

    public static func < (lhs: NoteDate, rhs: NoteDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try NoteDate(iso: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
