import Foundation
import ParlorKit
import Testing

@Suite("SharedState: session state with one entry per person")
struct SharedStateTests {
    typealias Ballot = SharedState<String, Int>
    let alice = ParticipantID(), bob = ParticipantID()

    func message(_ ballot: Ballot, from sender: ParticipantID?) throws -> Message {
        var message = Message(session: Session(), url: try ballot.url(base: "https://example.org/poll"), layout: .template(TemplateLayout(caption: "poll")))
        message.senderParticipantIdentifier = sender
        return message
    }

    @Test("Entries round-trip through the message URL; counts and entries read back")
    func roundTrip() throws {
        var ballot = Ballot("Lunch?")
        ballot[alice] = 1
        ballot[bob] = 1
        let read = try Ballot(message: try message(ballot, from: alice))
        #expect(read == ballot)
        #expect(read.count(of: 1) == 2 && read.count(of: 0) == 0)
        #expect(Set(read.entries.map(\.participant)) == [alice, bob])
        #expect(throws: MessagesError.self) { try Ballot(message: Message(url: URL(string: "https://example.org/x"), layout: .template(TemplateLayout()))) }
    }

    @Test("Only the sender's own entry may change, and what the first message set never does; the app's rule runs last")
    func validation() throws {
        var head = Ballot("Lunch?")
        head[alice] = 0
        let headMessage = try message(head, from: alice)

        var own = head
        own[bob] = 1
        try Ballot.validate(try message(own, from: bob), replacing: headMessage)

        var others = own
        others[alice] = 1
        #expect(throws: MessagesError.self, "Bob changes Alice's entry") { try Ballot.validate(try message(others, from: bob), replacing: headMessage) }
        var removed = Ballot("Lunch?")
        removed[bob] = 1
        #expect(throws: MessagesError.self, "Bob removes Alice's entry") { try Ballot.validate(try message(removed, from: bob), replacing: headMessage) }
        var renamed = own
        renamed.fixed = "Dinner?"
        #expect(throws: MessagesError.self, "the question changes") { try Ballot.validate(try message(renamed, from: bob), replacing: headMessage) }
        #expect(throws: MessagesError.self, "a new session with someone else's entry") { try Ballot.validate(try message(own, from: bob), replacing: nil) }
        #expect(throws: MessagesError.self, "no sender") { try Ballot.validate(try message(own, from: nil), replacing: headMessage) }

        struct Rule: Error {}
        #expect(throws: Rule.self) { try Ballot.validate(try message(own, from: bob), replacing: headMessage) { _, _ in throw Rule() } }

        // A rule that needs the sender: only Alice, who asked, may close the poll (a vote of -1 here).
        var closing = own
        closing[bob] = -1
        let onlyTheOrganizer = { (new: Ballot, _: Ballot?, sender: ParticipantID) throws in
            if new[sender] == -1, sender != alice { throw Rule() }
        }
        #expect(throws: Rule.self) { try Ballot.validate(try message(closing, from: bob), replacing: headMessage, rule: onlyTheOrganizer) }
        var alicesClose = head
        alicesClose[alice] = -1
        try Ballot.validate(try message(alicesClose, from: alice), replacing: headMessage, rule: onlyTheOrganizer)
    }

    @Test("Rebase puts the sender's entry on the newer head's state, keeping everyone else's")
    func rebase() throws {
        var start = Ballot("Lunch?")
        start[alice] = 0
        var bobs = start
        bobs[bob] = 1
        var newer = start
        let carol = ParticipantID()
        newer[carol] = 0
        let rebased = try Ballot.rebase(try message(bobs, from: bob), onto: try message(newer, from: carol)) { try message($0, from: nil) }
        let merged = try Ballot(message: rebased)
        #expect(merged[alice] == 0 && merged[carol] == 0 && merged[bob] == 1)
    }

    @Test("An entry keyed by something that is not a participant id is refused, so it cannot inflate a count")
    func forgedKey() throws {
        // The same JSON a Ballot writes, with a second vote for 1 under a made-up key.
        struct Forged: Codable { var fixed = "Lunch?", byParticipant: [String: Int] }
        let honest = Forged(byParticipant: [alice.compactString: 1])
        let forged = Forged(byParticipant: [alice.compactString: 1, "nobody": 1])
        func message(_ state: Forged) throws -> Message {
            Message(session: Session(), url: try URLState.url(for: state, base: "https://example.org/poll"), layout: .template(TemplateLayout()))
        }
        #expect(try Ballot(message: try message(honest)).count(of: 1) == 1)
        let message = try message(forged)
        #expect(throws: MessagesError.self) { try Ballot(message: message) }
    }

    @Test("Compact ids: 22 characters that read back as the same id; anything else is refused")
    func compactIDs() throws {
        for _ in 0..<100 {
            let id = ParticipantID()
            #expect(id.compactString.count == ParticipantID.compactLength)
            #expect(ParticipantID(compactString: id.compactString) == id)
        }
        let id = ParticipantID()
        #expect(try ParticipantID.list(compact: id.compactString + alice.compactString, item: "yes") == [id, alice])
        #expect(throws: MessagesError.self) { try ParticipantID.list(compact: id.compactString + "A", item: "yes") }
        // The last character carries 2 bits of the id and 4 spare bits, which must be zero:
        // "B" (1) is another spelling of "A" and is refused, so each id has one spelling.
        let zeroed = String(repeating: "A", count: 22)
        #expect(ParticipantID(compactString: zeroed) != nil)
        #expect(ParticipantID(compactString: String(zeroed.dropLast()) + "B") == nil)
        #expect(ParticipantID(compactString: String(zeroed.dropLast()) + "*") == nil)
    }

    @Test("A state written by an earlier version, keyed by UUIDs, reads the same; a participant keyed twice is refused")
    func uuidKeys() throws {
        struct Written: Codable { var fixed = "Lunch?", byParticipant: [String: Int] }
        func message(_ state: Written) throws -> Message {
            Message(session: Session(), url: try URLState.url(for: state, base: "https://example.org/poll"), layout: .template(TemplateLayout()))
        }
        let old = try Ballot(message: try message(Written(byParticipant: [alice.description: 1, bob.compactString: 0])))
        #expect(old[alice] == 1 && old[bob] == 0 && old.count(of: 1) == 1)
        #expect(throws: MessagesError.self) {
            try Ballot(message: try message(Written(byParticipant: [alice.description: 1, alice.compactString: 1])))
        }
    }
}
