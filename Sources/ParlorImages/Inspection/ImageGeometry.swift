/// What the inspector read from an image's headers, with what the pixel budget needs beyond
/// `ImageInfo`: the area a decoder may be asked to paint.
package struct ImageGeometry: Sendable, Hashable {
    /// The facts callers see.
    package var info: ImageInfo
    /// The width of the area a decoder may paint: the canvas, grown to take in any frame that
    /// reaches past it (a GIF image block may lie outside its logical screen, and some decoders
    /// grow the screen to show it).
    package var extentWidth: Int
    /// The height of that area (see `extentWidth`).
    package var extentHeight: Int

    /// A geometry whose extent is at least the canvas.
    package init(info: ImageInfo, extentWidth: Int? = nil, extentHeight: Int? = nil) {
        self.info = info
        self.extentWidth = max(extentWidth ?? info.width, info.width)
        self.extentHeight = max(extentHeight ?? info.height, info.height)
    }
}
