import Foundation
import ParlorHost
import ParlorKit
import Testing

@Suite("Fetching, containers and the home surface")
struct HostServicesTests {
    struct Unreachable: Error {}

    /// Runs `fetch` from didBecomeActive and returns the error code it met (nil on success).
    private func fetch(_ url: String, client: (any FetchClient)?) async throws -> MessagesError.Code? {
        var harness = Harness()
        harness.httpClient = client
        let request = FetchRequest(url: try #require(URL(string: url)))
        let app = harness.app { name, state, context in
            if name == "didBecomeActive" {
                let response = try await context.fetch(request)
                state.title = String(decoding: response.body, as: UTF8.self)
            }
        }
        let update = await harness.instance(app).openFromDrawer()
        if update.error == nil { #expect(update.view.visibleTexts.contains { $0.lowercased() == "title ok from api.example.org" }) }
        return update.errorCode
    }

    @Test("An app reaches the hosts its manifest lists, and no other")
    func allowedHosts() async throws {
        #expect(try await fetch("https://api.example.org/items", client: FakeHTTPClient()) == nil)
        #expect(try await fetch("https://API.EXAMPLE.ORG/items", client: FakeHTTPClient()) == nil)
        for refused in ["https://evil.example.net/", "ftp://api.example.org/", "https://api.example.org.evil.net/", "https://api.example.org@evil.net/"] {
            #expect(try await fetch(refused, client: FakeHTTPClient()) == .hostNotAllowed, "\(refused)")
        }
    }

    @Test("A failing request or a host without network access is networkFailure")
    func networkFailures() async throws {
        #expect(try await fetch("https://api.example.org/", client: FakeHTTPClient(failure: Unreachable())) == .networkFailure)
        #expect(try await fetch("https://api.example.org/", client: nil) == .networkFailure)
    }

    @Test("The container keeps values between calls; a value of another type is invalidValue")
    func container() async throws {
        let harness = Harness()
        let app = harness.app { name, state, context in
            switch name {
            case "willBecomeActive":
                try await context.container.setValue(["a", "b"], forKey: "list")
            case "didBecomeActive":
                state.title = (try await context.container.value([String].self, forKey: "list") ?? []).joined()
                state.count = try await context.container.value(Int.self, forKey: "missing") ?? -7
                _ = try await context.container.value(Int.self, forKey: "list")
            default: break
            }
        }
        let update = await harness.instance(app).openFromDrawer()
        #expect(update.errorCode == .invalidValue)
        #expect(update.count == "count 0", "the failing hook's changes are dropped")
    }

    @Test("The home surface opens expanded and cannot change a conversation")
    func home() async throws {
        let harness = Harness()
        let instance = harness.instance()
        let opened = await instance.openHome()
        #expect(opened.presentationStyle == .expanded)
        let staged = await instance.perform(.action(try opened.action("Stage")))
        #expect(staged.errorCode == .apiUnavailableInPresentationContext)
        #expect(harness.host.isUntouched)
        let counted = await instance.perform(.action(try opened.action("Increment")))
        #expect(counted.count == "count 1")
    }

    @Test("Remote participants are the ids the host gives, and updates reach the next call")
    func participants() async {
        let harness = Harness()
        let instance = harness.instance()
        let newcomer = ParticipantID()
        await instance.updateRemoteParticipants(harness.remotes + [newcomer])
        _ = await instance.openFromDrawer()
        let context = harness.log.lastContext
        #expect(context?.conversation.localParticipantIdentifier == harness.local)
        #expect(context?.conversation.remoteParticipantIdentifiers == harness.remotes + [newcomer])
    }
}
