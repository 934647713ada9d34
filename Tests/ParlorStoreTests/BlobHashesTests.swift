import Foundation
import ParlorKit
import ParlorStore
import Testing

/// The uploads a message shows (`StoredContent.blobHashes`): what the store links to its
/// conversation, so that its members may fetch them, and what the server checks the sender may see.
@Suite("The uploads a message shows")
struct BlobHashesTests {
    static let id = String(repeating: "ab", count: 32)

    @Test("An attachment's file, an app message's uploaded template image and an app-made sticker's upload; nothing else")
    func hashes() throws {
        #expect(StoredContent.attachment(StoredAttachment(hash: Self.id, name: "a.png", contentType: "image/png", size: 3)).blobHashes == [Self.id])
        let shown = Message(layout: .template(TemplateLayout(image: .upload(Self.id), caption: "A sketch")))
        #expect(StoredContent.app(shown).blobHashes == [Self.id])
        let drawn = Message(layout: .template(TemplateLayout(image: .svg("<svg/>"), caption: "Inline")))
        #expect(StoredContent.app(drawn).blobHashes.isEmpty)
        let sticker = try Sticker(id: "org.example.sketch/1", image: .upload(Self.id), localizedDescription: "A sketch")
        #expect(StoredContent.sticker(sticker).blobHashes == [Self.id])
        let packed = try Sticker(id: "classic/owl.png", image: .asset("owl.png"), localizedDescription: "Owl")
        #expect(StoredContent.sticker(packed).blobHashes.isEmpty)
        #expect(StoredContent.text("/blobs/\(Self.id)").blobHashes.isEmpty, "an address in a text is not a link to the upload")
    }
}
