import Foundation
import ParlorKit
import ParlorStore
@testable import ParlorStorePostgres
import Testing

/// The NOTIFY payloads carrying committed-message pointers (no database needed).
@Suite("PostgreSQL: notification payloads")
struct PostgresNoticeTests {
    @Test("A flush in one conversation is one short payload, whatever its size")
    func oneConversationIsOnePayload() throws {
        let conversation = ConversationID()
        let pointers = (1...512).map { MessagePointer(conversation: conversation, sequence: 1_000 + Int64($0)) }
        let payloads = try ClusterNotice.payloads(committed: pointers, origin: "node-a")
        #expect(payloads.count == 1)
        #expect(try #require(payloads.first).utf8.count < 200)
        #expect(ClusterNotice.decode(payloads[0])?.envelope == ClusterEnvelope(origin: "node-a", event: .messagesCommitted(pointers)))
    }

    @Test("Pointers to 600 conversations are split into payloads under 8,000 bytes that together name each once")
    func manyConversationsAreChunked() throws {
        let pointers = (0..<600).map { MessagePointer(conversation: ConversationID(), sequence: Int64($0 % 7 + 1)) }
        let payloads = try ClusterNotice.payloads(committed: pointers, origin: UUID().uuidString)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count < 8_000 })
        var decoded: [MessagePointer] = []
        for payload in payloads {
            guard case .messagesCommitted(let part)? = ClusterNotice.decode(payload)?.envelope?.event else {
                Issue.record("A payload did not decode to committed pointers: \(payload.prefix(80))")
                continue
            }
            decoded += part
        }
        #expect(decoded.count == pointers.count)
        #expect(Set(decoded) == Set(pointers))
    }

    @Test("Gaps in one conversation's sequence numbers survive the range packing")
    func gapsArePreserved() {
        #expect(ClusterNotice.ranges(of: [5, 1, 2, 3, 9, 10, 7]) == [1, 3, 5, 5, 7, 7, 9, 10])
    }

    @Test("Payloads that are not notices, or name impossible ranges, are ignored")
    func corruptPayloadsAreIgnored() {
        let conversation = ConversationID().description
        for payload in ["", "hello", "{}", #"{"o":"x","c":{"not-a-uuid":[1,1]}}"#, #"{"o":"x","c":{"\#(conversation)":[3,1]}}"#,
                        #"{"o":"x","c":{"\#(conversation)":[1]}}"#, #"{"o":"x","c":{"\#(conversation)":[1,9000000]}}"#] {
            #expect(ClusterNotice.decode(payload)?.envelope == nil, "\(payload)")
        }
    }
}
