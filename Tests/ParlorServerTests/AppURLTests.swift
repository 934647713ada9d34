import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// An app's message URL reaches every member exactly as the app wrote it, or the app is told why
/// not: never escaped a second time on the way.
@Suite("An app's URL is kept exactly as sent")
struct AppURLTests {
    /// The `result` frame an app in any language writes to answer `call` by staging a message
    /// whose URL is `url`, character for character.
    static func staging(_ url: String, answering call: AppWire.Call) -> String {
        let message = Message(url: URL(string: "https://placeholder.example/"), layout: .template(TemplateLayout(caption: "state")))
        let frame = String(decoding: AppWire.encode(AppWire.AppFrame.result(AppWire.Result(id: call.id, effects: [.insert(message)], view: FakeApp.text("ready")))), as: UTF8.self)
        let literal = String(decoding: (try? JSONEncoder().encode(url)) ?? Data(), as: UTF8.self)
        return frame.replacingOccurrences(of: #""https:\/\/placeholder.example\/""#, with: literal)
            .replacingOccurrences(of: #""https://placeholder.example/""#, with: literal)
    }

    @Test("A URL with a space next to an escape is refused, and the app told how to write it; written right, every member gets it byte for byte")
    func exactOrRefused() async throws {
        try await RemoteAppTests.withRegisteredProbe { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()  // welcome
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])

            // willBecomeActive answered plainly, didBecomeActive stages the message.
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(RemoteAppTests.probe)])
            fake.answer(try await fake.nextCall())
            let bad = try await fake.nextCall()
            fake.sendRaw(Self.staging("https://x.example/p?a=1%2B1&b=x y", answering: bad))
            var told: String?
            while told == nil {
                if case .error(_, let message, _) = try await fake.nextFrame() { told = message } else { continue }
            }
            #expect(told?.contains("holds a space") == true && told?.contains("%20") == true, "\(told ?? "")")
            let refused = try await socket.appUpdate()
            #expect(refused.error?.code == "appUnavailable")
            try await socket.send("closeApp", ["conversation": .string(direct.id.description)])
            fake.answer(try await fake.nextCall())
            fake.answer(try await fake.nextCall())
            _ = try await socket.appUpdate()

            let exact = "https://x.example/p?a=1%2B1&b=x%20y"
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(RemoteAppTests.probe)])
            fake.answer(try await fake.nextCall())
            fake.sendRaw(Self.staging(exact, answering: try await fake.nextCall()))
            _ = try await socket.next("staged")
            try await socket.send("sendStaged", ["conversation": .string(direct.id.description), "requestId": "send"])
            let checking = Task {
                // The app checks the message before the commit (a session-less message is checked too).
                while let call = try? await fake.nextCall(timeout: .seconds(20)) { fake.answer(call) }
            }
            defer { checking.cancel() }
            let ack = try await socket.reply(to: "send")
            #expect(ack.type == "ack", "\(String(describing: ack.error))")
            let seenByBob = try await api.messages(in: direct.id, as: bob)
            #expect(seenByBob.last?.app?.webURL == exact, "Bob's copy holds the URL as the app wrote it")
            let url = try #require(seenByBob.last?.app?.webURL.flatMap(URL.init(exactly:)))
            #expect(try QueryItems(url: url).require("a") == "1+1")
            await socket.disconnect()
            await fake.disconnect()
        }
    }
}
