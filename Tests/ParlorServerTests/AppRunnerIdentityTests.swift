import Foundation
import Hello
import ParlorAppRunner
import ParlorKit
import ParlorStore
import Testing

/// A runner knows which app it is: given another app's credential it refuses, instead of
/// showing its screens under the other app's name.
@Suite("AppRunner serves only its own app")
struct AppRunnerIdentityTests {
    @Test("Started with Probe's credential, Hello's runner refuses with a sentence naming both ids, and ends")
    func refusesAnotherAppsCredential() async throws {
        try await RemoteAppTests.withRegisteredProbe { setting in
            let server = try #require(URL(string: "http://127.0.0.1:\(setting.port)"))
            let runner = AppRunner(app: Hello(), server: server, secret: setting.secret)
            do {
                try await withDeadline(.seconds(30)) { try await runner.run() }
                Issue.record("the runner served another app's connection")
            } catch let refusal as ConnectionRefused {
                #expect(refusal.code == "wrongApp")
                #expect(refusal.description.contains("org.parlor.hello") && refusal.description.contains(RemoteAppTests.probe), "\(refusal)")
            }
            // Nobody answers as Probe: opening it says it is not connected.
            let socket = try await TestSocket.session(port: setting.port, as: setting.alice, since: [setting.direct.id: 0])
            let opened = try await socket.openApp(RemoteAppTests.probe, in: setting.direct.id)
            #expect(opened.error?.code == "appUnavailable")
            await socket.disconnect()
        }
    }
}
