import Foundation
import ParlorKit
import Testing

@Suite("State in URLs: Codable values")
struct URLStateTests {
    struct Board: Codable, Equatable {
        var title: String
        var cells: [String]
        var votes: [String: Int]
        var note: String?
        var turn: Int
        var finished: Bool
    }

    private static let base = "https://parlor.example/game"

    private func malformedCode(_ url: URL) -> MessagesError.Code? {
        do {
            _ = try URLState.value(Board.self, from: url)
            return nil
        } catch {
            return error.code
        }
    }

    /// The base URL carrying `text` as its raw state item.
    private func url(state text: String) throws -> URL {
        try #require(URL(string: Self.base + "?state=" + text))
    }

    private func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test("A value round-trips exactly, with the extra items kept beside it")
    func handPicked() throws {
        let board = Board(
            title: #"Tic "tac" & toe = 100% + fun 👨‍👩‍👧 e\#u{301}"#, cells: ["X", "", "O", "\u{0}", "\\"],
            votes: ["a&b": 1, "": 0, "🇫🇷": -3], note: nil, turn: 4, finished: false)
        let url = try URLState.url(for: board, base: Self.base, extraItems: ["v": "2", "title": "Tic & toe"])
        #expect(try URLState.value(Board.self, from: url) == board)
        let items = try QueryItems(url: url)
        #expect(items["v"] == "2")
        #expect(items["title"] == "Tic & toe")
        #expect(items[URLState.itemName] != nil)
    }

    @Test("An extra item named like the state item is replaced by the state")
    func extraItemCollision() throws {
        let board = Board(title: "t", cells: [], votes: [:], note: "n", turn: 0, finished: true)
        let url = try URLState.url(for: board, base: Self.base, extraItems: [URLState.itemName: "forged"])
        #expect(try URLState.value(Board.self, from: url) == board)
        #expect(try QueryItems(url: url).values(URLState.itemName).count == 1)
    }

    @Test("1,000 seeded random values round-trip exactly")
    func randomRoundTrips() throws {
        var generator = SeededGenerator(seed: 0x5EED_0002)
        for index in 0..<1_000 {
            var votes: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                votes[generator.string(maxPieces: 4)] = Int.random(in: -1_000...1_000, using: &generator)
            }
            let board = Board(
                title: generator.string(), cells: (0..<Int.random(in: 0...9, using: &generator)).map { _ in generator.string(maxPieces: 2) },
                votes: votes, note: Bool.random(using: &generator) ? generator.string() : nil,
                turn: Int.random(in: Int.min...Int.max, using: &generator), finished: Bool.random(using: &generator))
            let decoded = try URLState.value(Board.self, from: try URLState.url(for: board, base: Self.base))
            #expect(decoded == board, "case \(index)")
            #expect(sameScalars(decoded.title, board.title), "case \(index)")
        }
    }

    @Test("Malformed state is malformedURLState, never a crash", arguments: [
        ("missing item", "other=1"),
        ("bad percent-encoding", "state=%E2%82"),
        ("a stray percent sign", "state=%zz"),
        ("truncated base64", "state=eyJ0aXRsZSI6"),
        ("one base64 character too many", "state=eyJ0aXRsZSI6I"),
        ("padding inside base64url", "state=YQ=="),
        ("not base64 at all", "state=!!!***"),
        ("empty state", "state="),
    ])
    func malformedRaw(_ name: String, _ query: String) throws {
        let url = try #require(URL(string: Self.base + "?" + query))
        #expect(malformedCode(url) == .malformedURLState, "\(name)")
    }

    @Test("Valid base64 of something that is not the app's JSON is malformedURLState", arguments: [
        "hello, not JSON", "", "{", #"{"title":"only a title"}"#, #"["an","array"]"#, "42", "null",
        #"{"title":1,"cells":[],"votes":{},"turn":0,"finished":false}"#,
        #"{"title":"t","cells":[],"votes":{},"turn":1e400,"finished":false}"#,
        String(repeating: "[", count: 3_000) + String(repeating: "]", count: 3_000),
    ])
    func malformedJSON(_ json: String) throws {
        #expect(malformedCode(try url(state: base64URL(json))) == .malformedURLState)
    }

    @Test("Invalid UTF-8 inside the JSON is malformedURLState")
    func invalidUTF8() throws {
        let bytes = Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
        let text = bytes.base64EncodedString().replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(malformedCode(try url(state: text)) == .malformedURLState)
    }

    @Test("A value too large for 5,000 characters is urlExceedsMaxSize; an unencodable one is invalidValue")
    func encodingFailures() {
        let board = Board(title: String(repeating: "x", count: 4_000), cells: [], votes: [:], note: nil, turn: 0, finished: false)
        do {
            _ = try URLState.url(for: board, base: Self.base)
            Issue.record("a 5,300-character state was accepted")
        } catch {
            #expect(error.code == .urlExceedsMaxSize)
        }
        do {
            _ = try URLState.url(for: Double.nan, base: Self.base)
            Issue.record("NaN was encoded")
        } catch {
            #expect(error.code == .invalidValue)
        }
    }
}
