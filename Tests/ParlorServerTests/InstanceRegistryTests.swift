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
        let alice = Self.key()
        // This test holds Alice's instance the way a call in progress (a slow app) holds it.
        let crowded = await Self.crowdOut(alice)
        let (registry, token) = (crowded.registry, crowded.token)
        #expect(await registry.count == 1, "the cache stays at its bound")

        // The call ends and saves its state.
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false),
                "the call's new state is written to the store, not lost")
        #expect(await registry.instance(alice) === crowded.alicesInstance,
                "the next use gets the instance that was in use, not a copy resumed from the state before the call")
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false,
                "it remembers what it saved: an unchanged state is not written again")
        withExtendedLifetime(crowded) {}
    }

    @Test("An instance the cache let go that nothing holds any more is gone: its next use resumes from the store")
    func evictedAndUnusedIsGone() async throws {
        let alice = Self.key()
        let crowded = await Self.crowdOut(alice, held: false)
        let (registry, token) = (crowded.registry, crowded.token)

        #expect(await registry.instance(alice) == nil, "not kept in memory past the cache's bound")
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false)
        withExtendedLifetime(crowded) {}
    }

    @Test("Forgetting an instance the cache let go (another node changed it) also drops its late saves")
    func forgottenWhileEvicted() async throws {
        let alice = Self.key()
        let crowded = await Self.crowdOut(alice)
        let (registry, token) = (crowded.registry, crowded.token)

        await registry.forget(alice)
        #expect(await registry.recordSaved(Data(#"{"sent":1}"#.utf8), of: token, for: alice, olderThanItsMessage: false) == false,
                "the other node's newer state is not overwritten")
        #expect(await registry.instance(alice) == nil)
        withExtendedLifetime(crowded) {}
    }

    @Test("An instance let go while in use still hears of its conversation's members, and goes when its person leaves the conversation")
    func evictedInAConversation() async throws {
        let conversation = ConversationID()
        let alice = InstanceKey(user: UserID(), scope: .conversation(conversation), app: Tally.id)
        let crowded = await Self.crowdOut(alice)
        let registry = crowded.registry

        #expect(await registry.instances(in: conversation).map(\.0) == [alice], "a member joining or leaving reaches it")
        await registry.remove(user: alice.user, conversation: conversation)
        #expect(await registry.instance(alice) == nil, "Alice left: not taken back")
        #expect(await registry.instances(in: conversation).isEmpty)
        withExtendedLifetime(crowded) {}
    }

    /// A cache of one that let Alice's instance go when someone else's came in, with the
    /// instances the test holds: Bob's, and Alice's unless `held` is false.
    private struct Crowded {
        let registry: InstanceRegistry
        /// What Alice's instance's saves carry.
        let token: InstanceToken
        let alicesInstance: (any HostedAppInstance)?
        let bobsInstance: any HostedAppInstance
    }

    private static func crowdOut(_ alice: InstanceKey, held: Bool = true) async -> Crowded {
        let registry = InstanceRegistry(capacity: 1)
        let token = InstanceToken()
        let alicesInstance = instance()
        #expect(await registry.insert(alicesInstance, of: token, for: alice) === alicesInstance)
        let bobsInstance = instance()
        _ = await registry.insert(bobsInstance, of: InstanceToken(), for: key())
        return Crowded(registry: registry, token: token, alicesInstance: held ? alicesInstance : nil, bobsInstance: bobsInstance)
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
