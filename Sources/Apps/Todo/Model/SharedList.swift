import Foundation
import ParlorKit

/// A to-do list a conversation shares, as Zulip's todo widget: anyone adds items and checks them
/// off, and everyone sees who added and who did each; whoever added an item may change its text or
/// take it off. It is one session; its newest message is the list, kept current in one bubble.
///
/// The URL carries the items in order, one `item` each: `<id>~<added by>~<done by>~<title>`, the
/// participants in their 22-character form and "done by" empty while it is open.
struct SharedList: Equatable, Sendable, Codable {
    struct Item: Equatable, Sendable, Codable {
        /// Six letters or digits, unique in the list: what a check-off names.
        let id: String
        var title: String
        let addedBy: ParticipantID
        var doneBy: ParticipantID?
    }

    static let baseURL = "https://parlor.example/todo/list"
    /// The most items one list holds. Fewer fit when their titles are long: an item is taken only
    /// while the list's URL would still fit with every item checked off (`add`).
    static let maxItems = 30

    private(set) var items: [Item]

    /// A new list with its first item, added by `participant`.
    /// - Throws: `.invalidValue` or `.textExceedsMaxSize` for a title out of `TodoNote`'s bounds.
    init(first title: String, by participant: ParticipantID) throws(MessagesError) {
        items = []
        try add(title, by: participant)
    }

    /// Adds an item at the end.
    /// - Throws: as `init(first:by:)`; `.actionRefused` when the list is full.
    mutating func add(_ title: String, by participant: ParticipantID) throws(MessagesError) {
        let title = try Self.checked(title)
        let full = MessagesError(.actionRefused, "This list is full; start a new list for more.")
        guard items.count < Self.maxItems else { throw full }
        var id: String
        repeat { id = Self.newID() } while items.contains { $0.id == id }
        var grown = self
        grown.items.append(Item(id: id, title: title, addedBy: participant, doneBy: nil))
        guard grown.hasRoomForEveryCheckOff else { throw full }
        self = grown
    }

    /// Marks the item done by `participant`, or open again; nothing changes when it already is.
    /// - Throws: `.actionRefused` when there is no such item (someone's change may have been missed).
    mutating func setDone(_ id: String, _ done: Bool, by participant: ParticipantID) throws(MessagesError) {
        guard let index = items.firstIndex(where: { $0.id == id }) else {
            throw MessagesError(.actionRefused, "That item is not on this list.")
        }
        guard (items[index].doneBy != nil) != done else { return }
        items[index].doneBy = done ? participant : nil
    }

    /// Changes the text of an open item `participant` added; nothing changes when it is the same.
    /// A checked-off item keeps the text it was checked off with: opened again, it can be changed.
    /// - Throws: `.actionRefused` when there is no such item, someone else added it, it is done, or
    ///   the list would no longer fit; as `add` for a title out of bounds.
    mutating func rename(_ id: String, to title: String, by participant: ParticipantID) throws(MessagesError) {
        let index = try ownItem(id, of: participant, "Only whoever added an item changes its text.")
        guard items[index].doneBy == nil else { throw MessagesError(.actionRefused, "Open the item again to change its text.") }
        let title = try Self.checked(title)
        var renamed = self
        renamed.items[index].title = title
        guard renamed.hasRoomForEveryCheckOff else { throw MessagesError(.actionRefused, "That text is too long for this list; shorten it.") }
        self = renamed
    }

    /// Whether the list's URL would still fit with every item checked off (a check-off lengthens
    /// it): a list takes an item, or a longer text, only while nobody's check-off can be refused.
    var hasRoomForEveryCheckOff: Bool {
        var allDone = self
        // Every participant's id is written in the same number of characters.
        for index in allDone.items.indices where allDone.items[index].doneBy == nil { allDone.items[index].doneBy = allDone.items[index].addedBy }
        return (try? allDone.url()) != nil
    }

    /// Takes an item `participant` added off the list.
    /// - Throws: `.actionRefused` when there is no such item, someone else added it, or it is the
    ///   list's last (a list keeps one item at least).
    mutating func remove(_ id: String, by participant: ParticipantID) throws(MessagesError) {
        let index = try ownItem(id, of: participant, "An item is taken off the list by whoever added it only.")
        guard items.count > 1 else {
            throw MessagesError(.actionRefused, "A list keeps one item at least; check it off instead.")
        }
        items.remove(at: index)
    }

    /// The index of item `id`, which `participant` added.
    private func ownItem(_ id: String, of participant: ParticipantID, _ whoMay: String) throws(MessagesError) -> Int {
        guard let index = items.firstIndex(where: { $0.id == id }) else {
            throw MessagesError(.actionRefused, "That item is not on this list.")
        }
        guard items[index].addedBy == participant else { throw MessagesError(.actionRefused, whoMay) }
        return index
    }

    var doneCount: Int { items.count { $0.doneBy != nil } }

    /// A title as kept: `NameRules` (one line, nothing invisible or turning the text around, as a
    /// note's length at most), trimmed.
    static func checked(_ title: String) throws(MessagesError) -> String {
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw MessagesError(.invalidValue, "Write what needs doing first.")
        }
        return try NameRules.check(title, what: "An item", maxLength: TodoNote.maxTitleLength)
    }

    private static let idCharacters = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    private static func newID() -> String {
        String((0..<6).map { _ in idCharacters.randomElement() ?? "a" })
    }

    // MARK: The message

    /// Whether `message` carries a shared list (not a single note).
    static func carries(_ message: Message?) -> Bool {
        message?.url?.absoluteString.hasPrefix(baseURL + "?") ?? false
    }

    /// The message carrying this list in `session`; `summary` says what changed ("added …").
    /// A change to a list already shared (`answering`) keeps the list in the name of whoever
    /// shared it.
    func message(session: Session, summary: String, answering: Bool) throws(MessagesError) -> Message {
        let url = try self.url()
        let progress = "\(doneCount) of \(items.count) done"
        return Message(
            session: session, url: url,
            layout: .template(TemplateLayout(image: Self.image, caption: "Shared to-dos", subcaption: progress)),
            summaryText: summary,
            accessibilityLabel: "Shared to-do list, \(items.count) item\(items.count == 1 ? "" : "s"), \(progress).", answersSession: answering)
    }

    /// The URL carrying the items.
    /// - Throws: `.urlExceedsMaxSize` past the limit of a message's URL.
    func url() throws(MessagesError) -> URL {
        try QueryItems(items.map { item in
            QueryItem("item", [item.id, item.addedBy.compactString, item.doneBy?.compactString ?? "", item.title].joined(separator: "~"))
        }).url(base: Self.baseURL)
    }

    /// The bubble's picture: the app's check.
    static let image: ImageSource = .svg(Todo.icon)

    /// Reads the list a message carries.
    /// - Throws: `.malformedURLState` saying what is wrong.
    init(message: Message?) throws(MessagesError) {
        guard let message, Self.carries(message), let url = message.url else {
            throw MessagesError(.malformedURLState, "This message carries no shared to-do list.")
        }
        var items: [Item] = []
        for query in try QueryItems(url: url) {
            guard query.name == "item" else { throw MessagesError(.malformedURLState, "The list carries something besides its items.") }
            let parts = query.value.split(separator: "~", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, parts[0].count == 6, parts[0].allSatisfy({ Self.idCharacters.contains($0) }),
                  let addedBy = ParticipantID(compactString: parts[1]) else {
                throw MessagesError(.malformedURLState, "An item of the list cannot be read.")
            }
            let doneBy = parts[2].isEmpty ? nil : ParticipantID(compactString: parts[2])
            guard parts[2].isEmpty || doneBy != nil else { throw MessagesError(.malformedURLState, "An item's checker is not a participant.") }
            let title = try Self.checked(parts[3])
            guard title == parts[3] else { throw MessagesError(.malformedURLState, "An item's text is not as it is kept.") }
            items.append(Item(id: parts[0], title: title, addedBy: addedBy, doneBy: doneBy))
        }
        guard (1...Self.maxItems).contains(items.count) else {
            throw MessagesError(.malformedURLState, "A list holds from 1 to \(Self.maxItems) items.")
        }
        guard Set(items.map(\.id)).count == items.count else { throw MessagesError(.malformedURLState, "Two items of the list have one id.") }
        self.items = items
    }

    // MARK: What changed

    /// What `sender` did from `old` (nil: started the list) to this list, as the line the message
    /// leaves in the transcript once a later one replaces it ("$ann added “Buy milk”").
    /// - Throws: `.actionRefused` for a change nobody may make: an item added in someone else's
    ///   name, or not at the end; checked off in someone else's name; retitled or taken off by
    ///   anyone but whoever added it; moved; or no change, or more than one.
    func summary(from old: SharedList?, by sender: ParticipantID) throws(MessagesError) -> String {
        guard let old else {
            guard items.count == 1, items[0].addedBy == sender, items[0].doneBy == nil else {
                throw MessagesError(.actionRefused, "A new list starts with one open item of its sender's.")
            }
            return "\(sender.mention) started a to-do list: “\(items[0].title)”"
        }
        if items.count < old.items.count {
            // One item taken off, the rest as they were.
            guard items.count == old.items.count - 1 else { throw MessagesError(.actionRefused, "A message makes one change to the list.") }
            let gone = items.indices.first { items[$0].id != old.items[$0].id } ?? items.count
            let taken = old.items[gone]
            guard taken.addedBy == sender else {
                throw MessagesError(.actionRefused, "An item is taken off the list by whoever added it only.")
            }
            var kept = old.items
            kept.remove(at: gone)
            guard kept == items else { throw MessagesError(.actionRefused, "A message makes one change to the list.") }
            return "\(sender.mention) took “\(taken.title)” off the list"
        }
        var changes: [String] = []
        for (index, item) in items.enumerated() {
            guard index < old.items.count else {
                guard item.addedBy == sender, item.doneBy == nil else {
                    throw MessagesError(.actionRefused, "A new item is added open, in its sender's name.")
                }
                changes.append("added “\(item.title)”")
                continue
            }
            let before = old.items[index]
            guard item.id == before.id, item.addedBy == before.addedBy else {
                throw MessagesError(.actionRefused, "An item on the list may not be moved or given to someone else.")
            }
            if item.title != before.title {
                guard item.addedBy == sender else { throw MessagesError(.actionRefused, "Only whoever added an item changes its text.") }
                guard before.doneBy == nil, item.doneBy == nil else { throw MessagesError(.actionRefused, "A checked-off item keeps its text.") }
                changes.append("changed “\(before.title)” to “\(item.title)”")
            }
            if item.doneBy != before.doneBy {
                if let doneBy = item.doneBy {
                    guard doneBy == sender, before.doneBy == nil else {
                        throw MessagesError(.actionRefused, "An item is checked off in its sender's name only.")
                    }
                    changes.append("checked off “\(item.title)”")
                } else {
                    changes.append("opened “\(item.title)” again")
                }
            }
        }
        guard changes.count == 1, let change = changes.first else {
            throw MessagesError(.actionRefused, changes.isEmpty ? "This message does not change the list." : "A message makes one change to the list.")
        }
        return "\(sender.mention) \(change)"
    }
}
