import Foundation
import ParlorHost
import ParlorInput
import ParlorKit
import ParlorServer
import Testing

/// An app outside the server that stops answering costs its user that app, once: not their
/// messages, not one deadline per hook.
@Suite("A hung app costs its user that app only")
struct HungAppTests {
    @Test("An open of an app that never answers fails after one deadline, not one per hook; meanwhile the person's texts are acked at once")
    func hungAppHoldsNothingElse() async throws {
        let deadline = Duration.seconds(3)
        try await RemoteAppTests.withRegisteredProbe(deadline: deadline) { setting in
            let (port, alice, direct, secret) = (setting.port, setting.alice, setting.direct, setting.secret)
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()  // welcome; it answers nothing from now on
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])

            let opened = ContinuousClock.now
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(RemoteAppTests.probe)])
            _ = try await fake.nextCall()  // the first hook reached the app, which keeps quiet
            try await socket.send("sendText", [
                "conversation": .string(direct.id.description), "id": .string(UUID().uuidString), "text": "still here", "requestId": "text",
            ])
            // A socket's frames come in the order the server wrote them: a text that waited behind
            // the app would be acked after the open's answer, which comes once the hook's deadline passed.
            let first = try await socket.next(timeout: deadline * 3) { $0.requestId == "text" || $0.type == "app" }
            #expect(first.type == "ack" && first.requestId == "text", "the text was answered after the open: \(first.type)")

            let failed = try await socket.appUpdate()
            let failedAfter = ContinuousClock.now - opened
            #expect(failed.error?.code == "appUnavailable")
            #expect(failedAfter < deadline * 2, "one deadline covers the open (took \(failedAfter))")
            // Only that one hook was asked: had the open's other hooks or its drawing been tried
            // after it failed, they would reach the app before the hook of the close that follows.
            try await socket.send("closeApp", ["conversation": .string(direct.id.description)])
            let next = try await fake.nextCall()
            #expect(next.hook == .willResignActive, "the app was asked \(next.hook) after the failed open")
            fake.answer(next)
            fake.answer(try await fake.nextCall())
            #expect(try await socket.appUpdate().isActive == false)
            await socket.disconnect()
            await fake.disconnect()
        }
    }

    @Test("Frames piled on a hung app are refused past a few (appBusy); the socket keeps being read: pings, texts and an app in another conversation answer at once")
    func pileOnAHungApp() async throws {
        // The app's deadline is far longer than any wait below: a frame that waited behind the
        // hung app would miss its wait by seconds, not by a scheduling hiccup.
        try await RemoteAppTests.withRegisteredProbe(deadline: .seconds(30)) { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let carol = try await api.signUp("carol")
            let group = try await api.conversation(of: alice, with: [bob, carol], title: "Elsewhere")
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()  // welcome; silent from now on
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0, group.id: 0])
            for index in 0..<12 {
                try await socket.send("openApp", [
                    "conversation": .string(direct.id.description), "app": .string(RemoteAppTests.probe), "requestId": .string("open\(index)"),
                ])
            }
            var busy = 0
            for index in 0..<12 {
                if let reply = try? await socket.next("error", timeout: .milliseconds(300), where: { $0.requestId == "open\(index)" }),
                   reply.error?.code == "appBusy" { busy += 1 }
            }
            #expect(busy >= 4, "past the lane's limit, frames are refused, not queued: \(busy)")
            try await socket.send("ping", ["requestId": "alive"])
            #expect(try await socket.next("pong", timeout: .seconds(10)) { $0.requestId == "alive" }.type == "pong")
            try await socket.send("openApp", ["conversation": .string(group.id.description), "app": "org.parlor.hello"])
            let hello = try await socket.next("app", timeout: .seconds(10)) { $0.update?.appID.rawValue == "org.parlor.hello" }
            #expect(hello.update?.isActive == true, "nothing waited for the hung app")
            await socket.disconnect()
            await fake.disconnect()
        }
    }

    @Test("A text sent right after an outside app's message is committed after it, however long the app takes to check it")
    func textAfterStagedKeepsItsPlace() async throws {
        try await RemoteAppTests.withRegisteredProbe { setting in
            let (api, port, alice, bob, direct, secret) = (setting.api, setting.port, setting.alice, setting.bob, setting.direct, setting.secret)
            let fake = try await FakeApp.connect(port: port, secret: secret)
            _ = try await fake.nextFrame()
            let socket = try await TestSocket.session(port: port, as: alice, since: [direct.id: 0])
            try await socket.send("openApp", ["conversation": .string(direct.id.description), "app": .string(RemoteAppTests.probe)])
            let staged = Message(url: URL(string: "https://example.org/probe?x=1"), layout: .template(TemplateLayout(caption: "the app's")))
            for _ in 0..<2 {
                let call = try await fake.nextCall()
                fake.answer(call, effects: call.hook == .didBecomeActive ? [.insert(staged)] : [])
            }
            _ = try await socket.next("staged")
            try await socket.send("sendStaged", ["conversation": .string(direct.id.description)])
            try await socket.send("sendText", ["conversation": .string(direct.id.description), "id": .string(UUID().uuidString), "text": "and a caption"])
            // The app checks the message slowly: the text must not go first meanwhile.
            let check = try await fake.nextCall()
            try await Task.sleep(for: .milliseconds(500))
            fake.answer(check)
            _ = try await socket.messages(2)
            let seen = try await api.messages(in: direct.id, as: bob)
            #expect(seen.map(\.kind) == ["app", "text"], "the app's message first, then the caption: \(seen.map(\.kind))")
            await socket.disconnect()
            await fake.disconnect()
        }
    }
}
