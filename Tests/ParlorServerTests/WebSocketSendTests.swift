import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

@Suite("Sending over the WebSocket: stickers, limits, ids, staged stickers")
struct WebSocketSendTests {
    @Test("sendSticker is acknowledged with the sticker; an unknown sticker is fileNotFound; long or blank text and stolen ids are refused")
    func sendRules() async throws {
        try await TestServer().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let sticker = try #require(try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).packs.first?.stickers.first)
            let aliceSocket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let bobSocket = try await TestSocket.session(port: port, as: bob, since: [direct.id: 0])
            let conversation = JSON.string(direct.id)

            try await aliceSocket.send("sendSticker", ["requestId": "s", "conversation": conversation, "id": .string(UUID().uuidString), "sticker": .string(sticker.id)])
            let ack = try await aliceSocket.next("ack")
            #expect(ack.requestId == "s")
            #expect(ack.message?.kind == "sticker")
            #expect(ack.message?.sticker == sticker)
            #expect(try await bobSocket.messages(1).first?.sticker == sticker)

            let refusals: [(String, [String: JSON], String)] = [
                ("sendSticker", ["id": .string(UUID().uuidString), "sticker": "none/none.png"], "fileNotFound"),
                ("sendText", ["id": .string(UUID().uuidString), "text": .string(String(repeating: "a", count: 10_001))], "textExceedsMaxSize"),
                ("sendText", ["id": .string(UUID().uuidString), "text": " "], "invalidValue"),
                ("sendText", ["id": .string(ack.message?.id.description ?? ""), "text": "mine now"], "idInUse"),
                ("sendText", ["id": "not-a-uuid", "text": "hi"], "malformedFrame"),
            ]
            for (index, (type, fields, code)) in refusals.enumerated() {
                var fields = fields
                fields["conversation"] = conversation
                fields["requestId"] = .string("r\(index)")
                try await bobSocket.send(type, fields)
                let error = try await bobSocket.error()
                #expect(error.error?.code == code, "\(type) \(code)")
                if code != "malformedFrame" { #expect(error.requestId == "r\(index)") }
            }
            #expect(try await api.messages(in: direct.id, as: alice).count == 1)
            await aliceSocket.disconnect()
            await bobSocket.disconnect()
        }
    }

    @Test("A sticker an app inserts from its sticker browser is staged, then sent as a sticker message; an unknown one is refused in the app's update")
    func stagedSticker() async throws {
        try await TestServer.withTestApps().run(.live) { api in
            let port = try #require(api.port)
            let alice = try await api.signUp("alice")
            let bob = try await api.signUp("bob")
            let direct = try await api.conversation(of: alice, with: [bob])
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            let conversation = JSON.string(direct.id)
            _ = try await socket.openApp(Probe.id.rawValue, in: direct.id)
            try await socket.send("appEvent", ["conversation": conversation, "app": .string(Probe.id.rawValue), "event": ["kind": "insertSticker", "stickerID": "probe/dot"]])
            let staged = try #require(try await socket.staged())
            #expect(staged.kind == "sticker")
            #expect(staged.sticker?.id == "probe/dot")
            #expect(staged.sticker?.url.hasPrefix("data:image/svg+xml") == true)
            _ = try await socket.appUpdate()
            let sent = try await socket.sendStaged(in: direct.id)
            #expect(sent.kind == "sticker")
            #expect(sent.sticker?.description == "A dot")

            // A sticker of the app's on another site goes out as the image proxy's signed address,
            // in the app's browser, in the compose field and on the message.
            let view = try await socket.openApp(Probe.id.rawValue, in: direct.id)
            let browser = view.view.allNodes.compactMap { node -> [Sticker]? in
                if case .stickerBrowser(let browser) = node { return browser.stickers }
                return nil
            }.first ?? []
            let proxied = "/images/proxy?url=https%3A%2F%2Fimages.example%2Fdot.png&sig="
            let address = browser.last.map { sticker -> String in
                if case .url(let url) = sticker.image { return url.absoluteString }
                return ""
            }
            #expect(address?.hasPrefix(proxied) == true, "\(browser)")
            try await socket.send("appEvent", ["conversation": conversation, "app": .string(Probe.id.rawValue), "event": ["kind": "insertSticker", "stickerID": "probe/remote"]])
            let remote = try await socket.next("staged") { $0.staged?.sticker?.id == "probe/remote" }
            #expect(remote.staged?.sticker?.url.hasPrefix(proxied) == true, "\(String(describing: remote.staged?.sticker?.url))")
            _ = try await socket.appUpdate()

            try await socket.send("appEvent", ["conversation": conversation, "app": .string(Probe.id.rawValue), "event": ["kind": "insertSticker", "stickerID": "probe/none"]])
            #expect(try await socket.appUpdate().error?.code == "fileNotFound")
            await socket.disconnect()
        }
    }
}
