/// The icons the store sells: the seed's `IconData.iconSet`, defined once and read by both the
/// home surface and the message extension. It is the truth for every name, description and price;
/// a message that disagrees with it is refused.
public enum IconCatalog {
    private static let halloween = "Halloween icon designed by Tania Raskalova."
    private static let colorful = "Colorful icon designed by Marin Begović."

    /// Every icon, in the seed's order.
    public static let icons: [Icon] = [
        Icon(name: "Candle icon", imageName: "candle", description: "Halloween icons designed by Tania Raskalova.", priceInCents: 399, isFeatured: false),
        Icon(name: "Cat icon", imageName: "cat", description: halloween, priceInCents: 299, isFeatured: true),
        Icon(name: "Dribbble icon", imageName: "dribbble", description: halloween, priceInCents: 199, isFeatured: false),
        Icon(name: "Ghost icon", imageName: "ghost", description: halloween, priceInCents: 499, isFeatured: false),
        Icon(name: "Hat icon", imageName: "hat", description: halloween, priceInCents: 299, isFeatured: false),
        Icon(name: "Owl icon", imageName: "owl", description: halloween, priceInCents: 599, isFeatured: true),
        Icon(name: "Pot icon", imageName: "pot", description: halloween, priceInCents: 199, isFeatured: false),
        Icon(name: "Pumpkin icon", imageName: "pumkin", description: halloween, priceInCents: 99, isFeatured: false),
        Icon(name: "RIP icon", imageName: "rip", description: halloween, priceInCents: 799, isFeatured: false),
        Icon(name: "Skull icon", imageName: "skull", description: halloween, priceInCents: 899, isFeatured: false),
        Icon(name: "Sky icon", imageName: "sky", description: halloween, priceInCents: 99, isFeatured: false),
        Icon(name: "Toxic icon", imageName: "toxic", description: halloween, priceInCents: 299, isFeatured: false),
        Icon(name: "Book icon", imageName: "ic_book", description: colorful, priceInCents: 299, isFeatured: false),
        Icon(name: "Backpack icon", imageName: "ic_backpack", description: colorful, priceInCents: 399, isFeatured: false),
        Icon(name: "Camera icon", imageName: "ic_camera", description: "Colorful camera icon designed by Marin Begović.", priceInCents: 499, isFeatured: false),
        Icon(name: "Coffee icon", imageName: "ic_coffee", description: colorful, priceInCents: 399, isFeatured: true),
        Icon(name: "Glasses icon", imageName: "ic_glasses", description: colorful, priceInCents: 399, isFeatured: false),
        Icon(name: "Icecream icon", imageName: "ic_ice_cream", description: colorful, priceInCents: 499, isFeatured: false),
        Icon(name: "Smoking pipe icon", imageName: "ic_smoking_pipe", description: colorful, priceInCents: 699, isFeatured: false),
        Icon(name: "Vespa icon", imageName: "ic_vespa", description: colorful, priceInCents: 999, isFeatured: false),
    ]

    /// The featured icons, then the others, each group in catalog order: the home grid's order.
    public static var featuredFirst: [Icon] {
        icons.filter(\.isFeatured) + icons.filter { !$0.isFeatured }
    }

    /// The icon whose image name is `imageName`, if the store sells it.
    public static func icon(imageName: String) -> Icon? {
        icons.first { $0.imageName == imageName }
    }
}
