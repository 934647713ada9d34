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
            let ack = try await socket.reply(to: "text")
            let ackedAfter = ContinuousClock.now - opened
            #expect(ack.type == "ack")
            #expect(ackedAfter < deadline, "the text waited \(ackedAfter) behind the app")

            let failed = try await socket.appUpdate()
            let failedAfter = ContinuousClock.now - opened
            #expect(failed.error?.code == "appUnavailable")
            #expect(failedAfter < deadline * 2, "one deadline covers the open (took \(failedAfter))")
            // Only that one hook was asked: after it failed, the open's other hooks and its drawing were not tried.
            await #expect(throws: (any Error).self) { try await fake.nextCall(timeout: .milliseconds(500)) }
            await socket.disconnect()
            await fake.disconnect()
        }
    }
}
