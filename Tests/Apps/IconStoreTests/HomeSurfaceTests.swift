import IconStore
import ParlorKit
import ParlorTesting
import Testing

/// The seed's original app: the home grid, an icon's detail, buying, and the container it shares
/// with the message extension.
@Suite("Icon Store: the home surface")
struct HomeSurfaceTests {
    let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [IconStore()])
    var alice: SimulatedParticipant { simulator.participant("Alice") }
    var bob: SimulatedParticipant { simulator.participant("Bob") }

    @Test("The home grid shows all 20 icons, the featured Cat, Owl and Coffee icons first")
    func featuredFirst() async throws {
        let view = try await alice.openHome(named: "Icon Store")
        #expect(view.gridCellTitles == [
            "Cat icon", "Owl icon", "Coffee icon",
            "Candle icon", "Dribbble icon", "Ghost icon", "Hat icon", "Pot icon", "Pumpkin icon", "RIP icon", "Skull icon",
            "Sky icon", "Toxic icon", "Book icon", "Backpack icon", "Camera icon", "Glasses icon", "Icecream icon",
            "Smoking pipe icon", "Vespa icon",
        ])
        let featuredCells = view.gridCells.filter { $0.visibleTexts.contains("Featured") }
        #expect(featuredCells.map { $0.visibleTexts.first } == ["Cat icon", "Owl icon", "Coffee icon"])
    }

    @Test("Tapping a cell shows the icon's detail with Buy and no Like (no conversation at home)")
    func cellShowsDetail() async throws {
        try await alice.openHome(named: "Icon Store")
        try await alice.tapHome("Owl icon, $5.99", in: "Icon Store")
        let view = await alice.homeView()
        #expect(view.modalScreen?.title == "Owl icon")
        #expect(view.text(id: "detail-description") == "Halloween icon designed by Tania Raskalova.")
        #expect(view.text(id: "detail-price") == "$5.99")
        #expect(view.hasEnabledControl("Buy Owl icon for $5.99"))
        #expect(view.interactiveNodes(matching: "Like Owl icon").isEmpty)
    }

    @Test("Buy asks to confirm first; Cancel buys nothing; confirmed, the detail and the grid cell show the icon as owned")
    func buyMakesOwned() async throws {
        try await alice.openHome(named: "Icon Store")
        try await alice.tapHome("Cat icon, $2.99", in: "Icon Store")
        try await alice.tapHome("Buy Cat icon for $2.99", in: "Icon Store")
        let asking = await alice.homeView()
        #expect(asking.text(id: "confirm-question") == "Buy Cat icon for $2.99?")
        #expect(asking.text(id: "detail-owned") == nil, "nothing bought before confirming")
        try await alice.tapHome("Don't buy Cat icon", in: "Icon Store")
        #expect(await alice.homeView().text(id: "confirm-question") == nil)
        #expect(await alice.homeView().gridCells.allSatisfy { !$0.visibleTexts.contains("Owned") })

        try await alice.tapHome("Buy Cat icon for $2.99", in: "Icon Store")
        try await alice.tapHome("Confirm: buy Cat icon for $2.99", in: "Icon Store")
        let view = await alice.homeView()
        #expect(await alice.homeError() == nil)
        #expect(view.text(id: "detail-owned") == "Owned")
        #expect(view.interactiveNodes(matching: "Buy Cat icon for $2.99").isEmpty)
        let cells = view.gridCells.filter { $0.visibleTexts.contains("Owned") }
        #expect(cells.map { $0.visibleTexts.first } == ["Cat icon"])
    }

    @Test("An icon bought at home shows as owned in the same user's extension, not in another user's")
    func ownedSeenFromExtension() async throws {
        try await alice.openHome(named: "Icon Store")
        try await alice.tapHome("Cat icon, $2.99", in: "Icon Store")
        try await alice.tapHome("Buy Cat icon for $2.99", in: "Icon Store")
        try await alice.tapHome("Confirm: buy Cat icon for $2.99", in: "Icon Store")

        let aliceList = try await alice.openApp(named: "Icon Store")
        let aliceCat = try #require(aliceList.rows.first { $0.id == "share-cat" })
        #expect(aliceCat.texts.contains("Owned"))
        #expect(aliceList.rows.filter { $0.texts.contains("Owned") }.count == 1)

        let bobList = try await bob.openApp(named: "Icon Store")
        #expect(bobList.rows.allSatisfy { !$0.texts.contains("Owned") })

        // Bob shares the Cat icon: Alice, who owns it, sees Owned instead of Buy.
        try await bob.tap("Cat icon, $2.99")
        try await bob.sendStaged()
        let detail = try await alice.tapMessage(containing: "Cat icon")
        #expect(detail.text(id: "detail-owned") == "Owned")
        #expect(detail.interactiveNodes(matching: "Buy Cat icon for $2.99").isEmpty)
    }

    @Test("An icon bought from a message's detail shows as owned on the same user's home grid")
    func boughtInExtensionSeenAtHome() async throws {
        try await alice.openApp(named: "Icon Store")
        try await alice.tap("Vespa icon, $9.99")
        try await alice.sendStaged()

        try await bob.tapMessage(containing: "Vespa icon")
        try await bob.tap("Buy Vespa icon for $9.99")
        try await bob.tap("Confirm: buy Vespa icon for $9.99")
        #expect(await bob.appError() == nil)
        #expect(await bob.view().text(id: "detail-owned") == "Owned")

        let home = try await bob.openHome(named: "Icon Store")
        let owned = home.gridCells.filter { $0.visibleTexts.contains("Owned") }
        #expect(owned.map { $0.visibleTexts.first } == ["Vespa icon"])
        let aliceHome = try await alice.openHome(named: "Icon Store")
        #expect(aliceHome.gridCells.allSatisfy { !$0.visibleTexts.contains("Owned") })
    }
}
