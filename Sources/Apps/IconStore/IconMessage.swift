import Foundation
import ParlorKit

/// What an Icon Store message says: an icon, shared or liked. Encodes to and decodes from the
/// message URL with the seed's query items (`name`, `imageName`, `description`, `price`), plus
/// `reaction=like` for a like.
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
    /// Whether the message shares an icon or likes one shared in its session.
    public enum Kind: String, Sendable, Hashable {
        /// Someone shares the icon; starts a session.
        case share
        /// Someone likes the icon shared in the message's session; replaces the session's head.
        case like
    }

    /// The icon, as the catalog has it.
    public var icon: Icon
    /// Whether the message shares the icon or likes it.
    public var kind: Kind

    /// A message about `icon`.
    public init(icon: Icon, kind: Kind) {
        self.icon = icon
        self.kind = kind
    }

    /// The query item names, as the seed's `Icon.QueryItemKey`.
    enum Key {
        static let name = "name"
        static let imageName = "imageName"
        static let description = "description"
        static let price = "price"
        static let reaction = "reaction"
    }

    static let baseURL = "https://parlor.example/iconstore"

    /// The query items carried by the message URL.
    public var queryItems: QueryItems {
        var items = QueryItems([
            Key.name: icon.name, Key.imageName: icon.imageName,
            Key.description: icon.description, Key.price: icon.priceValue,
        ])
        if kind == .like { items.append(Key.reaction, Kind.like.rawValue) }
        return items
    }

    /// The message as `sender` sends it in `session`: the icon's image, its name (or, for a like,
    /// who liked it) as caption and its price as subcaption.
    /// - Throws: `MessagesError` when the message breaks a limit of the Messages model.
    public func message(from sender: ParticipantID, in session: Session) throws(MessagesError) -> Message {
        let url = try queryItems.url(base: Self.baseURL)
        switch kind {
        case .share:
            return Message(
                session: session, url: url,
                layout: .template(TemplateLayout(image: icon.image, caption: icon.name, subcaption: icon.price)),
                summaryText: "Shared \(icon.name) (\(icon.price))",
                accessibilityLabel: "\(icon.name), \(icon.price): \(icon.description)")
        case .like:
            let caption = "\(sender.mention) liked \(icon.name)"
            return Message(
                session: session, url: url,
                layout: .template(TemplateLayout(image: icon.image, caption: caption, subcaption: icon.price)),
                summaryText: "Liked \(icon.name)",
                accessibilityLabel: "\(caption), \(icon.price)")
        }
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
        default: throw MessagesError(.malformedURLState, "This icon message carries a reaction the Icon Store does not know.")
        }
        self.icon = icon
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
        case .like:
            guard let head, let liked = try? IconMessage(url: head.url), liked.icon == content.icon else {
                throw MessagesError(.actionRefused, "A like must answer a message that shared \(content.icon.name).")
            }
        }
        let expected = try content.message(from: sender, in: session)
        guard message.url == expected.url, message.layout == expected.layout,
              message.summaryText == expected.summaryText, message.accessibilityLabel == expected.accessibilityLabel
        else {
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
