import Foundation

extension ViewNode {
    /// This tree with every image source put through `transform`: images, buttons' images and the
    /// stickers of sticker browsers. A host points remote images at its image proxy this way
    /// before a view leaves it; apps have no need of it.
    /// - Parameter transform: the source to show instead of each one.
    public func mappingImages(_ transform: (ImageSource) -> ImageSource) -> ViewNode {
        func children(_ nodes: [ViewNode]) -> [ViewNode] { nodes.map { $0.mappingImages(transform) } }
        switch self {
        case .image(var node):
            node.source = transform(node.source)
            return .image(node)
        case .button(var node):
            node.image = node.image.map(transform)
            return .button(node)
        case .stickerBrowser(var node):
            node.stickers = node.stickers.map { sticker in
                var sticker = sticker
                sticker.image = transform(sticker.image)
                return sticker
            }
            return .stickerBrowser(node)
        case .stack(var node):
            node.children = children(node.children)
            return .stack(node)
        case .list(var node):
            node.children = children(node.children)
            return .list(node)
        case .row(var node):
            node.children = children(node.children)
            return .row(node)
        case .grid(var node):
            node.children = children(node.children)
            return .grid(node)
        case .modal(var node):
            node.children = children(node.children)
            return .modal(node)
        case .group(var node):
            node.children = children(node.children)
            return .group(node)
        case .text, .textField, .toggle, .picker, .link, .webPage, .spacer, .divider:
            return self
        }
    }
}
