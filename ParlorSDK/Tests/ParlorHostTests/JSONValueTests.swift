import Foundation
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// An outside app's state and actions pass through Parlor as `JSONValue`: every kind of value
/// must come out as it went in.
@Suite("JSON values an app keeps")
struct JSONValueTests {
    @Test("Every kind of value, nested, is read as itself and written back the same")
    func everyKindRoundTrips() throws {
        let text = #"{"a":[1,-2,2.5,1e300,true,false,null,"1","true","","é\"\\/"],"b":{"c":{},"d":[],"e":[[{"f":null}]]},"g":9007199254740993}"#
        let value = try JSONValue(json: Data(text.utf8))
        let expected: JSONValue = .object([
            "a": .array([.int(1), .int(-2), .double(2.5), .double(1e300), .bool(true), .bool(false), .null, .string("1"), .string("true"), .string(""), .string(#"é"\/"#)]),
            "b": .object(["c": .object([:]), "d": .array([]), "e": .array([.array([.object(["f": .null])])])]),
            "g": .int(9_007_199_254_740_993),
        ])
        #expect(value == expected)
        #expect(try JSONValue(json: value.json) == value)
        #expect(String(decoding: JSONValue.object(["b": .int(1), "a": .string("x/y")]).json, as: UTF8.self) == #"{"a":"x/y","b":1}"#)
    }

    @Test("A value inside a frame is read the same as on its own", arguments: ["null", "0", "-7", "0.5", "true", #""s""#, "[]", "{}", #"[{"k":[null]}]"#])
    func insideAFrame(_ text: String) throws {
        struct Frame: Decodable { var state: JSONValue? }
        let frame = try JSONDecoder().decode(Frame.self, from: Data(#"{"state":\#(text)}"#.utf8))
        let alone = try JSONValue(json: Data(text.utf8))
        // A member that is null reads as absent in an optional, as for every Codable optional.
        #expect(frame.state ?? .null == alone)
    }

    @Test("Text that is not JSON is refused with a sentence", arguments: ["", "{", "[1 2]", "nul", #"{"a" 1}"#])
    func notJSON(_ text: String) {
        #expect(throws: MessagesError.self) { try JSONValue(json: Data(text.utf8)) }
    }
}
