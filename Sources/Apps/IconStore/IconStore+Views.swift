import ParlorKit

extension IconStore {
    /// The home grid or the extension's list, with the detail screen over it while presented.
    @ViewBuilder
    public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        switch environment.surface {
        case .home: homeGrid(owned: state.owned)
        case .messages: iconList(owned: state.owned)
        }
        if environment.modal == Self.detailModal, let detail = state.detail {
            detailScreen(detail, state: state, environment: environment)
        }
    }

    /// The seed's original app: a grid of every icon, featured ones first.
    @ViewBuilder
    func homeGrid(owned: Set<String>) -> ViewNode {
        VStack(spacing: 12) {
            Text("Icon Store", style: .largeTitle)
            Grid(label: "Icons", minItemWidth: 140, id: "icon-grid") {
                for icon in IconCatalog.featuredFirst {
                    VStack(alignment: .center, spacing: 4) {
                        Button(
                            icon.name, action: Action.show(icon.imageName), role: .plain, image: icon.image,
                            label: Self.label(of: icon), id: "show-\(icon.imageName)")
                        Text(icon.price, style: .subheadline)
                        if icon.isFeatured { Text("Featured", style: .caption, color: .accent) }
                        if owned.contains(icon.imageName) { Text("Owned", style: .caption, color: .positive) }
                    }
                }
            }
        }
    }

    /// The message extension: the seed's table of icons; tapping a row stages a message.
    @ViewBuilder
    func iconList(owned: Set<String>) -> ViewNode {
        VStack(spacing: 8) {
            Text("Tap an icon to send it.", style: .footnote, color: .secondary)
            List(label: "Icons", id: "icon-list") {
                for icon in IconCatalog.icons {
                    ListRow(label: Self.label(of: icon), action: Action.share(icon.imageName), id: "share-\(icon.imageName)") {
                        Image(icon.image, label: nil, width: 60, height: 60)
                        VStack(spacing: 2) {
                            Text(icon.name, style: .headline)
                            Text(icon.description, style: .caption, color: .secondary)
                            Text(icon.price, style: .subheadline)
                            if owned.contains(icon.imageName) { Text("Owned", style: .caption, color: .positive) }
                        }
                    }
                }
            }
        }
    }

    /// The seed's `IconDetailViewController`: image, name, description, price and Buy; in a
    /// conversation, Like for an icon someone else shared.
    @ViewBuilder
    func detailScreen(_ detail: Detail, state: State, environment: ViewEnvironment) -> ViewNode {
        switch detail {
        case .icon(let imageName):
            if let icon = IconCatalog.icon(imageName: imageName) {
                Modal(title: icon.name) {
                    VStack(alignment: .center, spacing: 20) {
                        Image(icon.image, label: icon.name, width: 256, height: 256, id: "detail-image")
                        VStack(alignment: .center, spacing: 6) {
                            Text(icon.name, style: .title, id: "detail-name")
                            Text(icon.description, style: .body, color: .secondary, id: "detail-description")
                            Text(icon.price, style: .headline, id: "detail-price")
                        }
                        if state.owned.contains(icon.imageName) {
                            Text("Owned", style: .headline, color: .positive, id: "detail-owned")
                        } else if state.confirming == icon.imageName {
                            // Confirm first, as stores do.
                            Text("Buy \(icon.name) for \(icon.price)?", style: .headline, id: "confirm-question")
                            HStack {
                                Button("Cancel", action: Action.cancelPurchase, role: .secondary, label: "Don't buy \(icon.name)", id: "cancel-purchase")
                                Button("Buy for \(icon.price)", action: Action.confirmPurchase(icon.imageName), label: "Confirm: buy \(icon.name) for \(icon.price)", id: "confirm-purchase")
                            }
                        } else {
                            Button("Buy", action: Action.buy(icon.imageName), label: "Buy \(icon.name) for \(icon.price)", id: "buy")
                        }
                        likeButton(for: icon, state: state, environment: environment)
                    }
                }
            }
        case .unavailable(let reason):
            Modal(title: "Icon unavailable") {
                VStack(alignment: .center, spacing: 12) {
                    Text("This icon can't be shown", style: .headline, color: .destructive, id: "detail-error-title")
                    Text(reason, id: "detail-error")
                }
            }
        }
    }

    /// Like, for the icon of a message in a conversation; "Unlike" once this participant likes it.
    /// Who likes it is shown too.
    @ViewBuilder
    func likeButton(for icon: Icon, state: State, environment: ViewEnvironment) -> ViewNode {
        if environment.surface == .messages, let selected = environment.selectedMessage, let session = selected.session,
           let shown = try? IconMessage(url: selected.url) {
            let me = environment.localParticipantIdentifier
            let liked = state.likes[session.id] ?? shown.likedBy.contains(me)
            if let likes = shown.likesText { Text(likes, style: .callout, color: .secondary, id: "likes") }
            if liked {
                Button("♥ Liked", action: Action.unlike, role: .secondary, label: "Unlike \(icon.name)", id: "like")
            } else if selected.senderParticipantIdentifier != me || shown.kind != .share {
                Button("♡ Like", action: Action.like, role: .secondary, label: "Like \(icon.name)", id: "like")
            }
        }
    }

    /// How a screen reader names an icon's cell or row: its name and price.
    static func label(of icon: Icon) -> String { "\(icon.name), \(icon.price)" }
}
