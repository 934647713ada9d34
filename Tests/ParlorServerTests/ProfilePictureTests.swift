import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

@Suite("Profile pictures")
struct ProfilePictureTests {
    @Test("A picture set in /api/me shows for the people one shares a conversation with; nobody else can fetch it; clearing it makes it private again")
    func pictureIsSharedWithContactsOnly() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let photo = try await AttachmentTests.upload(AttachmentTests.png, as: alice, in: api)
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "an upload is its uploader's")

            let me = try await api.request(.patch, "/api/me", as: alice, json: ["avatar": .string(photo.hash)]).decode(Wire.Me.self)
            #expect(me.user.avatarURL == photo.url)
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.avatarURL == photo.url)
            let seenByBob = try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
            #expect(seenByBob.members.first { $0.id == alice.id }?.avatarURL == photo.url, "Bob sees Alice's picture")
            #expect(seenByBob.members.first { $0.id == bob.id }?.avatarURL == nil, "initials for Bob, who has none")
            let fetched = try await api.get(photo.url, as: bob)
            #expect(fetched.status == .ok && fetched.body == AttachmentTests.png)
            #expect(try await api.get(photo.url, as: carol).status == .notFound, "Carol shares no conversation with Alice")
            #expect(try await api.get(photo.url).status != .ok, "nor can someone signed out")

            let cleared = try await api.request(.patch, "/api/me", as: alice, json: ["avatar": .null]).decode(Wire.Me.self)
            #expect(cleared.user.avatarURL == nil)
            #expect(try await api.get(photo.url, as: bob).status == .notFound, "a cleared picture is private again")
            #expect(try await api.get("/api/conversations/\(direct.id)", as: bob).decode(Wire.Conversation.self)
                .members.first { $0.id == alice.id }?.avatarURL == nil)
        }
    }

    @Test("Only an image the person uploaded becomes their picture: another's private upload, or a photo someone sent them, is avatarNotFound; a text file improperFileType")
    func onlyOwnImages() async throws {
        try await TestServer().run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let bobsPhoto = try await AttachmentTests.upload(TestImages.png(shade: 1), as: bob, in: api)
            let notes = try await AttachmentTests.upload(Data("just text".utf8), as: alice, in: api)
            // Bob sends Alice a photo: she may look at it, not show it to everyone as her face (it
            // would also outlive Bob's unsend).
            let direct = try await api.conversation(of: alice, with: [bob])
            let sentToAlice = try await AttachmentTests.upload(TestImages.png(shade: 2), as: bob, in: api)
            #expect(try await AttachmentTests.attach(sentToAlice.hash, name: "beach.png", in: direct.id, as: bob, api: api).status == .created)
            #expect(try await api.get(sentToAlice.url, as: alice).status == .ok, "Alice sees the photo Bob sent")
            for (hash, code) in [
                (bobsPhoto.hash, "avatarNotFound"), (sentToAlice.hash, "avatarNotFound"), (String(repeating: "0", count: 64), "avatarNotFound"),
                ("short", "avatarNotFound"), (notes.hash, "improperFileType"),
            ] {
                let reply = try await api.request(.patch, "/api/me", as: alice, json: ["avatar": .string(hash)])
                #expect(reply.errorCode == code, "\(hash.prefix(8)): \(reply.text)")
            }
            #expect(try await api.request(.patch, "/api/me", as: alice, json: ["avatar": 5]).status == .badRequest)
            #expect(try await api.get("/api/me", as: alice).decode(Wire.Me.self).user.avatarURL == nil, "nothing changed")
        }
    }
}
