import Foundation
import ParlorInput
import ParlorServer
import ParlorStore
import Testing

@Suite("Stickers placed on a message")
struct PlacedStickerTests {
    @Test("A sticker placed on a message reaches everyone with the message and the spot, live and after a reload; the list says so")
    func placedStickerReachesEveryone() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sticker = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).packs.first?.stickers.first)
            let hello = try await api.send("Look at this", in: direct.id, as: bob)
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: hello.sequence])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: hello.sequence])

            try await aliceSocket.send("sendSticker", [
                "requestId": "place", "conversation": .string(direct.id.description), "id": .string(UUID().uuidString),
                "sticker": .string(sticker.id), "placement": ["message": .string(hello.id.description), "x": 0.8, "y": 0.25],
            ])
            let ack = try await aliceSocket.reply(to: "place")
            #expect(ack.message?.sticker == sticker)
            #expect(ack.message?.placement == StickerPlacement(message: hello.id, x: 0.8, y: 0.25))
            let live = try #require(try await bobSocket.messages(1).first)
            #expect(live.placement?.message == hello.id, "Bob sees the sticker on his message, live")
            #expect(live.placement?.x == 0.8)

            let reloaded = try await api.messages(in: direct.id, as: bob)
            #expect(reloaded.last?.placement == StickerPlacement(message: hello.id, x: 0.8, y: 0.25))
            #expect(reloaded.first?.placement == nil, "the message it is placed on is unchanged")
            let list = try await api.get("/api/conversations", as: bob).decode([Wire.Conversation].self)
            #expect(list.first?.preview == "Alice placed a sticker on a message")
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("A placement off the bubble, on a message of another conversation, an unsent one or a placed sticker is refused with its code")
    func placementRules() async throws {
        try await TestServer().run(.live) { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let carol = try await api.signUp("carol")
            let direct = try await api.conversation(of: alice, with: [bob])
            let other = try await api.conversation(of: bob, with: [carol])
            let sticker = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).packs.first?.stickers.first)
            let target = try await api.send("Stick something here", in: direct.id, as: bob)
            let secret = try await api.send("not for Alice", in: other.id, as: bob)
            let gone = try await api.send("oops", in: direct.id, as: alice)
            let aliceSocket = try await TestSocket.session(port: try #require(api.port), as: alice)
            #expect(try await MessageChangeTests.unsend(aliceSocket, gone).type == "messageChanged")
            await aliceSocket.disconnect()

            func place(on message: String, x: Double = 0.5, y: Double = 0.5, extra: [String: JSON] = [:]) async throws -> (Int, String?) {
                var body: [String: JSON] = [
                    "id": .string(UUID().uuidString), "sticker": .string(sticker.id),
                    "placement": ["message": .string(message), "x": .double(x), "y": .double(y)],
                ]
                body.merge(extra) { $1 }
                let response = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: .object(body))
                return (Int(response.status.code), response.errorCode)
            }
            let placed = try await place(on: target.id.description, x: 0, y: 1)
            #expect(placed.0 == 201, "the corners are on the bubble")
            #expect(try await place(on: target.id.description, x: 1.5).1 == "invalidPlacement")
            #expect(try await place(on: target.id.description, y: -0.1).1 == "invalidPlacement")
            #expect(try await place(on: secret.id.description) == (404, "stickerTargetNotFound"), "another conversation's message is not found")
            #expect(try await place(on: UUID().uuidString) == (404, "stickerTargetNotFound"))
            #expect(try await place(on: gone.id.description) == (404, "stickerTargetNotFound"), "an unsent message takes no stickers")
            let stickerOnSticker = try #require(try await api.messages(in: direct.id, as: alice).last?.id)
            #expect(try await place(on: stickerOnSticker.description) == (409, "invalidPlacement"))

            let textPlaced = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "text": "hi", "placement": ["message": .string(target.id.description), "x": 0.5, "y": 0.5],
            ])
            #expect(textPlaced.status == .badRequest, "only a sticker is placed")
            #expect(try await api.messages(in: direct.id, as: bob).filter { $0.placement != nil }.count == 1, "only the first placement was stored")
        }
    }

    @Test("One person places at most stickerPlacementsPerMinute stickers a minute, then placingTooFast (429) with the wait; others are not held back")
    func placementsAreLimited() async throws {
        try await TestServer { $0.stickerPlacementsPerMinute = 3 }.run { api in
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sticker = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).packs.first?.stickers.first)
            let target = try await api.send("Bury me", in: direct.id, as: bob)
            func place(as person: Person) async throws -> Reply {
                try await api.post("/api/conversations/\(direct.id)/messages", as: person, json: [
                    "id": .string(UUID().uuidString), "sticker": .string(sticker.id),
                    "placement": ["message": .string(target.id.description), "x": 0.5, "y": 0.5],
                ])
            }
            for _ in 1...3 { #expect(try await place(as: alice).status == .created) }
            let refused = try await place(as: alice)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "placingTooFast")
            #expect(refused.text.contains("more than 3 stickers"), "\(refused.text)")
            #expect(try await place(as: bob).status == .created, "Bob still places his")
            // A sticker sent on its own is a message like any other, not a placement.
            let plain = try await api.post("/api/conversations/\(direct.id)/messages", as: alice, json: [
                "id": .string(UUID().uuidString), "sticker": .string(sticker.id),
            ])
            #expect(plain.status == .created)
            #expect(try await api.messages(in: direct.id, as: bob).filter { $0.placement != nil }.count == 4)
        }
    }
}
