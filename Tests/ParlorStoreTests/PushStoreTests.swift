import Foundation
import ParlorKit
import ParlorStore
import Testing

@Suite("Push subscriptions: per device, per sign-in")
struct PushStoreTests {
    static func device(_ name: String, of user: User, token: String, at time: Date) -> PushSubscriptionRecord {
        PushSubscriptionRecord(
            id: UUID().uuidString, user: user.id, tokenHash: token, endpoint: "https://push.example/\(name)", publicKey: "key-\(name)",
            authSecret: "auth-\(name)", device: name, createdAt: time)
    }

    @Test("One per endpoint (a browser subscribing for another account moves to it), the newest kept past the cap, gone with the sign-in or once it expired", arguments: StoreBackend.all)
    func subscriptions(backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let alice = try await store.makeUser("alice")
            let bob = try await store.makeUser("bob")
            let now = Date()
            try await store.createToken(hash: "alice-phone", user: alice.id, expiresAt: now + 3600)
            try await store.createToken(hash: "alice-laptop", user: alice.id, expiresAt: now + 3600)
            try await store.createToken(hash: "bob-phone", user: bob.id, expiresAt: now + 3600)
            try await store.createToken(hash: "alice-old", user: alice.id, expiresAt: now - 1)
            for (index, name) in ["a", "b", "c"].enumerated() {
                try await store.addPushSubscription(Self.device(name, of: alice, token: "alice-phone", at: now + Double(index)), keepingAtMost: 2)
            }
            #expect(try await store.pushSubscriptions(of: [alice.id], now: now).map(\.device) == ["b", "c"], "the newest two")
            try await store.addPushSubscription(Self.device("expired", of: alice, token: "alice-old", at: now + 5), keepingAtMost: 10)
            #expect(!(try await store.pushSubscriptions(of: [alice.id], now: now).map(\.device).contains("expired")), "an expired sign-in receives nothing")

            // The same browser (endpoint c) subscribing for Bob moves to him.
            try await store.addPushSubscription(Self.device("c", of: bob, token: "bob-phone", at: now + 6), keepingAtMost: 10)
            #expect(try await store.pushSubscriptions(of: [alice.id], now: now).map(\.device) == ["b"])
            #expect(try await store.pushSubscriptions(of: [bob.id], now: now).map(\.device) == ["c"])

            try await store.addPushSubscription(Self.device("laptop", of: alice, token: "alice-laptop", at: now + 7), keepingAtMost: 10)
            try await store.deleteToken(hash: "alice-phone")
            #expect(try await store.pushSubscriptions(of: [alice.id, bob.id], now: now).map(\.device) == ["c", "laptop"], "signed out: gone")
            let laptop = try #require(try await store.pushSubscriptions(of: [alice.id], now: now).first)
            #expect(try await !store.removePushSubscription(id: laptop.id, user: bob.id), "not Bob's to remove")
            #expect(try await store.removePushSubscription(id: laptop.id, user: alice.id))
            try await store.removePushSubscription(endpoint: "https://push.example/c")
            #expect(try await store.pushSubscriptions(of: [alice.id, bob.id], now: now).isEmpty)

            #expect(try await store.pushShowsText(alice.id))
            try await store.setPushShowsText(false, user: alice.id)
            #expect(try await !store.pushShowsText(alice.id))
            #expect(try await store.pushShowsText(bob.id))
        }
    }
}
