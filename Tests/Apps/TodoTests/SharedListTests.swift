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
        try await Self.startList(ann, with: "Buy milk")
        let annID = try await ann.participantID(in: "Todo")
        let sent = await ann.view()
        #expect(!sent.visibleTexts.contains("Your list is ready to send."), "sent, not waiting any more")
        #expect(sent.rowLabels == ["Check off Buy milk, added by \(annID.mention)"], "the list she sent stays open to add to")

        var view = try await bob.tapMessage(containing: "Shared to-do list")
        #expect(view.rowLabels == ["Check off Buy milk, added by \(annID.mention)"])
        #expect(view.visibleTexts.contains("Added by \(annID.mention)"))
        try await bob.type("Bring chairs", into: "New item")
        try await bob.submit("Bring chairs", in: "New item")
        #expect(await bob.appError() == nil)
        view = await bob.view()
        let bobID = try await bob.participantID(in: "Todo")
        #expect(view.rowLabels == ["Check off Buy milk, added by \(annID.mention)", "Check off Bring chairs, added by \(bobID.mention)"])

        try await bob.tap("Check off Buy milk, added by \(annID.mention)")
        view = await bob.view()
        #expect(view.rowLabels == ["Open Buy milk again, done by \(bobID.mention)", "Check off Bring chairs, added by \(bobID.mention)"])
        #expect(view.visibleTexts.contains("Done by \(bobID.mention)"))
        #expect(view.visibleTexts.contains("1 of 2 done"))

        let (list, message) = try await Self.latestList(simulator)
        #expect(list.items.map(\.title) == ["Buy milk", "Bring chairs"])
        #expect(list.items.map(\.doneBy) == [bobID, nil])
        #expect(message.template?.subcaption == "1 of 2 done")
        let bubbles = try await ann.transcript().filter { $0.kind == .bubble && SharedList.carries($0.message) }
        #expect(bubbles.count == 1, "one bubble, kept current; earlier versions leave their lines")
        #expect(bubbles.first?.sender == "Ann" && bubbles.first?.posted.sender == "Bob", "Bob's changes leave the list in Ann's name")
        let lines = try await ann.transcript().map(\.text)
        #expect(lines.contains { $0.contains("added “Bring chairs”") })
        #expect(lines.last { $0.contains("checked off") } != nil, "his last change leaves its line too")
    }

    @Test("Bob changes the text of his own item with Return and takes another off; Ann's items offer him no Edit; each change is a line for everyone")
    func editAndRemoveOwnItems() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        try await Self.startList(ann, with: "Buy milk")
        try await bob.tapMessage(containing: "Shared to-do list")
        for item in ["Bring chairs", "Bring cups"] {
            try await bob.type(item, into: "New item")
            try await bob.submit(item, in: "New item")
        }
        var view = await bob.view()
        #expect(view.hasControl("Edit Bring chairs") && view.hasControl("Edit Bring cups"))
        #expect(!view.hasControl("Edit Buy milk"), "Ann's item is hers to change")

        try await bob.tap("Edit Bring chairs")
        try await bob.type("Bring 6 chairs", into: "Item")
        try await bob.submit("Bring 6 chairs", in: "Item")
        #expect(await bob.appError() == nil)
        view = await bob.view()
        #expect(view.hasControl("Edit Bring 6 chairs") && !view.hasControl("Save Bring 6 chairs"), "saved, the field closed")

        try await bob.tap("Edit Bring cups")
        try await bob.tap("Remove Bring cups")
        #expect(await bob.appError() == nil)

        let (list, message) = try await Self.latestList(simulator)
        #expect(list.items.map(\.title) == ["Buy milk", "Bring 6 chairs"])
        let lines = try await ann.transcript().map(\.text)
        #expect(lines.contains { $0.contains("changed “Bring chairs” to “Bring 6 chairs”") }, "the line the rename left")
        #expect(message.summaryText?.contains("took “Bring cups” off the list") == true, "the line the removal leaves")
        let annView = try await ann.tapMessage(containing: "Shared to-do list")
        #expect(annView.hasControl("Edit Buy milk") && !annView.hasControl("Edit Bring 6 chairs"))
    }

    @Test("Bob works on an item right after adding it (the message he opened does not have it yet): he checks it off, opens it again from its Edit, changes its text and takes it off, each at the first try")
    func ownItemRightAfterAdding() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        try await Self.startList(ann, with: "Buy milk")
        try await bob.tapMessage(containing: "Shared to-do list")
        try await bob.type("Bring chairs", into: "New item")
        try await bob.submit("Bring chairs", in: "New item")
        let bobID = try await bob.participantID(in: "Todo")
        try await bob.tap("Check off Bring chairs, added by \(bobID.mention)")
        #expect(await bob.appError() == nil)
        // A checked-off item keeps its text: its Edit offers to open it again first, then the field.
        try await bob.tap("Edit Bring chairs")
        #expect(!(await bob.view()).hasControl("Save Bring chairs"))
        try await bob.tap("Open Bring chairs again")
        #expect(await bob.appError() == nil)
        #expect(await bob.view().hasControl("Save Bring chairs"))
        try await bob.type("Bring 6 chairs", into: "Item")
        try await bob.submit("Bring 6 chairs", in: "Item")
        #expect(await bob.appError() == nil)
        #expect(try await Self.latestList(simulator).list.items.map(\.title) == ["Buy milk", "Bring 6 chairs"])
        try await bob.tap("Edit Bring 6 chairs")
        try await bob.tap("Remove Bring 6 chairs")
        #expect(await bob.appError() == nil)
        #expect(try await Self.latestList(simulator).list.items.map(\.title) == ["Buy milk"])
    }

    @Test("Ann adds an item while Bob changes the text of his: both changes are on the list")
    func concurrentAddAndEdit() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        try await Self.startList(bob, with: "Bring chairs")
        for person in [ann, bob] { try await person.tapMessage(containing: "Shared to-do list") }
        try await ann.type("Buy milk", into: "New item")
        try await bob.tap("Edit Bring chairs")
        try await bob.type("Bring 6 chairs", into: "Item")

        async let annAdds: Void = ann.tap("Add")
        async let bobSaves: Void = bob.tap("Save Bring chairs")
        _ = try await (annAdds, bobSaves)

        #expect(await ann.appError() == nil)
        #expect(await bob.appError() == nil)
        let (list, _) = try await Self.latestList(simulator)
        #expect(list.items.map(\.title) == ["Bring 6 chairs", "Buy milk"], "neither change lost")
    }

    @Test("Two people add at the same moment from the same head: both items are on the list")
    func concurrentAdditions() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        let bob = simulator.participant("Bob")
        let carol = simulator.participant("Carol")
        try await Self.startList(ann, with: "Buy milk")
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

    @Test("A message that adds, checks off, retitles or takes off an item in someone else's name, moves an item, makes two changes, or shows another list is refused")
    func forgeries() throws {
        let ann = ParticipantID(), bob = ParticipantID()
        let session = Session()
        var start = try SharedList(first: "Buy milk", by: ann)
        try start.add("Bring chairs", by: ann)
        let head = try Self.sent(start.message(session: session, summary: "\(ann.mention) added “Bring chairs”", answering: false), by: ann)
        var checked = start
        try checked.setDone(start.items[0].id, true, by: bob)
        let honest = try Self.sent(checked.message(session: session, summary: checked.summary(from: start, by: bob), answering: true), by: bob)
        try Todo().validate(honest, replacing: head)
        // A change that would take the list over (drawn as Bob's own list) is not what Todo sends.
        var takeover = honest
        takeover.answersSession = false
        #expect(throws: MessagesError.self) { try Todo().validate(takeover, replacing: head) }

        // Each forged list comes with the line the change would leave, so only the rule refuses it.
        var inAnnsName = start
        try inAnnsName.add("Steal", by: ann)
        var checkedAsAnn = start
        try checkedAsAnn.setDone(start.items[0].id, true, by: ann)
        var twoChanges = start
        try twoChanges.add("Cake", by: bob)
        try twoChanges.setDone(start.items[1].id, true, by: bob)
        let cases: [(SharedList, String, String)] = [
            (inAnnsName, "\(bob.mention) added “Steal”", "in its sender's name"),
            (checkedAsAnn, "\(bob.mention) checked off “Buy milk”", "in its sender's name only"),
            (try SharedList(first: "Buy milk", by: ann), "\(bob.mention) removed “Bring chairs”", "taken off"),
            (twoChanges, "\(bob.mention) added “Cake”", "one change"),
        ]
        // Ann's items retitled or taken off by Bob, though each is one change: only she may.
        var retitled = start
        try retitled.rename(start.items[1].id, to: "Sell chairs", by: ann)
        var removed = start
        try removed.remove(start.items[1].id, by: ann)
        for (forged, summary, reason) in cases + [
            (retitled, "\(bob.mention) changed “Bring chairs” to “Sell chairs”", "Only whoever added"),
            (removed, "\(bob.mention) took “Bring chairs” off the list", "whoever added it only"),
        ] {
            let message = try Self.sent(forged.message(session: session, summary: summary, answering: true), by: bob)
            #expect { try Todo().validate(message, replacing: head) } throws: { error in
                (error as? MessagesError)?.code == .actionRefused && (error as? MessagesError)?.message.contains(reason) == true
            }
        }
        // The same changes by Ann, who added the item, pass.
        for (changed, summary) in [(retitled, "changed “Bring chairs” to “Sell chairs”"), (removed, "took “Bring chairs” off the list")] {
            #expect(try changed.summary(from: start, by: ann) == "\(ann.mention) \(summary)")
            try Todo().validate(Self.sent(changed.message(session: session, summary: changed.summary(from: start, by: ann), answering: true), by: ann), replacing: head)
        }
        // Bob may not rename or remove Ann's item in his own list either, nor the last item.
        var mine = start
        #expect(throws: MessagesError.self) { try mine.rename(start.items[0].id, to: "x", by: bob) }
        #expect(throws: MessagesError.self) { try mine.remove(start.items[0].id, by: bob) }
        var single = try SharedList(first: "Only", by: ann)
        #expect(throws: MessagesError.self) { try single.remove(single.items[0].id, by: ann) }
        // A checked-off item keeps the text it was checked off with, even for whoever added it.
        #expect(throws: MessagesError.self) { try checked.rename(start.items[0].id, to: "Buy cream", by: ann) }
        var doneRetitled = start
        try doneRetitled.rename(start.items[0].id, to: "Buy cream", by: ann)
        try doneRetitled.setDone(start.items[0].id, true, by: bob)
        let afterCheckOff = try Self.sent(checked.message(session: session, summary: "x", answering: true), by: bob)
        #expect {
            try Todo().validate(
                Self.sent(doneRetitled.message(session: session, summary: "\(ann.mention) changed “Buy milk” to “Buy cream”", answering: true), by: ann),
                replacing: afterCheckOff)
        } throws: { ($0 as? MessagesError)?.message.contains("keeps its text") == true }
        // The same items in another order, or one retitled: carried in a URL written by hand.
        let items = start.items.map { "item=\($0.id)~\($0.addedBy.compactString)~~\($0.title.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
        for query in [items.reversed().joined(separator: "&"), items.joined(separator: "&").replacingOccurrences(of: "Bring", with: "Sell")] {
            var moved = honest
            moved.url = URL(string: SharedList.baseURL + "?" + query)
            #expect(throws: MessagesError.self) { try Todo().validate(moved, replacing: head) }
        }
        // A bubble that says more is done than its list.
        var lying = honest
        lying.layout = .template(TemplateLayout(image: SharedList.image, caption: "Shared to-dos", subcaption: "2 of 2 done"))
        #expect(throws: MessagesError.self) { try Todo().validate(lying, replacing: head) }
        // Text-direction overrides and line breaks are not an item's.
        #expect(throws: MessagesError.self) { try SharedList(first: "Buy\u{202E}klim", by: ann) }
        #expect(throws: MessagesError.self) { try SharedList(first: "two\u{2028}lines", by: ann) }
    }

    @Test("Two people check the same item off at the same moment: it stays done, once")
    func concurrentCheckOffs() async throws {
        let simulator = ConversationSimulator(participants: ["Ann", "Bob", "Carol"], apps: [Todo()])
        let ann = simulator.participant("Ann")
        try await Self.startList(ann, with: "Buy milk")
        let bob = simulator.participant("Bob"), carol = simulator.participant("Carol")
        for person in [bob, carol] { try await person.tapMessage(containing: "Shared to-do list") }
        let label = "Check off Buy milk, added by \(try await ann.participantID(in: "Todo").mention)"
        // Carol presses the row as she sees it, open, even if Bob's check-off reaches her first.
        let itemID = try #require(try await Self.latestList(simulator).list.items.first?.id)
        async let bobChecks: Void = bob.tap(label)
        async let carolChecks: Void = carol.sendRawEvent(.action(ActionPayload(Todo.Action.setDone(itemID, true))))
        _ = try await (bobChecks, carolChecks)
        #expect(await bob.appError() == nil)
        // Carol's press runs again on Bob's head (and changes nothing), or, when Bob's check-off
        // redrew her screen first, is refused as a control no longer there: never an undo.
        let carolsError = await carol.appError()
        #expect(carolsError == nil || carolsError?.message == "That control is no longer on the screen.", "\(String(describing: carolsError))")
        let (list, _) = try await Self.latestList(simulator)
        #expect(list.items.first?.doneBy != nil, "done, not opened again by the second check-off")
        let lists = try await ann.transcript().filter { SharedList.carries($0.message) || $0.text.contains("checked off") }
        #expect(lists.filter { $0.text.contains("checked off") }.count <= 1, "checked off once")
    }

    @Test("A list takes an item only while every item could still be checked off: a full list's last item can be")
    func fullListChecksOff() throws {
        let ann = ParticipantID()
        let long = String(repeating: "Добавить ", count: 11).trimmingCharacters(in: .whitespaces)
        var list = try SharedList(first: long, by: ann)
        var refused: MessagesError?
        for _ in 0..<SharedList.maxItems {
            do throws(MessagesError) { try list.add(long, by: ann) } catch { refused = error; break }
        }
        #expect(refused?.code == .actionRefused && list.items.count < SharedList.maxItems, "long Cyrillic titles fill it early")
        for item in list.items { try list.setDone(item.id, true, by: ParticipantID()) }
        #expect(throws: Never.self) { _ = try list.message(session: Session(), summary: "x", answering: false) }
    }

    @Test("A message that makes an item's text so long that not every item could be checked off any more is refused, as Edit refuses it")
    func noRoomLeftByHand() throws {
        let ann = ParticipantID(), session = Session()
        let long = String(repeating: "Добавить ", count: 11).trimmingCharacters(in: .whitespaces)
        var list = try SharedList(first: "a", by: ann)
        while (try? list.add(long, by: ann)) != nil {}
        let head = try Self.sent(list.message(session: session, summary: "x", answering: false), by: ann)
        var refusedByEdit = false
        var refusedByValidate = false
        // The first item's text made longer by hand, a letter at a time, while the list still fits.
        for extra in 1...98 {
            let title = String(repeating: "🥛", count: extra)
            var edited = list
            do throws(MessagesError) { try edited.rename(list.items[0].id, to: title, by: ann) } catch { refusedByEdit = true }
            guard let url = try? QueryItems(list.items.enumerated().map { index, item in
                QueryItem("item", [item.id, item.addedBy.compactString, "", index == 0 ? title : item.title].joined(separator: "~"))
            }).url(base: SharedList.baseURL) else { continue }
            var carrier = head
            carrier.url = url
            guard let forged = try? SharedList(message: carrier), !forged.hasRoomForEveryCheckOff else { continue }
            let message = try Self.sent(forged.message(session: session, summary: forged.summary(from: list, by: ann), answering: true), by: ann)
            #expect { try Todo().validate(message, replacing: head) } throws: { ($0 as? MessagesError)?.message.contains("no room") == true }
            refusedByValidate = true
            break
        }
        #expect(refusedByEdit && refusedByValidate, "a text long enough to leave no room, and still fitting, was found")
    }

    /// `person` opens Todo in the conversation, types the first item, presses Return, and sends
    /// the list it staged.
    static func startList(_ person: SimulatedParticipant, with first: String) async throws {
        _ = try await person.openApp(named: "Todo")
        try await person.type(first, into: "First item")
        try await person.submit(first, in: "First item")
        #expect(await person.appError() == nil)
        #expect(try await person.sendStaged() != nil, "the list was staged")
    }

    /// `message` as the host delivers it, from `sender`.
    static func sent(_ message: Message, by sender: ParticipantID) throws -> Message {
        var message = message
        message.senderParticipantIdentifier = sender
        return message
    }
}
