import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Message contents come back exactly as sent")
struct ContentRoundTripTests {
    /// Texts a store could mangle: accents composed and decomposed, emoji sequences, right-to-left
    /// script, escapes, quotes, NUL and other control characters, and an empty message.
    static let texts = [
        "Hello",
        "Gr\u{FC}\u{DF}e", "Gru\u{308}\u{DF}e",
        "👩‍👩‍👧‍👦 👋🏽 🇯🇵 ❤️",
        "مرحبا بالعالم — שלום",
        "line one\nline two\r\n\ttabbed \"quoted\" \\ back\\slash 'single' % _ ? ;",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u{200B}zero\u{200D}width\u{FEFF}",
        "\u{0}nul\u{0}inside and at the end\u{0}", "\u{1}\u{7}\u{1B}[0m\u{7F}\u{85}",
        "",
        String(repeating: "long ", count: 2_000),
    ]

    @Test("Text messages keep every Unicode scalar", arguments: StoreBackend.all)
    func textRoundTrip(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            for text in Self.texts { try await store.send(text, from: alice, in: conversation) }
            let stored = try await store.allMessages(in: conversation)
            #expect(stored.count == Self.texts.count)
            for (message, text) in zip(stored, Self.texts) {
                guard case .text(let storedText, _, _) = message.content else {
                    Issue.record("Message \(message.sequence) came back as \(message.content.kind)")
                    continue
                }
                #expect(Array(storedText.unicodeScalars) == Array(text.unicodeScalars))
            }
        }
    }

    @Test("Sticker messages come back with their id, image and description; a placed sticker with where it was placed", arguments: StoreBackend.all)
    func stickerRoundTrip(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let stickers = [
                try Sticker(id: "cats/wave.png", image: .asset("wave.png"), localizedDescription: "A cat waving 👋"),
                try Sticker(
                    id: "shapes/star", image: .svg("<svg xmlns='http://www.w3.org/2000/svg'><text>★ é</text></svg>"),
                    localizedDescription: "Étoile"),
            ]
            var sent: [StoredMessage] = []
            for sticker in stickers {
                let new = NewMessage(id: MessageID(), conversationID: conversation.id, sender: bob.id, content: .sticker(sticker))
                sent.append(try await store.append(new, validate: acceptAll).message)
            }
            // The second sticker placed again, near the first one's top right corner.
            let placement = StickerPlacement(message: sent[0].id, x: 0.875, y: 0.125)
            let placed = NewMessage(
                id: MessageID(), conversationID: conversation.id, sender: alice.id, content: .sticker(stickers[1], placement: placement))
            sent.append(try await store.append(placed, validate: acceptAll).message)
            #expect(sent.map(\.content) == stickers.map { .sticker($0) } + [.sticker(stickers[1], placement: placement)])
            #expect(sent.last?.content.placement == placement)
            #expect(try await store.allMessages(in: conversation) == sent)
        }
    }

    @Test("An app message with every field set, a live layout and a session comes back equal", arguments: StoreBackend.all)
    func fullAppMessageRoundTrip(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let conversation = try await store.makeConversation(alice, bob)
            let messages = [Self.liveMessage(), Self.templateMessage()]
            for message in messages {
                let new = NewMessage(id: message.id, conversationID: conversation.id, sender: alice.id, content: .app(message))
                let stored = try await store.append(new, validate: acceptAll).message
                #expect(stored.content == .app(message))
                #expect(stored.transcriptSessionID == message.session?.id)
            }
            let stored = try await store.allMessages(in: conversation)
            #expect(stored.map(\.content) == messages.map(StoredContent.app))
            #expect(stored.first?.content.appMessage?.url?.absoluteString == messages.first?.url?.absoluteString)
            let session = try #require(messages.first?.session)
            #expect(try await store.sessionHead(session.id, in: conversation.id) == stored.first)
        }
    }

    /// A live-layout message with every field of `Message` and of its alternate layout set.
    static func liveMessage() -> Message {
        let participant = ParticipantID()
        var message = Message(
            session: Session(),
            url: URL(string: "https://example.org/tictactoe?board=x--o-x---&turn=o&note=caf%C3%A9%20%F0%9F%98%80#move-4"),
            layout: .live(LiveLayout(alternateLayout: TemplateLayout(
                image: .svg("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 3 3'><rect width='1' height='1'/></svg>"),
                mediaFileURL: URL(string: "https://example.org/replay.mp4"),
                imageTitle: "Tic-Tac-Toe", imageSubtitle: "Move 4",
                caption: "\(participant.mention), your move", subcaption: "X · O",
                trailingCaption: "2–1", trailingSubcaption: "🏆"))),
            summaryText: "Alice played X in the centre",
            accessibilityLabel: "A tic-tac-toe board, X to the centre",
            shouldExpire: true)
        message.senderParticipantIdentifier = participant
        message.isPending = false
        message.appID = "org.parlor.tictactoe"
        return message
    }

    /// A template-layout message with an asset image and a `data:` URL.
    static func templateMessage() -> Message {
        var message = Message(
            url: URL(string: "data:text/plain;charset=utf-8,r%C3%A9sum%C3%A9"),
            layout: .template(TemplateLayout(image: .asset("poster.png"), caption: "RSVP: Friday 🎉")))
        message.senderParticipantIdentifier = ParticipantID()
        message.isPending = false
        message.appID = "org.parlor.rsvp"
        return message
    }
}

@Suite("A cluster upgraded one node at a time")
struct NewerContentTests {
    @Test("A kind of conversation line written by a newer node is read as a change, not as a page that fails to load; the lines this node knows still read as themselves")
    func newerLine() throws {
        let decoder = JSONDecoder()
        let newer = #"{"kind":"event","event":{"wallpaper":{"colour":"teal"}}}"#
        #expect(try decoder.decode(StoredContent.self, from: Data(newer.utf8)) == .event(.unknown))
        let people = [UserID(), UserID()]
        let every: [ConversationEvent] = [
            .added(people: people), .removed(person: people[0]), .left, .renamed(title: "Friday"), .renamed(title: nil),
            .admin(person: people[1], isAdmin: true), .photo(isSet: true), .unknown,
        ]
        for known in every {
            let written = try JSONEncoder().encode(StoredContent.event(known))
            #expect(try decoder.decode(StoredContent.self, from: written) == .event(known))
            let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
            let kind = try #require((object["event"] as? [String: Any])?.keys.first)
            #expect(ConversationEvent.kinds.contains(kind), "\(kind) is listed among the kinds")
        }
        let damaged = #"{"kind":"event","event":{"renamed":{"title":7}}}"#
        #expect(throws: DecodingError.self, "a known kind that cannot be read is an error, not a change") {
            try decoder.decode(StoredContent.self, from: Data(damaged.utf8))
        }
    }
}
