import Testing
import Todo

@Suite("Todo: dates are written ISO and shown the same in every locale")
struct NoteDateTests {
    @Test(
        "Dates are shown as 'Nov 21, 2026'",
        arguments: [("2026-11-21", "Nov 21, 2026"), ("2027-01-05", "Jan 5, 2027"), ("2024-02-29", "Feb 29, 2024"), ("0999-09-30", "Sep 30, 999")])
    func formatsDates(iso: String, shown: String) throws {
        let date = try NoteDate(iso: iso)
        #expect(date.formatted == shown)
        #expect(date.iso == iso)
    }

    @Test("Leap days exist only in leap years", arguments: [("2024-02-29", true), ("2000-02-29", true), ("1900-02-29", false), ("2026-02-29", false)])
    func leapDays(iso: String, exists: Bool) {
        #expect(((try? NoteDate(iso: iso)) != nil) == exists)
    }
}
