import Foundation
import ParlorKit
import Testing

@Suite("Message limits")
struct MessageValidationTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    private func code(of body: () throws -> Void) -> MessagesError.Code? {
        do {
            try body()
            return nil
        } catch let error as MessagesError {
            return error.code
        } catch {
            Issue.record("expected a MessagesError, got \(error)")
            return nil
        }
    }

    /// A URL of exactly `length` characters with the given scheme.
    private func url(scheme: String, length: Int) throws -> URL {
        let prefix = "\(scheme)://example.org/"
        let made = try url(prefix + String(repeating: "a", count: length - prefix.count))
        #expect(made.absoluteString.count == length)
        return made
    }

    @Test("http, https and data URLs are accepted, in any letter case", arguments: [
        "http://example.org/a?b=c", "https://example.org/", "data:text/plain,hello", "HTTPS://EXAMPLE.ORG/x",
    ])
    func allowedSchemes(_ text: String) throws {
        let message = Message(url: try url(text))
        #expect(code { try message.validate() } == nil)
    }

    @Test("ftp, javascript, file and scheme-less URLs are refused as improperFileURL", arguments: [
        "ftp://example.org/file", "javascript:alert(1)", "file:///etc/passwd", "example.org/no-scheme", "/just/a/path",
        "mailto:someone@example.org",
    ])
    func refusedSchemes(_ text: String) throws {
        let refused = try url(text)
        #expect(code { try Message(url: refused).validate() } == .improperFileURL)
        #expect(code { try Message.validateURL(refused) } == .improperFileURL)
    }

    @Test("A message without a URL is valid")
    func noURL() {
        #expect(code { try Message().validate() } == nil)
    }

    @Test("A URL of exactly 5,000 characters passes; 5,001 is urlExceedsMaxSize")
    func urlLengthLimit() throws {
        #expect(Limits.maxURLLength == 5_000)
        let atLimit = try url(scheme: "https", length: 5_000), overLimit = try url(scheme: "https", length: 5_001)
        #expect(code { try Message(url: atLimit).validate() } == nil)
        #expect(code { try Message(url: overLimit).validate() } == .urlExceedsMaxSize)
        let longData = try url("data:text/plain," + String(repeating: "x", count: 5_000))
        #expect(code { try Message(url: longData).validate() } == .urlExceedsMaxSize)
    }

    @Test("The scheme is checked before the length: a long ftp URL is improperFileURL")
    func schemeBeforeLength() throws {
        let longFTP = try url(scheme: "ftp", length: 6_000)
        #expect(code { try Message(url: longFTP).validate() } == .improperFileURL)
    }

    @Test("Every caption field takes 500 characters and refuses 501 as textExceedsMaxSize, template or live")
    func captionLengths() {
        let captionFields: [(String, WritableKeyPath<TemplateLayout, String?>)] = [
            ("imageTitle", \.imageTitle), ("imageSubtitle", \.imageSubtitle), ("caption", \.caption),
            ("subcaption", \.subcaption), ("trailingCaption", \.trailingCaption), ("trailingSubcaption", \.trailingSubcaption),
        ]
        for (name, field) in captionFields {
            var layout = TemplateLayout()
            layout[keyPath: field] = String(repeating: "é", count: 500)
            #expect(code { try Message(layout: .template(layout)).validate() } == nil, "\(name) at 500")
            layout[keyPath: field] = String(repeating: "é", count: 501)
            #expect(code { try Message(layout: .template(layout)).validate() } == .textExceedsMaxSize, "\(name) at 501")
            let live = MessageLayout.live(LiveLayout(alternateLayout: layout))
            #expect(code { try Message(layout: live).validate() } == .textExceedsMaxSize, "live \(name) at 501")
        }
    }

    @Test("Summary text and accessibility label take 500 characters and refuse 501")
    func summaryAndAccessibilityLengths() {
        let ok = String(repeating: "x", count: 500), tooLong = String(repeating: "x", count: 501)
        #expect(code { try Message(summaryText: ok, accessibilityLabel: ok).validate() } == nil)
        #expect(code { try Message(summaryText: tooLong).validate() } == .textExceedsMaxSize)
        #expect(code { try Message(accessibilityLabel: tooLong).validate() } == .textExceedsMaxSize)
    }

    @Test("Emoji count as one character each toward a text limit")
    func emojiCountOnce() {
        let caption = String(repeating: "🎉", count: 500)
        #expect(code { try Message(layout: .template(TemplateLayout(caption: caption))).validate() } == nil)
    }

    @Test("A caption cannot hide megabytes behind one visible character with combining marks")
    func combiningMarksCount() {
        let zalgo = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(zalgo.count == 1)
        #expect(code { try Message(layout: .template(TemplateLayout(caption: zalgo))).validate() } == .textExceedsMaxSize)
        #expect(code { try Message(summaryText: zalgo).validate() } == .textExceedsMaxSize)
    }

    @Test("An inline data image of 256 KiB passes; one character more is mediaExceedsMaxSize")
    func inlineImageLimit() throws {
        let prefix = "data:image/png;base64,"
        let fits = try url(prefix + String(repeating: "A", count: Limits.maxInlineImageLength - prefix.count))
        let over = try url(prefix + String(repeating: "A", count: Limits.maxInlineImageLength - prefix.count + 1))
        #expect(code { try TemplateLayout(image: .url(fits)).validate() } == nil)
        #expect(code { try TemplateLayout(image: .url(over)).validate() } == .mediaExceedsMaxSize)
        #expect(code { try TemplateLayout(mediaFileURL: over).validate() } == .mediaExceedsMaxSize)
        #expect(code { try Message(layout: .template(TemplateLayout(image: .url(over)))).validate() } == .mediaExceedsMaxSize)
    }

    @Test("A linked image or media URL of 5,000 characters passes; 5,001 is urlExceedsMaxSize")
    func linkedImageLimit() throws {
        let fits = try url(scheme: "https", length: 5_000), over = try url(scheme: "https", length: 5_001)
        #expect(code { try TemplateLayout(image: .url(fits)).validate() } == nil)
        #expect(code { try TemplateLayout(image: .url(over)).validate() } == .urlExceedsMaxSize)
        #expect(code { try TemplateLayout(mediaFileURL: over).validate() } == .urlExceedsMaxSize)
        let huge = try url(scheme: "https", length: 1_000_000)
        #expect(code { try Message(layout: .live(LiveLayout(alternateLayout: TemplateLayout(image: .url(huge))))).validate() } == .urlExceedsMaxSize)
    }

    @Test("Layout images must use http, https or data; asset names must be plain file names")
    func imageSources() throws {
        let ftp = try url("ftp://example.org/a.png"), https = try url("https://example.org/a.png")
        #expect(code { try ImageSource.url(ftp).validate() } == .improperFileURL)
        #expect(code { try ImageSource.url(https).validate() } == nil)
        #expect(code { try ImageSource.svg("<svg xmlns='http://www.w3.org/2000/svg'/>").validate() } == nil)
        #expect(code { try ImageSource.asset("icon.png").validate() } == nil)
        for bad in ["", "../secret.png", "dir/icon.png", String(repeating: "a", count: 201)] {
            #expect(code { try ImageSource.asset(bad).validate() } == .fileNotFound, "asset '\(bad.prefix(20))'")
        }
    }

    @Test("An SVG image carries its markup intact in its data URL")
    func svgRoundTrip() throws {
        let markup = #"<svg xmlns="http://www.w3.org/2000/svg"><text>a & b → 🎉 100%</text></svg>"#
        guard case .url(let url) = ImageSource.svg(markup) else {
            Issue.record("svg(_:) should make a URL source")
            return
        }
        #expect(url.scheme == "data")
        let encoded = try #require(url.absoluteString.split(separator: ",", maxSplits: 1).last)
        #expect(String(encoded).removingPercentEncoding == markup)
    }

    @Test("A sticker description of 150 characters is accepted; 151 is stickerFileImproperFileAttributes")
    func stickerDescription() throws {
        let image = ImageSource.asset("party.png")
        _ = try Sticker(id: "party/1", image: image, localizedDescription: String(repeating: "d", count: 150))
        #expect(throws: MessagesError.self) {
            _ = try Sticker(id: "party/1", image: image, localizedDescription: String(repeating: "d", count: 151))
        }
        do {
            _ = try Sticker(id: "party/1", image: image, localizedDescription: String(repeating: "d", count: 151))
        } catch {
            #expect(error.code == .stickerFileImproperFileAttributes)
        }
        let zalgo = "d" + String(repeating: "\u{301}", count: 2_000)  // one character, counted as 251
        #expect(throws: MessagesError.self) { _ = try Sticker(id: "party/2", image: image, localizedDescription: zalgo) }
    }

    @Test("Plain text falls back from accessibility label to captions to summary")
    func plainText() {
        var message = Message(layout: .template(TemplateLayout(caption: "Dinner", subcaption: "", trailingCaption: "8 pm")), summaryText: "Voted")
        #expect(message.plainText == "Dinner · 8 pm")
        message.accessibilityLabel = "Poll: dinner at 8"
        #expect(message.plainText == "Poll: dinner at 8")
        #expect(Message(summaryText: "Voted").plainText == "Voted")
        #expect(TemplateLayout(imageTitle: "Only a title").hasCaptionBar == false)
        #expect(TemplateLayout(trailingSubcaption: "x").hasCaptionBar)
    }
}

@Suite("The line a replaced message leaves")
struct SummaryLineTests {
    @Test("A replaced message leaves its summaryText, else '<sender> sent <app>' with the sender as a token hosts name")
    func summaryLine() {
        var message = Message(layout: .template(TemplateLayout(caption: "Vanilla, two scoops")))
        let alice = ParticipantID()
        message.senderParticipantIdentifier = alice
        #expect(message.summaryLine(appName: "Ice Cream Builder") == "\(alice.mention) sent Ice Cream Builder", "not the caption")
        message.summaryText = ""
        #expect(message.summaryLine(appName: "Ice Cream Builder") == "\(alice.mention) sent Ice Cream Builder", "an empty summary is none")
        message.summaryText = "\(alice.mention) chose vanilla"
        #expect(message.summaryLine(appName: "Ice Cream Builder") == "\(alice.mention) chose vanilla")
    }
}

@Suite("How an app's text is counted")
struct ReadLengthTests {
    @Test("A participant's token counts as one character toward a caption's 500, for it shows as a name")
    func tokensCountAsOne() throws {
        let people = (0..<20).map { _ in ParticipantID() }
        let caption = people.map(\.mention).joined(separator: " and ") + " are coming"
        #expect(caption.count > 500, "written out, the tokens alone pass the limit")
        #expect(Limits.readLength(of: caption) == 20 + 19 * 5 + 11)
        try TemplateLayout(caption: caption).validate()
        // Something that only looks like a token counts in full.
        #expect(Limits.readLength(of: "$100 and $" + String(repeating: "x", count: 36)) == 46)
        #expect(throws: MessagesError.self) { try TemplateLayout(caption: String(repeating: "a", count: 501)).validate() }
    }
}
