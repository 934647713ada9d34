import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// `CompactJSONDecoder` reads every frame from browsers and apps and every stored record: it must
/// give Foundation's value for what Foundation reads, and refuse what Foundation refuses.
@Suite("Compact JSON decoding")
struct CompactJSONDecoderTests {
    private func foundation<T: Decodable>(_ type: T.Type, _ text: String, iso8601: Bool = false) -> Result<T, any Error> {
        let decoder = JSONDecoder()
        if iso8601 { decoder.dateDecodingStrategy = .iso8601 }
        return Result { try decoder.decode(type, from: Data(text.utf8)) }
    }

    private func compact<T: Decodable>(_ type: T.Type, _ text: String, iso8601: Bool = false) -> Result<T, any Error> {
        Result { try CompactJSONDecoder(dates: iso8601 ? .iso8601 : .secondsSinceReferenceDate).decode(type, from: Data(text.utf8)) }
    }

    @Test("Frames read back as what was written")
    func frames() throws {
        let message = Message(
            session: Session(), url: URL(string: "https://parlor.example/ttt?board=x-o------"),
            layout: .template(TemplateLayout(image: .url(URL(string: "data:image/svg+xml,%3Csvg/%3E")!), caption: "Move \"1\"")),
            summaryText: "é 🧩 \n done")
        let call = AppWire.ServerFrame.call(
            AppWire.Call(
                id: "c-1", hook: .handle, state: .object(["a": .array([.int(1), .double(2.5), .null, .bool(false), .string("x")])]),
                context: AppWire.Context(
                    style: .compact, surface: .messages, modal: "m", localParticipant: ParticipantID(), remoteParticipants: [],
                    selectedMessage: message),
                action: .object(["square": .int(4)])))
        let result = AppWire.AppFrame.result(
            AppWire.Result(id: "c-1", effects: [.send(message), .requestStyle(.expanded)], view: VStack { Text("Hi") }.node))
        #expect(try CompactJSONDecoder.wire.decode(AppWire.ServerFrame.self, from: AppWire.encode(call)) == call)
        #expect(try CompactJSONDecoder.wire.decode(AppWire.AppFrame.self, from: AppWire.encode(result)) == result)
    }

    @Test(
        "Any JSON value reads as Foundation reads it",
        arguments: [
            "0", "-0", "7", "-7", "1.0", "1e2", "1E-2", "2.5", "-0.0", "1e300", "1e400", "9007199254740993", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "true", "false", "null", #""""#,
            #""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83e\udde9""#, "[]", "{}", #"{"a":1,"a":2}"#, #"[1,[2,[3,{"k":[null]}]]]"#,
            " \n\t{ \"sp\" : [ 1 , 2 ] } \r\n",
            // Foundation reads these too (the tape does not, and leaves them to it).
            "[1,]", #"{"a":1,}"#, "\u{FEFF}1",
        ])
    func values(_ text: String) {
        let mine = compact(JSONValue.self, text)
        let theirs = foundation(JSONValue.self, text)
        switch (mine, theirs) {
        case (.success(let mine), .success(let theirs)): #expect(mine == theirs)
        case (.failure, .failure): break
        default: Issue.record("\(text): compact \(mine), Foundation \(theirs)")
        }
    }

    @Test(
        "What is not JSON is refused, as by Foundation",
        arguments: [
            "", " ", "01", "-", "1.", ".5", "+1", "1e", "NaN", "tru", "nul", "[1 2]", #"{"a" 1}"#, #"{a:1}"#,
            "\"a\u{01}b\"", #""\x""#, #""\u12""#, #""\ud800""#, #""\udc00x""#, "[", "]", "{\"a\":[}", "1 2",
            "'a'", "[1]x",
        ])
    func notJSON(_ text: String) {
        #expect(throws: (any Error).self) { try CompactJSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
    }

    @Test("Bytes that are not UTF-8 are refused, as by Foundation")
    func notUTF8() {
        let bytes = Data([UInt8(ascii: "\""), 0xC3, 0x28, UInt8(ascii: "\"")])
        #expect(throws: (any Error).self) { try CompactJSONDecoder().decode(String.self, from: bytes) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(String.self, from: bytes) }
    }

    @Test("An object too large to scan is read by Foundation, the same, and in linear time")
    func largeObject() throws {
        // 20,000 members: scanning the keys for each would be 400 million comparisons.
        let members = (0..<20_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = "{\(members)}"
        let start = ContinuousClock.now
        let value = try CompactJSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(value == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.count == 20_000 && object["k19999"] == .int(19_999))
    }

    @Test("A document nested deeper than the tape reads is left to Foundation")
    func deep() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let mine = compact(JSONValue.self, text)
        let theirs = foundation(JSONValue.self, text)
        #expect((try? mine.get()) == (try? theirs.get()))
    }

    @Test("Dates, data, URLs, integers of every width and optionals read as Foundation reads them")
    func scalars() throws {
        struct Scalars: Codable, Equatable {
            var date: Date
            var data: Data
            var url: URL
            var small: Int8
            var unsigned: UInt64
            var float: Float
            var missing: String?
            var null: Int?
            var nested: [[String: Double?]]
        }
        let value = Scalars(
            date: Date(timeIntervalSinceReferenceDate: 786_412_800), data: Data([0, 1, 254, 255]), url: URL(string: "https://e.org/a?b#c")!,
            small: -128, unsigned: .max, float: 0.25, missing: nil, null: nil, nested: [["a": 1.5, "b": nil], [:]])
        for iso8601 in [false, true] {
            let encoder = JSONEncoder()
            if iso8601 { encoder.dateEncodingStrategy = .iso8601 }
            let text = String(decoding: try encoder.encode(value), as: UTF8.self)
            #expect(try compact(Scalars.self, text, iso8601: iso8601).get() == value)
        }
        #expect(throws: (any Error).self) { try compact(Int8.self, "128").get() }
        #expect(throws: (any Error).self) { try compact(UInt.self, "-1").get() }
        #expect(throws: (any Error).self) { try compact(Data.self, #""not base64!""#).get() }
    }

    @Test("An error is Foundation's, with its coding path")
    func errors() {
        let texts = [#"{"type":"call","call":{"id":"1","hook":"nope"}}"#, #"{"type":"call","call":{"hook":"handle"}}"#, #"{"type":"call","call":{"id":1,"hook":"handle"}}"#, #"{"type":"what"}"#]
        for text in texts {
            let mine = (try? AppWire.decode(AppWire.ServerFrame.self, from: Data(text.utf8))) == nil
            #expect(mine)
            let compactError = "\(compact(AppWire.ServerFrame.self, text, iso8601: true))"
            let foundationError = "\(foundation(AppWire.ServerFrame.self, text, iso8601: true))"
            #expect(compactError == foundationError)
        }
    }

    @Test("A container kept after decoding still reads its document")
    func keptContainer() throws {
        struct Kept: Decodable {
            enum Key: String, CodingKey { case a, b }
            let container: KeyedDecodingContainer<Key>
            init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: Key.self) }
        }
        let kept = try CompactJSONDecoder().decode(Kept.self, from: Data(#"{"a":"first","b":[1,2]}"#.utf8))
        #expect(try kept.container.decode(String.self, forKey: .a) == "first")
        #expect(try kept.container.decode([Int].self, forKey: .b) == [1, 2])
        #expect(kept.container.allKeys.map(\.stringValue) == ["a", "b"])
    }
}
