import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Photos and files")
struct AttachmentTests {
    static let png = TestImages.png(width: 8, height: 8, shade: 9)

    static func upload(_ data: Data, as person: Person, in api: API) async throws -> Wire.Blob {
        try await api.request(.post, "/api/blobs?kind=file", as: person, body: data).decode(Wire.Blob.self)
    }

    static func attach(_ hash: String, name: String, in conversation: ConversationID, as person: Person, api: API) async throws -> Reply {
        try await api.post("/api/conversations/\(conversation)/messages", as: person, json: [
            "id": .string(UUID().uuidString), "attachment": ["hash": .string(hash), "name": .string(name)],
        ])
    }

    @Test("A photo sent to a conversation is seen by its members only, and only once sent; a file is served as a download")
    func photosAndFiles() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])

            let photo = try await Self.upload(Self.png, as: alice, in: api)
            #expect(photo.contentType == "image/png" && photo.size == Int64(Self.png.count))
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "an upload is its uploader's until a message uses it")

            let sent = try await Self.attach(photo.hash, name: "Beach.png", in: direct.id, as: alice, api: api)
            #expect(sent.status == .created)
            let message = try sent.decode(Wire.Message.self)
            #expect(message.kind == "attachment")
            let attachment = try #require(message.attachment)
            #expect(attachment.url == photo.url && attachment.name == "Beach.png" && attachment.isImage && attachment.size == Int64(Self.png.count))
            let served = try await api.get(photo.url, as: bob)
            #expect(served.status == .ok && served.body == Self.png && served.headers[.contentType] == "image/png")
            #expect(try await api.get(photo.url, as: carol).status == .notFound, "someone outside the conversation gets nothing")
            let etag = try #require(served.headers[.eTag])
            #expect(served.headers[.cacheControl] == "private, no-cache", "a browser asks again before reusing it")
            let again = try await api.request(.get, photo.url, as: bob, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.isEmpty, "but the bytes are not sent twice")
            #expect(try await api.request(.get, photo.url, as: carol, headers: [.ifNoneMatch: etag]).status == .notFound,
                    "knowing the tag is no key either")
            #expect(try await api.get(photo.url).status == .unauthorized)
            let list = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(list.preview == "Alice sent a photo")

            let notes = Data("<html><script>alert(1)</script></html>".utf8)
            let file = try await Self.upload(notes, as: alice, in: api)
            #expect(file.contentType == "application/octet-stream", "whatever is not a known image is only bytes")
            let fileMessage = try await Self.attach(file.hash, name: "notes.html", in: direct.id, as: alice, api: api).decode(Wire.Message.self)
            #expect(fileMessage.attachment?.isImage == false)
            let download = try await api.get(file.url, as: bob)
            #expect(download.headers[.contentType] == "application/octet-stream")
            #expect(download.headers[.contentDisposition] == "attachment", "a file is downloaded, never shown as a page")
            let found = try await SearchTests.search("beach", as: bob, in: api).decode(Wire.SearchResults.self)
            #expect(found.results.map(\.message.id) == [message.id], "found by its name")
        }
    }

    @Test("Sending what one cannot see, a bad name, or a file too large is refused; an unsent photo is no longer shared")
    func refusals() async throws {
        try await TestServer { $0.maxBlobBytes = 1024 }.run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let dave = try await api.signUp("dave")
            let direct = try await api.conversation(of: alice, with: [bob])
            let elsewhere = try await api.conversation(of: carol, with: [dave])
            let photo = try await Self.upload(Self.png, as: alice, in: api)

            let guessed = try await Self.attach(photo.hash, name: "mine.png", in: elsewhere.id, as: carol, api: api)
            #expect(guessed.status == .notFound && guessed.errorCode == "attachmentNotFound", "a hash is not a key to someone's photo")
            #expect(try await api.get(photo.url, as: dave).status == .notFound)
            for name in ["", "a/b.png", "bad\u{202E}gnp.exe", String(repeating: "n", count: 256), "line\nbreak.png"] {
                let reply = try await Self.attach(photo.hash, name: name, in: direct.id, as: alice, api: api)
                #expect(reply.errorCode == "invalidFileName", "\(name.prefix(20))")
            }
            #expect(try await api.request(.post, "/api/blobs?kind=other", as: alice, body: Self.png).errorCode == "invalidValue")
            let empty = try await api.request(.post, "/api/blobs?kind=file", as: alice, body: Data())
            #expect(empty.status == .badRequest && empty.errorCode == "emptyUpload")
            let big = try await api.request(.post, "/api/blobs?kind=file", as: alice, body: Data(repeating: 1, count: 2048))
            #expect(big.status == .contentTooLarge && big.errorCode == "mediaExceedsMaxSize")
            let both = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "text": "hi", "attachment": ["hash": .string(photo.hash), "name": "a.png"],
            ])
            #expect(both.status == .badRequest, "one of text, sticker or attachment")

            let sent = try await Self.attach(photo.hash, name: "a.png", in: direct.id, as: alice, api: api).decode(Wire.Message.self)
            #expect(try await api.get(photo.url, as: bob).status == .ok)
            let socket = try await TestSocket.session(port: port, as: alice)
            try await socket.send("unsend", ["conversation": .string(direct.id.description), "message": .string(sent.id.description)])
            _ = try await socket.framesQueued()
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "unsent, the photo is no longer shared")
            #expect(try await api.get(photo.url, as: alice).status == .ok, "its uploader still has it")
            await socket.disconnect()
        }
    }
}

@Suite("Voice messages")
struct VoiceMessageTests {
    /// The first bytes of a recording as Chromium's MediaRecorder writes it: an EBML header whose
    /// DocType is "webm", then the segment. (The browser flow in test_voice.py sends a whole one.)
    static let webm = Data([
        0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81,
        0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6D, 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02, 0x18, 0x53, 0x80, 0x67,
    ] + Array(repeating: 0x55, count: 64))
    /// Firefox's: an Ogg page whose stream is Opus.
    static let ogg = Data("OggS".utf8) + Data([0, 2] + Array(repeating: 0, count: 22)) + Data("\u{01}OpusHead".utf8) + Data(repeating: 7, count: 32)
    /// Safari's: an ISO base media file, `ftyp` first.
    static let mp4 = Data([0, 0, 0, 0x1C]) + Data("ftypM4A ".utf8) + Data(repeating: 0, count: 40)

    static func voice(_ hash: String, duration: JSON, waveform: JSON, in conversation: ConversationID, as person: Person, api: API) async throws -> Reply {
        try await api.post("/api/conversations/\(conversation)/messages", as: person, json: [
            "id": .string(UUID().uuidString),
            "attachment": ["hash": .string(hash), "name": "Voice message.webm", "voice": ["duration": duration, "waveform": waveform]],
        ])
    }

    @Test("A recording is typed by its bytes and sent as a voice message with its length and waveform, which members get back")
    func sent() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            for (bytes, type) in [(Self.webm, "audio/webm"), (Self.ogg, "audio/ogg"), (Self.mp4, "audio/mp4")] {
                #expect(try await AttachmentTests.upload(bytes, as: alice, in: api).contentType == type)
            }
            let recording = try await AttachmentTests.upload(Self.webm, as: alice, in: api)
            let waveform: [Int] = [0, 12, 55, 100, 40, 3]
            let reply = try await Self.voice(
                recording.hash, duration: 4200, waveform: .array(waveform.map { .int(Int64($0)) }), in: direct.id, as: alice, api: api)
            #expect(reply.status == .created)
            let message = try reply.decode(Wire.Message.self)
            #expect(message.attachment?.voice == VoiceNote(duration: 4200, waveform: waveform))
            let seen = try await api.get("/api/conversations/\(direct.id)/messages", as: bob).decode([Wire.Message].self)
            #expect(seen.last?.attachment?.voice?.duration == 4200, "Bob gets the length and waveform with it")
            let served = try await api.get(recording.url, as: bob)
            #expect(served.headers[.contentType] == "audio/webm" && served.body == Self.webm)
            #expect(served.headers[.acceptRanges] == "bytes", "a player may ask for ranges")
            // Ranges as RFC 9110 §14 has them: from–to, from onwards, the last N; none left is 416.
            let length = Self.webm.count
            for (asked, first, last) in [("bytes=0-9", 0, 9), ("bytes=100-", 100, length - 1), ("bytes=-4", length - 4, length - 1),
                                         ("bytes=10-100000", 10, length - 1)] {
                let part = try await api.request(.get, recording.url, as: bob, headers: [.range: asked])
                #expect(part.status == .partialContent && part.body == Self.webm[first...last], "\(asked)")
                #expect(part.headers[.contentRange] == "bytes \(first)-\(last)/\(length)", "\(asked)")
            }
            let beyond = try await api.request(.get, recording.url, as: bob, headers: [.range: "bytes=\(length)-"])
            #expect(beyond.status == .rangeNotSatisfiable && beyond.headers[.contentRange] == "bytes */\(length)")
            for ignored in ["bytes=0-1,4-5", "items=0-1", "bytes=9-2", "bytes=a-b"] {
                let whole = try await api.request(.get, recording.url, as: bob, headers: [.range: ignored])
                #expect(whole.status == .ok && whole.body == Self.webm, "\(ignored) is ignored: the whole recording")
            }
            let carol = try await api.signUp("carol")
            #expect(try await api.request(.get, recording.url, as: carol, headers: [.range: "bytes=0-9"]).status == .notFound,
                    "a range is no way around who may fetch it")
            #expect(try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self).preview == "Alice sent a voice message")
            let rules = try await api.get("/api/rules", as: bob).decode(Wire.Rules.self)
            #expect(rules.voice.maxSeconds == VoiceNote.maxDuration / 1000 && rules.voice.maxLevels == VoiceNote.maxWaveformLength
                && rules.voice.maxLevel == VoiceNote.maxLevel, "the browser records within the server's bounds")
        }
    }

    @Test("A voice message that is not a recording, or whose length or waveform is out of bounds, is refused with invalidVoiceMessage")
    func refused() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let recording = try await AttachmentTests.upload(Self.webm, as: alice, in: api)
            let photo = try await AttachmentTests.upload(AttachmentTests.png, as: alice, in: api)
            let named = try await AttachmentTests.upload(Data("not a recording, named one".utf8), as: alice, in: api)
            #expect(named.contentType == "application/octet-stream")
            let heic = Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8) + Data(repeating: 0, count: 40)
            #expect(try await AttachmentTests.upload(heic, as: alice, in: api).contentType == "application/octet-stream",
                    "a HEIC photo shares MP4's container but is no recording")
            let fine: JSON = [10, 90]
            for hash in [photo.hash, named.hash] {
                let reply = try await Self.voice(hash, duration: 1000, waveform: fine, in: direct.id, as: alice, api: api)
                #expect(reply.status == .badRequest && reply.errorCode == "invalidVoiceMessage", "only a recording is a voice message")
            }
            let tooLong = JSON.int(Int64(VoiceNote.maxDuration + 1))
            let wide = JSON.array(Array(repeating: .int(1), count: VoiceNote.maxWaveformLength + 1))
            let cases: [(JSON, JSON)] = [(0, fine), (tooLong, fine), (1000, []), (1000, wide), (1000, [.int(Int64(VoiceNote.maxLevel + 1))]), (1000, [-1])]
            for (duration, waveform) in cases {
                let reply = try await Self.voice(recording.hash, duration: duration, waveform: waveform, in: direct.id, as: alice, api: api)
                #expect(reply.status == .badRequest && reply.errorCode == "invalidVoiceMessage", "\(duration) \(waveform)")
                #expect(try reply.decode(Wire.ErrorReply.self).error.message.isEmpty == false, "a sentence says why")
            }
            let page = try await api.get("/api/conversations/\(direct.id)/messages", as: bob).decode([Wire.Message].self)
            #expect(page.isEmpty, "nothing refused was sent")
        }
    }
}
