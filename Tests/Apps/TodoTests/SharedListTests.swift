import Foundation
import ParlorKit
import ParlorTesting
import Testing
@testable import Todo

@Suite("Todo: a list the conversation shares")
struct SharedListTests {
    /// The shared list the newest list message carries.
    static func latestList(_ simulator: ConversationSimulator) async throws -> (list: SharedList, message: Message) {
        let line = try #require(try await simulator.participant("Ann").transcript().last { SharedList.carries($0.message) })
        let message = try #require(line.message)
        return (try SharedList(message: message), message)
    }

    @Test("Ann starts a list; Bob adds to it with Return and checks an item off; everyone sees who did, in one bubble kept current")
    func startAddCheckOff() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let opened = try await ann.openApp(named: "Todo")
        #expect(opened.hasControl("Start a shared list"))
        try await ann.type("Buy milk", into: "First item")
        try await ann.submit("Buy milk", in: "First item")
        #expect(await ann.appError() == nil)
        let posted = try await ann.sendStaged()
        #expect(posted != nil, "the list was staged")
        let annID = try await ann.participantID(in: "Todo")

        var view = try await bob.tapMessage(containing: "Shared to-do list")
        #expect(view.rowLabels == ["Check off Buy milk"])
        #expect(view.visibleTexts.contains("Added by \(annID.mention)"))
        try await bob.type("Bring chairs", into: "New item")
        try await bob.submit("Bring chairs", in: "New item")
        #expect(await bob.appError() == nil)
        view = await bob.view()
        #expect(view.rowLabels == ["Check off Buy milk", "Check off Bring chairs"])

        try await bob.tap("Check off Buy milk")
        let bobID = try await bob.participantID(in: "Todo")
        view = await bob.view()
        #expect(view.rowLabels == ["Open Buy milk again", "Check off Bring chairs"])
        #expect(view.visibleTexts.contains("Done by \(bobID.mention)"))
        #expect(view.visibleTexts.contains("1 of 2 done"))

        let (list, message) = try await Self.latestList(simulator)
        #expect(list.items.map(\.title) == ["Buy milk", "Bring chairs"])
        #expect(list.items.map(\.doneBy) == [bobID, nil])
        #expect(message.template?.subcaption == "1 of 2 done")
        let bubbles = try await ann.transcript().filter { $0.kind == .bubble && SharedList.carries($0.message) }
        #expect(bubbles.count == 1, "one bubble, kept current; earlier versions leave their lines")
        let lines = try await ann.transcript().map(\.text)
        #expect(lines.contains { $0.contains("added “Bring chairs”") })
    }

    @Test("Two people add at the same moment from the same head: both items are on the list")
    func concurrentAdditions() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        _ = try await ann.openApp(named: "Todo")
        try await ann.type("Buy milk", into: "First item")
        try await ann.submit("Buy milk", in: "First item")
        try await ann.sendStaged()
        for person in [bob, carol] { try await person.tapMessage(containing: "Shared to-do list") }
        try await bob.type("Bring chairs", into: "New item")
        try await carol.type("Bake a cake", into: "New item")

        async let bobAdds: Void = bob.tap("Add")
        async let carolAdds: Void = carol.tap("Add")
        _ = try await (bobAdds, carolAdds)

        #expect(await bob.appError() == nil)
        #expect(await carol.appError() == nil)
        let (list, _) = try await Self.latestList(simulator)
        #expect(list.items.first?.title == "Buy milk")
        #expect(Set(list.items.map(\.title)) == ["Buy milk", "Bring chairs", "Bake a cake"], "no addition lost")
    }

    @Test("A message that takes an item away, adds or checks off in someone else's name, changes an item, or shows another list is refused")
    func forgeries() throws {
        let ann = ParticipantID(), bob = ParticipantID()
        let session = Session()
        let start = try SharedList(first: "Buy milk", by: ann)
        let head = try Self.sent(start.message(session: session, summary: start.summary(from: nil, by: ann)), by: ann)
        var checked = start
        try checked.toggle(start.items[0].id, by: bob)
        let honest = try Self.sent(checked.message(session: session, summary: checked.summary(from: start, by: bob)), by: bob)
        try Todo().validate(honest, replacing: head)
        var grown = start
        try grown.add("Bring chairs", by: ann)

        // Bob sends Ann's addition in her name; Bob checks off as Ann; Bob takes her item away.
        var inAnnsName = try SharedList(message: head)
        try inAnnsName.add("Steal", by: ann)
        var checkedAsAnn = try SharedList(message: head)
        try checkedAsAnn.toggle(checkedAsAnn.items[0].id, by: ann)
        for forged in [inAnnsName, checkedAsAnn] {
            let message = try Self.sent(forged.message(session: session, summary: "\(bob.mention) did something"), by: bob)
            #expect(throws: MessagesError.self) { try Todo().validate(message, replacing: head) }
        }
        let shrunk = try Self.sent(try SharedList(message: head).message(session: session, summary: "x"), by: bob)
        let fromGrown = try Self.sent(grown.message(session: session, summary: grown.summary(from: try SharedList(message: head), by: ann)), by: ann)
        #expect(throws: MessagesError.self) { try Todo().validate(shrunk, replacing: fromGrown) }
        // A bubble that says more is done than its list.
        var lying = honest
        lying.layout = .template(TemplateLayout(image: SharedList.image, caption: "Shared to-dos", subcaption: "2 of 2 done"))
        #expect(throws: MessagesError.self) { try Todo().validate(lying, replacing: head) }
    }

    /// `message` as the host delivers it, from `sender`.
    static func sent(_ message: Message, by sender: ParticipantID) throws -> Message {
        var message = message
        message.senderParticipantIdentifier = sender
        return message
    }
}
