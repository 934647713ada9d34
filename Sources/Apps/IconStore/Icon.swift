import ParlorKit

/// An icon for sale: the seed's `Icon`, shared by the store's home surface and its message
/// extension. Prices are whole cents, so a price read from a message compares exactly.
public struct Icon: Sendable, Hashable, Codable, Identifiable {
    /// The name shown to people ("Cat icon").
    public var name: String
    /// The icon's file in the app's `Assets` folder, without the `.png` extension; unique in the catalog.
    public var imageName: String
    /// Who designed it, as the store describes it.
    public var description: String
    /// The price in whole cents (299 for $2.99).
    public var priceInCents: Int
    /// Whether the home grid shows the icon first.
    public var isFeatured: Bool

    /// An icon; the store's icons are `IconCatalog.icons`.
    public init(name: String, imageName: String, description: String, priceInCents: Int, isFeatured: Bool) {
        self.name = name
        self.imageName = imageName
        self.description = description
        self.priceInCents = priceInCents
        self.isFeatured = isFeatured
    }

    /// The image name, unique in the catalog.
    public var id: String { imageName }

    /// The icon's image file.
    public var image: ImageSource { .asset(imageName + ".png") }

    /// The price as shown to people: `$2.99`.
    public var price: String { "$" + Icon.decimalPrice(priceInCents) }

    /// The price as a message URL carries it, as the seed's `String(price)` wrote it: `2.99`.
    public var priceValue: String { Icon.decimalPrice(priceInCents) }

    static func decimalPrice(_ cents: Int) -> String {
        let fraction = cents % 100
        return "\(cents / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// Reads a price written as dollars with up to two decimals (`2.99`, `2.9`, `3`); nil for
    /// anything else (signs, exponents, more decimals, over a million dollars).
    static func cents(fromPriceValue text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, (1...6).contains(whole.count),
              whole.allSatisfy(\.isASCIIDigit), let dollars = Int(whole)
        else { return nil }
        guard parts.count == 2 else { return dollars * 100 }
        let fraction = parts[1]
        guard (1...2).contains(fraction.count), fraction.allSatisfy(\.isASCIIDigit), let value = Int(fraction) else { return nil }
        return dollars * 100 + (fraction.count == 1 ? value * 10 : value)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
