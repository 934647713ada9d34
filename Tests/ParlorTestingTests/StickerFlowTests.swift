import Foundation
import ParlorKit
import ParlorStickers
import ParlorTesting
import Testing

@Suite("Sticker packs in a simulated conversation")
struct StickerFlowTests {
    @Test("Alice opens the Everyday pack, taps the coffee sticker and sends it; Bob and Carol see it from her")
    func sendStickerFromSamplePack() async throws {
        let everyday = try SamplePacks.pack(id: "everyday")
        let simulator = ConversationSimulator(participants: ["Alice", "Bob", "Carol"], stickerPacks: [everyday.pack])
        let alice = simulator.participant("Alice")

        let pack = try await alice.openStickerPack("everyday")
        #expect(pack.stickers.count >= 12)
        let coffee = try #require(pack.stickers.first { $0.id == "everyday/Coffee.png" })
        try await alice.tapSticker(coffee.localizedDescription)
        #expect(await alice.staged() == .sticker(coffee))
        let posted = try await alice.sendStaged()
        #expect(posted?.content == .sticker(coffee))
        #expect(await alice.staged() == nil)

        for name in ["Bob", "Carol"] {
            let line = try #require(try await simulator.participant(name).transcript().last)
            #expect(line.sender == "Alice")
            #expect(line.kind == .bubble)
            #expect(line.text == "A red mug of hot coffee with steam rising and a white heart on it")
            #expect(line.posted.content == .sticker(coffee))
        }
        // What the others' clients fetch for the sticker is the pack's PNG.
        let image = try #require(everyday.sticker(withID: coffee.id))
        #expect(coffee.image == .asset("Coffee.png"))
        #expect(try image.data().starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("Bob answers with the animated heart: Alice receives an APNG sticker after her own message")
    func replyWithAnimatedSticker() async throws {
        let everyday = try SamplePacks.pack(id: "everyday")
        let simulator = ConversationSimulator(participants: ["Alice", "Bob"], stickerPacks: [everyday.pack])
        try await simulator.participant("Alice").send(text: "Good morning!")
        let bob = simulator.participant("Bob")
        try await bob.openStickerPack("everyday")
        try await bob.tapSticker("everyday/Heartbeat.png")
        try await bob.sendStaged()

        let transcript = try await simulator.participant("Alice").transcript()
        #expect(transcript.map(\.sender) == ["Alice", "Bob"])
        #expect(transcript.last?.text == "A red heart beating with love")
        guard case .sticker(let sticker)? = transcript.last?.posted.content else {
            Issue.record("Bob's message should be a sticker")
            return
        }
        let heart = try #require(everyday.sticker(withID: sticker.id))
        #expect(heart.image.format == .apng && heart.image.frameCount == 8)
    }
}
