import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Forwarding a message")
struct ForwardTests {
    static func forward(_ message: Wire.Message, to targets: [ConversationID], as person: Person, api: API) async throws -> Reply {
        try await api.post(
            "/api/conversations/\(message.conversation)/messages/\(message.id)/forward", as: person,
            json: ["to": .array(targets.map { .string($0.description) })])
    }

    @Test("Bob forwards Alice's text, which mentions him, and her photo, to Carol and a group: copies from him, mentions as plain names, the photo readable there")
    func copiesFromTheForwarder() async throws {
        try await TestServer().run(.live) { api in
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            let withCarol = try await api.conversation(of: bob, with: [carol])
            let group = try await api.conversation(of: bob, with: [carol], title: "Friday")
            let text = try await api.send("See you at 8, <@\(bob.id)>?", in: direct.id, as: alice)
            let photo = try await AttachmentTests.upload(AttachmentTests.png, as: alice, in: api)
            let sentPhoto = try await AttachmentTests.attach(photo.hash, name: "dinner.png", in: direct.id, as: alice, api: api).decode(Wire.Message.self)

            let forwarded = try await Self.forward(text, to: [withCarol.id, group.id], as: bob, api: api)
            #expect(forwarded.status == .created)
            let copies = try forwarded.decode([Wire.Message].self)
            #expect(copies.map(\.conversation) == [withCarol.id, group.id])
            #expect(copies.allSatisfy { $0.sender == bob.id && $0.text == "See you at 8, @Bob?" && $0.id != text.id })
            #expect(try await api.messages(in: withCarol.id, as: carol).map(\.text) == ["See you at 8, @Bob?"], "Carol reads it from Bob")

            let photoCopy = try #require(try await Self.forward(sentPhoto, to: [withCarol.id], as: bob, api: api).decode([Wire.Message].self).first)
            let url = try #require(photoCopy.attachment?.url)
            #expect(try await api.get(url, as: carol).status == .ok, "the photo is Carol's to see where it was forwarded")
        }
    }

    @Test("Refused, with nothing sent: a message you do not see, a conversation you are not in, none, twice the same or too many targets, a line about a conversation")
    func refusals() async throws {
        try await TestServer().run(.live) { api in
            let (alice, bob, carol, direct) = try await api.threePeople().cast
            let withCarol = try await api.conversation(of: bob, with: [carol])
            let hello = try await api.send("hello", in: direct.id, as: alice)
            let carolsOwn = try await api.conversation(of: carol, with: [alice])

            #expect(try await Self.forward(hello, to: [withCarol.id], as: carol, api: api).status == .notFound, "Carol does not see it")
            let partly = try await Self.forward(hello, to: [withCarol.id, carolsOwn.id], as: bob, api: api)
            #expect(partly.status == .notFound, "Bob is not in Carol and Alice's conversation")
            #expect(try await api.messages(in: withCarol.id, as: bob).isEmpty, "nothing sent when one target is refused")
            #expect(try await Self.forward(hello, to: [], as: bob, api: api).errorCode == "invalidValue")
            #expect(try await Self.forward(hello, to: [withCarol.id, withCarol.id], as: bob, api: api).errorCode == "invalidValue")
            #expect(try await Self.forward(hello, to: (0..<11).map { _ in ConversationID() }, as: bob, api: api).errorCode == "invalidValue")

            let group = try await api.conversation(of: alice, with: [bob], title: "Plans")
            _ = try await api.post("/api/conversations/\(group.id)/members", as: alice, json: ["username": "carol"])
            let line = try #require(try await api.messages(in: group.id, as: bob).first { $0.kind == "event" })
            let event = try await Self.forward(line, to: [withCarol.id], as: bob, api: api)
            #expect(event.errorCode == "notForwardable" && event.text.contains("cannot be forwarded"), "\(event.text)")
        }
    }
}
