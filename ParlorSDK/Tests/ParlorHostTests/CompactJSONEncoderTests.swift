import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// `CompactJSONEncoder` writes every frame and stored record: what it writes must read back as
/// the value Foundation's encoder gives for the same options, whatever the value is made of.
@Suite("Compact JSON encoding")
struct CompactJSONEncoderTests {
    /// The value both encoders give, read back as JSON (so that key order and number spelling
    /// aside, they are compared as values), and the compact encoder's text.
    private func encodeBoth<T: Encodable>(
        _ value: T, dates: CompactJSONEncoder.DateStrategy = .iso8601, escapesSlashes: Bool = false
    ) throws -> (compact: JSONValue, foundation: JSONValue, text: String) {
        let compact = CompactJSONEncoder(dates: dates, escapesSlashes: escapesSlashes)
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = dates == .iso8601 ? .iso8601 : .deferredToDate
        foundation.outputFormatting = escapesSlashes ? [] : [.withoutEscapingSlashes]
        let data = try compact.encode(value)
        return (try JSONValue(json: data), try JSONValue(json: try foundation.encode(value)), String(decoding: data, as: UTF8.self))
    }

    private static let board = Message(
        session: Session(), url: URL(string: "https://parlor.example/ttt?board=x-o------&turn=o"),
        layout: .template(
            TemplateLayout(
                image: .url(URL(string: "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%3E%3C/svg%3E")!),
                caption: "Your move", subcaption: "Tic-Tac-Toe \"classic\"")),
        summaryText: "O played", accessibilityLabel: "Board: X, O, then empty")

    @Test("An app call with its message, state, context and action reads as Foundation's")
    func appCall() throws {
        let call = AppWire.ServerFrame.call(
            AppWire.Call(
                id: "c-17", hook: .handle,
                state: .object(["board": .array([.string("x"), .null, .int(3), .double(0.5), .bool(true)]), "nested": .object([:])]),
                context: AppWire.Context(
                    style: .expanded, surface: .messages, modal: nil, localParticipant: ParticipantID(),
                    remoteParticipants: [ParticipantID(), ParticipantID()], selectedMessage: Self.board),
                action: .object(["square": .int(4)])))
        let both = try encodeBoth(call)
        #expect(both.compact == both.foundation)
        #expect(try AppWire.decode(AppWire.ServerFrame.self, from: Data(both.text.utf8)) == call)
    }

    @Test("An app's answer with a view and effects reads back as itself")
    func appAnswer() throws {
        let view = VStack(spacing: 4) {
            Text("Pick a square")
            Button("Play 4", action: ["square": 4])
        }
        let result = AppWire.AppFrame.result(
            AppWire.Result(
                id: "c-17", state: .object(["turn": .string("o")]), effects: [.insert(Self.board), .dismiss, .containerSet(key: "k", value: .null)],
                view: view.node))
        let both = try encodeBoth(result)
        #expect(both.compact == both.foundation)
        #expect(try AppWire.decode(AppWire.AppFrame.self, from: Data(both.text.utf8)) == result)
    }

    @Test("Strings are escaped as JSON requires, slashes as asked", arguments: [false, true])
    func strings(escapesSlashes: Bool) throws {
        let texts = ["", "plain", "quote \" backslash \\ slash / ", "line\nreturn\rtab\tbell\u{07}nul\u{00}us\u{1F}", "é 日本 🧩 \u{2028}", "</script>"]
        let both = try encodeBoth(texts, escapesSlashes: escapesSlashes)
        #expect(both.compact == both.foundation)
        #expect(both.compact == .array(texts.map(JSONValue.string)))
        #expect(both.text.contains(#"\/"#) == escapesSlashes)
        #expect(both.text.contains(#"\u0000"#) && both.text.contains(#"\u0007"#) && both.text.contains(#"\n"#))
    }

    @Test("Numbers, dates, data and URLs are written as Foundation writes them")
    func scalars() throws {
        struct Scalars: Encodable {
            var ints: [Int] = [0, 7, -7, .max, .min]
            var unsigned: [UInt64] = [0, .max]
            var small: [Int8] = [.min, .max]
            var doubles: [Double] = [0, -0.0, 1, 0.1, 2.5, -1e-7, 1e300, .leastNonzeroMagnitude, 123_456_789.125]
            var float: Float = 0.25
            var date = Date(timeIntervalSinceReferenceDate: 786_412_800.5)
            var data = Data([0, 1, 2, 250, 255])
            var url = URL(string: "https://example.org/a?b=c#d")
            var none: String?
            var flags = [true, false]
        }
        for dates in [CompactJSONEncoder.DateStrategy.iso8601, .secondsSinceReferenceDate] {
            let both = try encodeBoth(Scalars(), dates: dates)
            #expect(both.compact == both.foundation)
        }
        #expect(!(try encodeBoth(Scalars()).text.contains("none")))
    }

    @Test("A number JSON cannot hold is refused, as by Foundation")
    func notFinite() {
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode(["x": Double.infinity]) }
    }

    @Test("Dictionaries, nested optionals, empty values and containers asked for twice")
    func shapes() throws {
        struct Empty: Encodable {}
        struct Twice: Encodable {
            enum A: String, CodingKey { case a }
            enum B: String, CodingKey { case b, list }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: A.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: B.self)
                var list = second.nestedUnkeyedContainer(forKey: .list)
                try list.encode("x")
                var inner = list.nestedContainer(keyedBy: A.self)
                try inner.encode(true, forKey: .a)
                try list.encodeNil()
                try second.encode([Empty(), Empty()], forKey: .b)
            }
        }
        struct Shapes: Encodable {
            var byName: [String: [Int?]] = ["a": [1, nil], "b": []]
            var byNumber: [Int: String] = [3: "three"]
            var double: Int?? = .some(nil)
            var empty = Empty()
            var twice = Twice()
            var matrix: [[Double]] = [[], [1.5], [2, 3]]
        }
        let both = try encodeBoth(Shapes())
        #expect(both.compact == both.foundation)
        let twice = try encodeBoth(Twice())
        #expect(twice.text == #"{"a":1,"list":["x",{"a":true},null],"b":[{},{}]}"#)
    }

    @Test("A value the stream cannot follow is still encoded right (by Foundation's encoder)")
    func unstreamable() throws {
        /// Writes to its first container after a sibling container was opened.
        struct Interleaved: Encodable {
            enum Keys: String, CodingKey { case one, two, late }
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: Keys.self)
                var one = outer.nestedUnkeyedContainer(forKey: .one)
                var two = outer.nestedUnkeyedContainer(forKey: .two)
                try two.encode(2)
                try one.encode(1)
                try outer.encode("end", forKey: .late)
            }
        }
        struct Super: Encodable {
            enum Keys: String, CodingKey { case own }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .own)
                try? "swallowed".encode(to: container.superEncoder())
            }
        }
        struct Money: Encodable { var amount = Decimal(string: "12.50") }
        let interleaved = try encodeBoth(["wrapped": Interleaved()])
        #expect(interleaved.compact == interleaved.foundation)
        #expect(interleaved.compact == .object(["wrapped": .object(["one": .array([.int(1)]), "two": .array([.int(2)]), "late": .string("end")])]))
        let sup = try encodeBoth(Super())
        #expect(sup.compact == sup.foundation)
        let money = try encodeBoth(Money())
        #expect(money.compact == money.foundation)
    }

    @Test("With sorted dictionary keys, equal dictionaries give the same bytes, whatever their own order")
    func dictionariesInKeyOrder() throws {
        struct Mixed: Encodable {
            var byName = ["b": 2, "a": 1, "c": 3]
            var byNumber = [10: "ten", 2: "two"]
            var list = [["y": true, "x": false]]
        }
        let sorted = CompactJSONEncoder(sortsDictionaryKeys: true)
        #expect(try sorted.text(Mixed()) == #"{"byName":{"a":1,"b":2,"c":3},"byNumber":{"10":"ten","2":"two"},"list":[{"x":false,"y":true}]}"#)

        // Equal dictionaries of different capacities list their entries in different orders.
        let names = (0..<40).map { "member\($0)" }
        var grown: [String: Int] = [:]
        for (index, name) in names.enumerated() { grown[name] = index }
        var reserved: [String: Int] = [:]
        reserved.reserveCapacity(500)
        for (index, name) in names.enumerated().reversed() { reserved[name] = index }
        #expect(grown == reserved)
        #expect(try CompactJSONEncoder().encode(grown) != (try CompactJSONEncoder().encode(reserved)), "the case this option is for")
        #expect(try sorted.encode(grown) == (try sorted.encode(reserved)))

        // `JSONValue` objects are dictionaries: its JSON is Foundation's with sorted keys, byte for byte.
        let value = JSONValue.object([
            "state": .object(Dictionary(uniqueKeysWithValues: names.map { ($0, JSONValue.int(1)) })),
            "list": .array([.object(["z": .null, "a": .string("a/b")]), .double(0.5)]),
        ])
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(value.json == (try foundation.encode(value)))

        // A value the stream hands to Foundation's encoder is sorted there too.
        struct Amounts: Encodable { var amounts: [String: Decimal] = ["b": 1, "a": 2] }
        #expect(try sorted.text(Amounts()) == #"{"amounts":{"a":2,"b":1}}"#)
    }

    @Test("A value encoded once is copied into every value holding it, not encoded again, and only by the same settings")
    func encodedOnce() throws {
        /// Says how many times it was encoded, so a copy and a second encoding differ.
        final class Counted: Encodable, @unchecked Sendable {
            var times = 0
            func encode(to encoder: any Encoder) throws {
                times += 1
                var container = encoder.singleValueContainer()
                try container.encode("encoded \(times) time(s): a/b")
            }
        }
        struct Frame<Body: Encodable>: Encodable {
            var type = "message"
            var message: Body
            var list: [Body]
        }
        let counted = Counted()
        let once = try EncodedJSON(encodingNow: counted, by: .wire)
        let frame = Frame(message: once, list: [once, once])
        #expect(try CompactJSONEncoder.wire.text(frame)
            == #"{"type":"message","message":"encoded 1 time(s): a/b","list":["encoded 1 time(s): a/b","encoded 1 time(s): a/b"]}"#)
        #expect(counted.times == 1)
        // Other settings (slashes escaped) encode the value itself.
        #expect(try CompactJSONEncoder(dates: .iso8601, escapesSlashes: true).text(Frame(message: once, list: [])).contains(#"encoded 2 time(s): a\/b"#))
        // A value not encoded ahead is encoded where it is written.
        let later = EncodedJSON(Counted())
        #expect(try CompactJSONEncoder.wire.text([later, later]) == #"["encoded 1 time(s): a/b","encoded 2 time(s): a/b"]"#)
        // A date not encoded ahead is written as the encoder writes dates, not as Date's own numbers.
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try CompactJSONEncoder.wire.text([EncodedJSON(date)]) == CompactJSONEncoder.wire.text([date]))
        #expect(try CompactJSONEncoder.wire.text([EncodedJSON(date)]).contains("2026"))
    }
}
