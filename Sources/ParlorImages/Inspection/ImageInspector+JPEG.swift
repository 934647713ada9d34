extension ImageInspector {
    /// A JPEG's size from its frame headers (every SOFn type); when there are several, the
    /// widest and the tallest count, so no frame is larger than what is reported.
    static func jpegGeometry(_ bytes: [UInt8]) throws(ImageParseError) -> ImageGeometry {
        let structure = try JPEGStructure(bytes)
        var width = 0, height = 0
        var hasFrameHeader = false, hasScan = false
        for case .segment(let marker, let payload) in structure.parts {
            if marker == JPEGStructure.startOfScan {
                guard hasFrameHeader else { throw missingFrameHeader }
                hasScan = true
            }
            guard JPEGStructure.isFrameHeader(marker) else { continue }
            guard payload.count >= 6 else { throw ImageParseError("is a JPEG with a damaged frame header (the file is corrupt)") }
            var reader = ByteReader(bytes, offset: payload.lowerBound + 1, format: "JPEG")  // after the sample precision
            let frameHeight = Int(try reader.uint16BigEndian())
            let frameWidth = Int(try reader.uint16BigEndian())
            guard frameWidth > 0, frameHeight > 0 else {
                throw ImageParseError("is a JPEG declaring a size of \(frameWidth)×\(frameHeight) pixels")
            }
            width = max(width, frameWidth)
            height = max(height, frameHeight)
            hasFrameHeader = true
        }
        guard hasFrameHeader else { throw missingFrameHeader }
        guard hasScan else { throw ImageParseError("is a JPEG without image data (no SOS marker)") }
        return ImageGeometry(info: ImageInfo(format: .jpeg, width: width, height: height, byteCount: bytes.count))
    }

    private static var missingFrameHeader: ImageParseError {
        ImageParseError("is a JPEG without a frame header (no SOF marker before its image data)")
    }
}
