import Foundation
@_spi(Hosting) import ParlorHost
import ParlorKit
@testable import ParlorServer
import ParlorStore
import Testing

/// The running app instances kept in memory: bounded, and never at the cost of a call's state.
@Suite("App instances in memory")
struct InstanceRegistryTests {
    @Test("An instance the cache lets go in the middle of a call keeps that call's save, and the next use takes it back rather than resume a second copy from the store")
    func evictedWhileInUse() async throws {
        let registry = InstanceRegistry(capacity: 1)
        let alice = Self.key()
        let token = InstanceToken()
        // This test holds Alice's instance the way a call in progress (a slow app) holds it.
        let inCall = Self.instance()
        #expect(await registry.insert(inCall, of: token, for: alice) === inCall)

        // Meanwhile someone else's instance comes in and the cache, full, lets Alice's go.
        let bobsInstance = Self.instance()
        _ = await registry.insert(bobsInstance, of: InstanceToken(), for: Self.key())
        #expect(await registry.count == 1, "the cache stays at its bound")

        // The call ends and saves its state.
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false),
                "the call's new state is written to the store, not lost")
        #expect(await registry.instance(alice) === inCall,
                "the next use gets the instance that was in use, not a copy resumed from the state before the call")
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false,
                "it remembers what it saved: an unchanged state is not written again")
        withExtendedLifetime((inCall, bobsInstance)) {}
    }

    @Test("An instance the cache let go that nothing holds any more is gone: its next use resumes from the store")
    func evictedAndUnusedIsGone() async throws {
        let registry = InstanceRegistry(capacity: 1)
        let alice = Self.key()
        let token = InstanceToken()
        _ = await registry.insert(Self.instance(), of: token, for: alice)
        let bobsInstance = Self.instance()
        _ = await registry.insert(bobsInstance, of: InstanceToken(), for: Self.key())

        #expect(await registry.instance(alice) == nil, "not kept in memory past the cache's bound")
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false)
        withExtendedLifetime(bobsInstance) {}
    }

    @Test("Forgetting an instance the cache let go (another node changed it) also drops its late saves")
    func forgottenWhileEvicted() async throws {
        let registry = InstanceRegistry(capacity: 1)
        let alice = Self.key()
        let token = InstanceToken()
        let inCall = Self.instance()
        _ = await registry.insert(inCall, of: token, for: alice)
        let bobsInstance = Self.instance()
        _ = await registry.insert(bobsInstance, of: InstanceToken(), for: Self.key())

        await registry.forget(alice)
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false,
                "the other node's newer state is not overwritten")
        #expect(await registry.instance(alice) == nil)
        withExtendedLifetime((inCall, bobsInstance)) {}
    }

    @Test("An instance let go while in use still hears of its conversation's members, and goes when its person leaves the conversation")
    func evictedInAConversation() async throws {
        let registry = InstanceRegistry(capacity: 1)
        let conversation = ConversationID()
        let alice = InstanceKey(user: UserID(), scope: .conversation(conversation), app: Tally.id)
        let inCall = Self.instance()
        _ = await registry.insert(inCall, of: InstanceToken(), for: alice)
        let bobsInstance = Self.instance()
        _ = await registry.insert(bobsInstance, of: InstanceToken(), for: Self.key())

        #expect(await registry.instances(in: conversation).map(\.0) == [alice], "a member joining or leaving reaches it")
        await registry.remove(user: alice.user, conversation: conversation)
        #expect(await registry.instance(alice) == nil, "Alice left: not taken back")
        #expect(await registry.instances(in: conversation).isEmpty)
        withExtendedLifetime((inCall, bobsInstance)) {}
    }

    private static func key() -> InstanceKey {
        InstanceKey(user: UserID(), scope: .home, app: Tally.id)
    }

    private static func instance() -> any HostedAppInstance {
        AppInstance(app: Tally(), configuration: InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [], surface: .home, conversationHost: NoConversationHost(),
            container: RefusingContainer(appName: "Tally")))
    }
}
