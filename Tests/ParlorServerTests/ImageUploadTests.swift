import Foundation
import ParlorImages
import ParlorInput
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// What a photo tells the people it is sent to: its pixels, and nothing of where, when or with
/// what it was taken; and no image that would unpack into gigabytes in their browsers.
@Suite("Uploaded images: metadata stripped, pixel budget")
struct ImageUploadTests {
    /// Whether `bytes` hold `pattern` anywhere.
    static func contains(_ bytes: Data, _ pattern: [UInt8]) -> Bool {
        let haystack = [UInt8](bytes)
        guard pattern.count <= haystack.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { haystack[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    /// The GPS IFD pointer tag (0x8825) as a little- or big-endian IFD entry starts.
    static let gpsPointers: [[UInt8]] = [[0x25, 0x88, 0x04, 0x00], [0x88, 0x25, 0x00, 0x04]]

    @Test("A photo with a GPS position in its Exif reaches the other member without it, nor the camera or the comment; its orientation and pixels stay")
    func photoLosesItsPosition() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let original = TestImages.jpegWithPosition
            #expect(Self.gpsPointers.contains { Self.contains(original, $0) }, "the test's photo has a GPS IFD to lose")
            let photo = try await AttachmentTests.upload(original, as: alice, in: api)
            #expect(photo.contentType == "image/jpeg")
            #expect(try await AttachmentTests.attach(photo.hash, name: "canal.jpg", in: direct.id, as: alice, api: api).status == .created)

            let received = try await api.get(photo.url, as: bob)
            #expect(received.status == .ok)
            let bytes = received.body
            #expect(!Self.gpsPointers.contains { Self.contains(bytes, $0) }, "no GPS IFD reaches Bob")
            for (numerator, denominator) in TestImages.gpsRationals {
                #expect(!Self.contains(bytes, TestImages.le32(numerator) + TestImages.le32(denominator)), "the position's rational \(numerator)/\(denominator) is gone")
            }
            #expect(!Self.contains(bytes, Array(TestImages.camera.utf8)), "nor the camera")
            #expect(!Self.contains(bytes, Array("Keizersgracht".utf8)), "nor the comment")
            // The photo still turns the right way up: Orientation 6 is the one tag left.
            #expect(Self.contains(bytes, [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06]), "orientation 6 is kept")
            // The pixels are the original's: everything from the first quantization table on is untouched.
            let base = [UInt8](TestImages.jpeg)
            #expect(Array(bytes.suffix(base.count - 20)) == Array(base.suffix(base.count - 20)), "the image data is byte for byte the original's")
            #expect(photo.hash == Digest.sha256Hex(bytes), "the hash is of the cleaned photo")
            #expect(try UploadedImage.prepare([UInt8](bytes)).bytes == [UInt8](bytes), "what is stored is clean already")
        }
    }

    @Test("A profile picture with a position loses it too, for every contact who fetches it")
    func avatarLosesItsPosition() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            _ = try await api.conversation(of: alice, with: [bob])
            let picture = try await api.request(.post, "/api/blobs", as: alice, body: TestImages.jpegWithPosition).decode(Wire.Blob.self)
            let me = try await api.request(.patch, "/api/me", as: alice, json: ["avatar": .string(picture.hash)])
            #expect(me.status == .ok)
            let seen = try await api.get(picture.url, as: bob)
            #expect(seen.status == .ok)
            #expect(!Self.gpsPointers.contains { Self.contains(seen.body, $0) })
            #expect(!Self.contains(seen.body, Array(TestImages.camera.utf8)))
        }
    }

    @Test("An image declaring more pixels than the budget is refused from its headers, as a photo and as a picture, with the limit in the sentence")
    func pixelBombsRefused() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bombs: [(String, Data)] = [
                ("a PNG of 50,000 × 50,000", TestImages.pngDeclaring(width: 50_000, height: 50_000)),
                ("a GIF of 65,535 × 65,535", TestImages.gifDeclaring(width: 65_535, height: 65_535)),
                ("a PNG 16,385 wide", TestImages.pngDeclaring(width: 16_385, height: 10)),
            ]
            for (what, bytes) in bombs {
                #expect(bytes.count < 1024, "\(what) is small on the wire")
                for path in ["/api/blobs?kind=file", "/api/blobs"] {
                    let reply = try await api.request(.post, path, as: alice, body: bytes)
                    #expect(reply.status == .contentTooLarge, "\(what) to \(path): \(reply.status.code)")
                    #expect(reply.errorCode == "imageTooLarge", "\(what)")
                    #expect(reply.text.contains("40 megapixels and 16384 pixels a side"), "\(what): \(reply.text)")
                }
            }
            // A photo of ordinary size passes.
            #expect(try await api.request(.post, "/api/blobs", as: alice, body: TestImages.pngDeclaring(width: 4000, height: 3000)).status == .created)
        }
    }

    @Test("An image that cannot be read is refused rather than sent with whatever it hides; a file that is no image is sent as a download")
    func unreadableImagesRefused() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let cut = TestImages.jpegWithPosition.prefix(300)
            let reply = try await api.request(.post, "/api/blobs?kind=file", as: alice, body: Data(cut))
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "unreadableImage")
            let notes = try await AttachmentTests.upload(Data("minutes of the meeting".utf8), as: alice, in: api)
            #expect(notes.contentType == "application/octet-stream")
        }
    }
}
