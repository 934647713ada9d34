extension ImageInspector {
    /// A GIF's logical screen and frame count; its extent takes in every image block, even one
    /// placed outside the screen.
    static func gifGeometry(_ bytes: [UInt8]) throws(ImageParseError) -> ImageGeometry {
        let structure = try GIFStructure(bytes)
        var frames = 0, right = 0, bottom = 0
        for case .image(let image) in structure.blocks {
            frames += 1
            right = max(right, image.left + image.width)
            bottom = max(bottom, image.top + image.height)
        }
        guard frames > 0 else { throw ImageParseError("is a GIF without any image in it") }
        let width = structure.screenWidth, height = structure.screenHeight
        guard width > 0, height > 0 else { throw ImageParseError("is a GIF declaring a size of \(width)×\(height) pixels") }
        let info = ImageInfo(format: .gif, width: width, height: height, frameCount: frames, byteCount: bytes.count)
        return ImageGeometry(info: info, extentWidth: right, extentHeight: bottom)
    }
}
