import Crypto
import Foundation
import Hummingbird
import ParlorKit
@testable import ParlorServer
import Synchronization
import Testing

@Suite("Web Push: message encryption (RFC 8291) and the server's identity (RFC 8292)")
struct WebPushTests {
    /// RFC 8291 Appendix A, the published example.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let message = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test("RFC 8291's example: its keys, salt and plaintext give exactly its message")
    func rfcExample() throws {
        let recipient = try WebPushEncryption.Recipient(
            publicKey: try #require(Base64URL.decode(Example.receiverPublic)), authSecret: try #require(Base64URL.decode(Example.authSecret)))
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: try #require(Base64URL.decode(Example.senderPrivate)))
        #expect(Base64URL.encode(sender.publicKey.x963Representation) == Example.senderPublic)
        let message = try WebPushEncryption.encrypt(
            Array(Example.plaintext.utf8), for: recipient, salt: Base64URL.decode(Example.salt), senderKey: sender)
        #expect(Base64URL.encode(message) == Example.message)
    }

    @Test("Fresh salt and key for every message; a subscription's keys of the wrong size or off the curve are refused")
    func freshAndChecked() throws {
        let recipient = try WebPushEncryption.Recipient(
            publicKey: try #require(Base64URL.decode(Example.receiverPublic)), authSecret: try #require(Base64URL.decode(Example.authSecret)))
        let one = try WebPushEncryption.encrypt(Array("hi".utf8), for: recipient)
        let two = try WebPushEncryption.encrypt(Array("hi".utf8), for: recipient)
        #expect(one.prefix(16) != two.prefix(16) && one.dropFirst(21).prefix(65) != two.dropFirst(21).prefix(65))
        let key = try #require(Base64URL.decode(Example.receiverPublic))
        let auth = try #require(Base64URL.decode(Example.authSecret))
        #expect(throws: WebPushEncryption.Refusal.publicKey) { try WebPushEncryption.Recipient(publicKey: Array(key.dropLast()), authSecret: auth) }
        var offCurve = key
        offCurve[64] ^= 1
        #expect(throws: WebPushEncryption.Refusal.publicKey) { try WebPushEncryption.Recipient(publicKey: offCurve, authSecret: auth) }
        #expect(throws: WebPushEncryption.Refusal.authSecret) { try WebPushEncryption.Recipient(publicKey: key, authSecret: auth + [0]) }
        #expect(throws: WebPushEncryption.Refusal.tooLarge) {
            try WebPushEncryption.encrypt([UInt8](repeating: 65, count: WebPushEncryption.maxPlaintext + 1), for: recipient)
        }
    }

    @Test("The VAPID token: ES256 over its header and claims, verified with the public key it carries; audience the push service's origin; expiry within 24 hours")
    func vapidToken() throws {
        let vapid = VAPID(key: P256.Signing.PrivateKey(), contact: "mailto:ops@example.org")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try vapid.authorization(for: try #require(URL(string: "https://push.example.net:8443/send/abc?x=1")), now: now)
        let parts = header.split(separator: ", ")
        #expect(parts.count == 2 && parts[0].hasPrefix("vapid t=") && parts[1] == "k=\(vapid.publicKey)")
        let token = parts[0].dropFirst("vapid t=".count).split(separator: ".").map(String.init)
        #expect(token.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(token[1])))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example.net:8443")
        #expect(claims?["sub"] as? String == "mailto:ops@example.org")
        let expiry = try #require(claims?["exp"] as? Int)
        #expect(expiry > Int(now.timeIntervalSince1970) && expiry <= Int(now.timeIntervalSince1970) + 24 * 3600)
        let key = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(vapid.publicKey)))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(token[2])))
        #expect(key.isValidSignature(signature, for: Data("\(token[0]).\(token[1])".utf8)))
        #expect(!key.isValidSignature(signature, for: Data("\(token[0]).x\(token[1])".utf8)))
    }
}

/// Pushes to many devices of one push service: every Chrome's is Google's.
@Suite("Web Push: a large group on one push service")
struct WebPushGroupTests {
    /// Subscribes `person`'s one device to the stand-in push service at `port`, under their username.
    static func subscribe(_ person: Person, servicePort: Int, api: API) async throws {
        let subscription: JSON = [
            "endpoint": .string("http://127.0.0.1:\(servicePort)/\(person.username)"),
            "keys": [
                "p256dh": .string(Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)),
                "auth": .string(Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255) })),
            ],
        ]
        let reply = try await api.post("/api/me/push", as: person, json: subscription)
        #expect(reply.status == .created, "\(reply.text)")
    }

    @Test("A 1:1 message's push does not wait behind a large group's burst to the same push service (it went last, after 60)")
    func urgentPushesGoFirst() async throws {
        let arrivals = Mutex<[String]>([])
        try await LocalWebHost.run({ router in
            router.post("/{name}") { _, context in
                arrivals.withLock { $0.append(context.parameters.get("name") ?? "") }
                // A push service that takes a while: the group's pushes queue up behind 16 at a time.
                try await Task.sleep(for: .milliseconds(200))
                return Response(status: .created)
            }
        }) { servicePort in
            try await TestServer { $0.pushServiceHosts.append("127.0.0.1") }.run(.live) { api in
                let sender = try await api.signUp("sender")
                let friend = try await api.signUp("friend")
                var members: [Person] = []
                for index in 0..<60 { members.append(try await api.signUp("member\(index)")) }
                let group = try await api.conversation(of: sender, with: members, title: "Everyone")
                let direct = try await api.conversation(of: sender, with: [friend])
                for person in members + [friend] { try await Self.subscribe(person, servicePort: servicePort, api: api) }
                try await api.send("Lunch at one?", in: group.id, as: sender)
                try await api.send("Are you coming?", in: direct.id, as: sender)
                let deadline = ContinuousClock.now + .seconds(20)
                while arrivals.withLock({ $0.count }) < 61, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let order = arrivals.withLock { $0 }
                let position = try #require(order.firstIndex(of: "friend"), "the 1:1 push never came: \(order.count) arrived")
                #expect(position < 32, "the 1:1 push was number \(position + 1) of \(order.count)")
                #expect(order.count == 61)
            }
        }
    }

    @Test("A message to a group of 60 with Parlor closed is pushed to each of them, all on one push service (32 went before: as many waited as ran, the rest were dropped)")
    func everyMemberPushed() async throws {
        let received = Mutex<Set<String>>([])
        try await LocalWebHost.run({ router in
            router.post("/{name}") { _, context in
                let name = context.parameters.get("name") ?? ""
                received.withLock { _ = $0.insert(name) }
                return Response(status: .created)
            }
        }) { servicePort in
            try await TestServer { $0.pushServiceHosts.append("127.0.0.1") }.run(.live) { api in
                let sender = try await api.signUp("sender")
                var members: [Person] = []
                for index in 0..<60 { members.append(try await api.signUp("member\(index)")) }
                let group = try await api.conversation(of: sender, with: members, title: "Everyone")
                for member in members { try await Self.subscribe(member, servicePort: servicePort, api: api) }
                try await api.send("Lunch at one?", in: group.id, as: sender)
                let everyone = Set(members.map(\.username))
                let deadline = ContinuousClock.now + .seconds(15)
                while received.withLock({ $0 }) != everyone, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let missing = everyone.subtracting(received.withLock { $0 })
                #expect(missing.isEmpty, "no push for \(missing.count) of 60: \(missing.sorted().prefix(5))")
            }
        }
    }
}
