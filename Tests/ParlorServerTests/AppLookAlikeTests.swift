import Foundation
import ParlorInput
import ParlorKit
import ParlorServer
import ParlorStore
import Testing

/// An app added from outside cannot pass for one already on the server: ids compared whatever the
/// case, names by what they look like, and the store says where each app comes from.
@Suite("Apps from outside cannot pass for another")
struct AppLookAlikeTests {
    static func manifest(_ id: String, _ name: String, publisher: String? = nil) -> AppManifest {
        AppManifest(id: AppID(id), name: name, icon: .url(URL(string: "https://example.org/icon.png")!), publisher: publisher)
    }

    /// What `parlor apps add` answers for `manifest` with the seed apps built in.
    static func add(_ manifest: AppManifest, to store: any ParlorStore, builtIn: [AppManifest]) async -> (code: String, message: String)? {
        do {
            _ = try await AppRegistrations(store: store).add(manifest, builtIn: builtIn)
            return nil
        } catch let error as MessagesError {
            return (error.code.name, error.message)
        } catch let error as APIError {
            return (error.code, error.message)
        } catch {
            return ("\(error)", "")
        }
    }

    @Test("Org.Parlor.TicTacToe, 'Tic Tac Toe', 'TIC-TAC-TOE', 'Tíc-Tac-T0e' and a Cyrillic Т are refused beside the built-in Tic-Tac-Toe")
    func lookAlikesRefused() async throws {
        try await TestServer().run { _, store in
            let builtIn = try TestServer.builtIn().builtInManifests
            let ticTacToe = try #require(builtIn.first { $0.id.rawValue == "org.parlor.tictactoe" })
            let sameID = await Self.add(Self.manifest("Org.Parlor.TicTacToe", "Noughts"), to: store, builtIn: builtIn)
            #expect(sameID?.code == "idInUse")
            #expect(sameID?.message.contains("differs only in letter case from org.parlor.tictactoe") == true)
            for name in ["Tic-Tac-Toe", "Tic Tac Toe", "TIC-TAC-TOE", "tictactoe", "Tíc-Tac-T0e", "\u{0422}ic-Tac-Toe", "Ｔｉｃ Ｔａｃ Ｔｏｅ"] {
                let refused = await Self.add(Self.manifest("org.example.ttt\(abs(name.hashValue))", name), to: store, builtIn: builtIn)
                #expect(refused?.code == "appNameTaken", "\(name) was \(refused.map { "refused: \($0.code)" } ?? "added")")
                #expect(refused?.message.contains("looks too much like '\(ticTacToe.name)' (org.parlor.tictactoe)") == true)
            }
            // An invisible character is refused in any name, before names are compared.
            #expect(await Self.add(Self.manifest("org.example.zwsp", "Tic\u{200B}Tac Toe"), to: store, builtIn: builtIn)?.code == "invalidValue")
            #expect(await Self.add(Self.manifest("org.example.tictactoe3d", "Tic-Tac-Toe 3D"), to: store, builtIn: builtIn) == nil, "a different name is fine")
            #expect(try await store.registeredApps().map(\.manifest.id.rawValue) == ["org.example.tictactoe3d"])
        }
    }

    @Test("Two outside apps cannot look alike either, whichever came first")
    func outsideAppsApart() async throws {
        try await TestServer().run { _, store in
            #expect(await Self.add(Self.manifest("org.example.dice", "Dice"), to: store, builtIn: []) == nil)
            #expect(await Self.add(Self.manifest("org.example.DICE", "Other"), to: store, builtIn: [])?.code == "idInUse")
            #expect(await Self.add(Self.manifest("org.evil.dice", "D1ce"), to: store, builtIn: [])?.code == "appNameTaken")
            #expect(await Self.add(Self.manifest("org.evil.dice2", "Dіce"), to: store, builtIn: [])?.code == "appNameTaken", "a Cyrillic і")
            // Names of symbols only are told apart by their symbols.
            #expect(await Self.add(Self.manifest("org.example.die", "🎲"), to: store, builtIn: []) == nil)
            #expect(await Self.add(Self.manifest("org.example.cards", "🃏"), to: store, builtIn: []) == nil, "another emoji is another name")
            #expect(await Self.add(Self.manifest("org.evil.die", "🎲 "), to: store, builtIn: [])?.code == "appNameTaken")
        }
    }

    @Test("The store says which apps come with Parlor and who published one from outside")
    func storeShowsThePublisher() async throws {
        try await TestServer { $0.adminToken(OperationsTests.token) }.run { api, store in
            let alice = try await api.signUp("alice")
            _ = try await AppRegistrations(store: store).add(Self.manifest("org.example.dice", "Dice", publisher: "Acme Games"), builtIn: [])
            try await RemoteAppTests.waitUntilListed(api, as: alice, app: "org.example.dice")
            let apps = try await api.get("/api/apps", as: alice).decode(Wire.Directory.self).apps
            let dice = try #require(apps.first { $0.id.rawValue == "org.example.dice" })
            #expect(dice.isOutside && dice.publisher == "Acme Games")
            #expect(apps.filter { $0.id.rawValue.hasPrefix("org.parlor.") }.allSatisfy { !$0.isOutside })
            // The operator's HTTP route follows the same rules.
            let refused = try await api.request(
                .post, "/api/admin/apps", json: ["id": "org.example.dice2", "name": "DICE", "icon": ["url": "https://e.org/x.png"]],
                headers: [.authorization: "Bearer \(OperationsTests.token)"])
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "appNameTaken")
        }
    }
}
