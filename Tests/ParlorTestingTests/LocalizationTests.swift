import Foundation
import Hello
import ParlorKit
import ParlorTesting
import Testing

/// An app's texts in each person's language (`LocalizedStrings`, `ViewEnvironment.language`,
/// `context.language`), with Hello's French and German tables.
@Suite("An app in each person's language")
struct LocalizationTests {
    @Test("Alice in French and Bob in English each see Hello in their language; the message carries Alice's words, in process and across the app protocol alike", arguments: [false, true])
    func eachInTheirLanguage(outside: Bool) async throws {
        let simulator = outside
            ? ConversationSimulator(participants: ["Alice", "Bob"], hosting: [OutOfProcess.app(Hello())])
            : ConversationSimulator(participants: ["Alice", "Bob"], apps: [Hello()])
        let (alice, bob) = (simulator.participant("Alice"), simulator.participant("Bob"))
        try await alice.setLanguage("fr-CA")
        let french = try await alice.openApp(named: "Hello")
        #expect(french.visibleTexts == ["Salut !", "Bonjour", "C'est la fête 🎉"], "fr-CA falls back to fr: \(french.visibleTexts)")
        try await alice.tap("Salut !")
        #expect(try await alice.sendStaged()?.message?.summaryText == "A dit « Salut ! »", "the summary in the sender's language")

        let opened = try await bob.tapLatestMessage()
        let alicesID = try await alice.participantID(in: "Hello")
        #expect(opened.visibleTexts.contains("Salut !"), "what Alice wrote, as she wrote it")
        #expect(opened.visibleTexts.contains("from \(alicesID.mention)"), "Bob's own words around it: \(opened.visibleTexts)")
        #expect(opened.visibleTexts.suffix(3) == ["Hi!", "Good morning", "Party time 🎉"], "\(opened.visibleTexts)")

        // Bob switches to German: the app open in front of him follows at its next look.
        try await bob.setLanguage("de")
        try await bob.dismissApp()
        #expect(try await bob.openApp(named: "Hello").visibleTexts.contains("Guten Morgen"))
        await #expect(throws: SimulatorError.self) { try await bob.setLanguage("<script>") }
    }
}

@Suite("LocalizedStrings")
struct LocalizedStringsTests {
    static let strings = LocalizedStrings([
        "fr": ["Roll": "Lancer", "from %@": "de %@"], "pt-BR": ["Roll": "Rolar"], "PT": ["Roll": "Lançar"], "zh-Hant": ["Roll": "擲"],
    ])

    @Test("A text is looked up in the person's language, then its base language, else it is the key", arguments: [
        ("fr", "Lancer"), ("fr-CA", "Lancer"), ("FR_ca", "Lancer"), ("pt-BR", "Rolar"), ("pt-PT", "Lançar"), ("pt", "Lançar"),
        ("zh-Hant-TW", "擲"), ("zh", "Roll"), ("en", "Roll"), ("", "Roll"),
    ])
    func lookup(language: String, expected: String) {
        #expect(Self.strings["Roll", language: language] == expected)
    }

    @Test("format fills %@ in order, in the translation's own place; missing values leave the marker")
    func format() {
        #expect(Self.strings.format("from %@", language: "fr", "Alice") == "de Alice")
        #expect(Self.strings.format("from %@", language: "en", "Alice") == "from Alice")
        #expect(Self.strings.format("%@ and %@", language: "en", "A") == "A and %@")
        #expect(Self.strings.format("100%", language: "en", "x") == "100%")
    }

    @Test("Language tags have BCP 47's shape; anything else is refused", arguments: [
        ("fr", "fr"), ("pt-BR", "pt-BR"), ("zh_Hant_TW", "zh-Hant-TW"), ("en-US-x-twain", "en-US-x-twain"),
        ("f", nil), ("", nil), ("fr--CA", nil), ("fr-", nil), ("français", nil), ("en US", nil), ("<script>", nil),
        ("a-b-c-d-e-f-g-h-i", nil), (String(repeating: "abcdefgh-", count: 5), nil),
    ] as [(String, String?)])
    func tags(text: String, expected: String?) {
        #expect(LocalizedStrings.languageTag(text) == expected)
    }
}
