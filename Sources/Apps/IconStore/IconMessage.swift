import Foundation
import ParlorKit

/// What an Icon Store message says: an icon shared, or the likes of an icon shared in its
/// session. Encodes to and decodes from the message URL with the seed's query items (`name`,
/// `imageName`, `description`, `price`), plus, for a reply, `reaction` (`like` or `unlike`: what
/// its sender did) and one `likedBy` item per person who likes the icon now.
///
/// A reply keeps the icon in full: the bubble still shows the image, name and price, with who
/// likes it, so a like never replaces the thing liked.
///
/// Decoding checks the URL against `IconCatalog`, the truth for names, descriptions and prices:
/// a URL that is damaged, incomplete, names an unknown icon or disagrees with the catalog throws
/// a `MessagesError` whose message can be shown as it is.
///
/// ```swift
/// let shared = try IconMessage(icon: cat, kind: .share).message(from: me, in: Session())
/// let read = try IconMessage(url: shared.url)   // read.icon == cat
/// ```
public struct IconMessage: Sendable, Hashable {
    /// What the message's sender did.
    public enum Kind: String, Sendable, Hashable {
        /// Shares the icon; starts a session.
        case share
        /// Likes the icon shared in the message's session; replaces the session's head.
        case like
        /// Takes back their like; replaces the session's head.
        case unlike
    }

    /// The icon, as the catalog has it.
    public var icon: Icon
    /// What the sender did.
    public var kind: Kind
    /// Who likes the icon with this message, in the order they liked it (none for a share).
    public var likedBy: [ParticipantID]

    /// A message about `icon`.
    public init(icon: Icon, kind: Kind, likedBy: [ParticipantID] = []) {
        self.icon = icon
        self.kind = kind
        self.likedBy = likedBy
    }

    /// The reply `sender` sends to this message to like the icon (`liking`) or take the like back:
    /// nil when that changes nothing (they already like it, or do not).
    public func reply(by sender: ParticipantID, liking: Bool) -> IconMessage? {
        guard likedBy.contains(sender) != liking else { return nil }
        let likes = liking ? likedBy + [sender] : likedBy.filter { $0 != sender }
        return IconMessage(icon: icon, kind: liking ? .like : .unlike, likedBy: likes)
    }

    /// The query item names, as the seed's `Icon.QueryItemKey`.
    enum Key {
        static let name = "name"
        static let imageName = "imageName"
        static let description = "description"
        static let price = "price"
        static let reaction = "reaction"
        static let likedBy = "likedBy"
    }

    static let baseURL = "https://parlor.example/iconstore"

    /// The query items carried by the message URL.
    public var queryItems: QueryItems {
        var items = QueryItems([
            Key.name: icon.name, Key.imageName: icon.imageName,
            Key.description: icon.description, Key.price: icon.priceValue,
        ])
        if kind != .share {
            items.append(Key.reaction, kind.rawValue)
            for participant in likedBy { items.append(Key.likedBy, participant.description) }
        }
        return items
    }

    /// Who likes it, as the bubble says it: "♥ $bob", "♥ $bob and $carol", "♥ $bob, $carol and 2
    /// more"; nil when nobody does.
    public var likesText: String? {
        let names = likedBy.map(\.mention)
        switch names.count {
        case 0: return nil
        case 1: return "♥ \(names[0])"
        case 2: return "♥ \(names[0]) and \(names[1])"
        default: return "♥ \(names[0]), \(names[1]) and \(names.count - 2) more"
        }
    }

    /// The message as `sender` sends it in `session`: the icon's image, name and price, and who
    /// likes it.
    /// - Throws: `MessagesError` when the message breaks a limit of the Messages model (a
    ///   `.urlExceedsMaxSize` when more people like it than a message can name).
    public func message(from sender: ParticipantID, in session: Session) throws(MessagesError) -> Message {
        let url: URL
        do throws(MessagesError) {
            url = try queryItems.url(base: Self.baseURL)
        } catch where error.code == .urlExceedsMaxSize {
            throw MessagesError(.urlExceedsMaxSize, "\(icon.name) has as many likes as a message can carry; share it again to start over.")
        }
        let layout = TemplateLayout(image: icon.image, caption: icon.name, subcaption: icon.price, trailingSubcaption: likesText)
        let likes = likesText.map { " " + $0.replacingOccurrences(of: "♥", with: "Liked by") + "." } ?? ""
        let summary = switch kind {
        case .share: "\(sender.mention) shared \(icon.name) (\(icon.price))"
        case .like: "\(sender.mention) liked \(icon.name)"
        case .unlike: "\(sender.mention) unliked \(icon.name)"
        }
        return Message(
            session: session, url: url, layout: .template(layout), summaryText: summary,
            accessibilityLabel: "\(icon.name), \(icon.price): \(icon.description)\(likes)", answersSession: kind != .share)
    }

    /// Reads a message URL and checks it against the catalog.
    /// - Throws: `.malformedURLState` for a missing, damaged or incomplete URL; `.actionRefused` for
    ///   an icon the store does not sell, or a name, description or price the catalog disagrees with.
    public init(url: URL?) throws(MessagesError) {
        guard let url else { throw MessagesError(.malformedURLState, "This message carries no icon.") }
        let items: QueryItems
        do {
            items = try QueryItems(url: url)
        } catch {
            throw MessagesError(.malformedURLState, "This icon message is damaged and cannot be read.")
        }
        let imageName = try Self.value(Key.imageName, describedAs: "icon", in: items)
        let name = try Self.value(Key.name, describedAs: "name", in: items)
        let description = try Self.value(Key.description, describedAs: "description", in: items)
        let priceValue = try Self.value(Key.price, describedAs: "price", in: items)

        guard let icon = IconCatalog.icon(imageName: imageName) else {
            throw MessagesError(.actionRefused, "The Icon Store has no icon called \(Self.quoted(imageName)).")
        }
        guard name == icon.name else {
            throw MessagesError(.actionRefused, "This message calls the icon \(Self.quoted(name)), but the Icon Store calls it '\(icon.name)'.")
        }
        guard description == icon.description else {
            throw MessagesError(.actionRefused, "This message's description of \(icon.name) is not the Icon Store's.")
        }
        guard let cents = Icon.cents(fromPriceValue: priceValue) else {
            throw MessagesError(.malformedURLState, "This message's price \(Self.quoted(priceValue)) is not a price.")
        }
        guard cents == icon.priceInCents else {
            throw MessagesError(
                .actionRefused,
                "This message says \(icon.name) costs $\(Icon.decimalPrice(cents)), but the Icon Store sells it for \(icon.price).")
        }
        switch items.values(Key.reaction) {
        case []: kind = .share
        case [Kind.like.rawValue]: kind = .like
        case [Kind.unlike.rawValue]: kind = .unlike
        default: throw MessagesError(.malformedURLState, "This icon message carries a reaction the Icon Store does not know.")
        }
        let likedBy = items.values(Key.likedBy).compactMap(ParticipantID.init(_:))
        guard likedBy.count == items.values(Key.likedBy).count, Set(likedBy).count == likedBy.count,
              kind != .share || likedBy.isEmpty
        else {
            throw MessagesError(.malformedURLState, "This icon message's list of likes is damaged.")
        }
        self.icon = icon
        self.likedBy = likedBy
    }

    /// Checks a message before the host commits it: its URL decodes against the catalog, and its
    /// layout and texts are exactly what the app makes for that icon and that sender, so a client
    /// cannot forge a price, a description, or someone else's like.
    /// - Throws: `MessagesError(.actionRefused)` saying what is wrong.
    public static func validate(_ message: Message, replacing head: Message?) throws(MessagesError) {
        let content: IconMessage
        do {
            content = try IconMessage(url: message.url)
        } catch {
            throw MessagesError(.actionRefused, error.message)
        }
        guard let sender = message.senderParticipantIdentifier, let session = message.session else {
            throw MessagesError(.actionRefused, "An icon message needs a sender and a session.")
        }
        switch content.kind {
        case .share:
            guard head == nil else {
                throw MessagesError(.actionRefused, "A shared icon starts its own thread; it cannot replace another message.")
            }
        case .like, .unlike:
            guard let head, let current = try? IconMessage(url: head.url), current.icon == content.icon else {
                throw MessagesError(.actionRefused, "A like must answer a message that shared \(content.icon.name).")
            }
            // Only the sender's own like may change, and only in the way the reaction says.
            guard current.reply(by: sender, liking: content.kind == .like) == content else {
                throw MessagesError(.actionRefused, "A like may change only its sender's own like of \(content.icon.name).")
            }
        }
        let expected = try content.message(from: sender, in: session)
        guard message.showsTheSame(as: expected) else {
            throw MessagesError(.actionRefused, "This message does not show \(content.icon.name) as the Icon Store does.")
        }
    }

    /// The one non-empty value named `key`.
    private static func value(_ key: String, describedAs what: String, in items: QueryItems) throws(MessagesError) -> String {
        let values = items.values(key)
        guard values.count <= 1 else {
            throw MessagesError(.malformedURLState, "This icon message gives its \(what) more than once.")
        }
        guard let value = values.first, !value.isEmpty else {
            throw MessagesError(.malformedURLState, "This icon message is incomplete: it has no \(what).")
        }
        return value
    }

    /// Untrusted text, shortened and quoted for an error message.
    private static func quoted(_ text: String) -> String {
        "'" + (text.count > 40 ? text.prefix(40) + "…" : text) + "'"
    }
}
