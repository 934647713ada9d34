import ParlorKit
import ParlorTesting
import Testing
import Todo

@Suite("Todo: the add form refuses bad input with clear errors")
struct TodoInputTests {
    private func homeOfAlice() async throws -> SimulatedParticipant {
        let alice = ConversationSimulator(participants: ["Alice"], apps: [Todo()]).participant("Alice")
        try await alice.openHome(named: "Todo")
        return alice
    }

    @Test("An empty or blank title is refused and nothing is added", arguments: ["", "   "])
    func emptyTitleIsRefused(title: String) async throws {
        let alice = try await homeOfAlice()
        try await addNote(alice, title: title, date: "2026-11-21")
        let error = try #require(await alice.homeError())
        #expect(error.code == .invalidValue)
        #expect(error.message == "Give the note a title.")
        #expect(await alice.homeView().rowLabels.isEmpty)
    }

    @Test(
        "A malformed, impossible or missing date is refused, saying what is wrong",
        arguments: [
            ("21/11/2026", "'21/11/2026' is not a whole date: pick its day, month and year in the date field (an app sends it as 2026-11-21)."),
            ("2026-1-5", "'2026-1-5' is not a whole date: pick its day, month and year in the date field (an app sends it as 2026-11-21)."),
            ("2026-02-30", "2026-02-30 is not a day of the calendar: February 2026 has 28 days."),
            ("2026-13-01", "2026-13-01 is not a date: the month must be 01 to 12 and the year from 0001."),
            ("", "Give the note a date: pick its day, month and year in the date field."),
        ])
    func badDateIsRefused(date: String, expected: String) async throws {
        let alice = try await homeOfAlice()
        try await addNote(alice, title: "Buy milk", date: date)
        let error = try #require(await alice.homeError())
        #expect(error.code == .invalidValue)
        #expect(error.message == expected)
        #expect(await alice.homeView().rowLabels.isEmpty)
    }

    @Test("A title longer than 100 characters cannot be typed; the form keeps the rest and adds once it is fixed")
    func tooLongTitleIsRefused() async throws {
        let alice = try await homeOfAlice()
        try await alice.typeHome("2028-02-29", into: "Date", in: "Todo")
        try await alice.chooseHome("High", in: "Priority", app: "Todo")
        try await alice.typeHome(String(repeating: "a", count: 101), into: "Title", in: "Todo")
        let error = try #require(await alice.homeError())
        #expect(error.code == .textExceedsMaxSize)
        #expect(error.message.contains("limit is 100"))
        try await alice.tapHome("Add", in: "Todo")
        #expect(await alice.homeError()?.message == "Give the note a title.")

        let longest = String(repeating: "b", count: 100)
        try await alice.typeHome(longest, into: "Title", in: "Todo")
        try await alice.tapHome("Add", in: "Todo")
        #expect(await alice.homeError() == nil)
        let home = await alice.homeView()
        #expect(home.rowLabels == ["Complete \(longest)"])
        #expect(home.visibleTexts.contains("Feb 29, 2028"))
    }

    @Test("A note's title over 100 characters is refused by the note itself, not only by the field")
    func noteRefusesTooLongTitle() throws {
        let date = try NoteDate(iso: "2026-11-21")
        let error = #expect(throws: MessagesError.self) {
            try TodoNote(title: String(repeating: "x", count: 101), priority: .low, date: date)
        }
        #expect(error?.code == .textExceedsMaxSize)
        #expect(error?.message == "A note's title has at most 100 characters; this one has 101.")
        #expect(try TodoNote(title: "  Buy milk \n", priority: .low, date: date).title == "Buy milk")
    }

    @Test("After a note is added the form is cleared for the next one")
    func formClearsAfterAdding() async throws {
        let alice = try await homeOfAlice()
        try await addNote(alice, title: "Buy milk", priority: "High", date: "2026-11-21")
        #expect(await alice.homeView().visibleTexts.contains("Added “Buy milk”."))
        try await alice.tapHome("Add", in: "Todo")
        #expect(await alice.homeError()?.message == "Give the note a title.")
    }
}
