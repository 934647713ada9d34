import IconStore
import ParlorKit
import ParlorTesting
import Testing

/// The seed's flow: Alice picks an icon in the extension and sends it; Bob taps the message and the
/// extension opens on the icon's detail, by both of the seed's paths.
@Suite("Icon Store: sharing an icon in a conversation")
struct IconSharingTests {
    let simulator = ConversationSimulator(participants: ["Alice", "Bob"], apps: [IconStore()])
    var alice: SimulatedParticipant { simulator.participant("Alice") }
    var bob: SimulatedParticipant { simulator.participant("Bob") }

    /// Alice opens the extension, taps the Cat icon's row and sends the staged message.
    func aliceSendsCat() async throws {
        try await alice.openApp(named: "Icon Store")
        try await alice.tap("Cat icon, $2.99")
        try await alice.sendStaged()
    }

    @Test("The extension lists the 20 icons in the seed's order, each with image, name, description and price")
    func extensionListsIcons() async throws {
        let view = try await alice.openApp(named: "Icon Store")
        #expect(await alice.presentationStyle() == .compact)
        let rows = view.rows
        #expect(rows.count == 20)
        let candle = try #require(rows.first)
        #expect(candle.texts == ["Candle icon", "Halloween icons designed by Tania Raskalova.", "$3.99"])
        #expect(candle.children.contains { node in
            if case .image(let image) = node { return image.source == .asset("candle.png") }
            return false
        })
        let vespa = try #require(rows.last)
        #expect(vespa.texts == ["Vespa icon", "Colorful icon designed by Marin Begović.", "$9.99"])
    }

    @Test("Tapping a row stages a message: caption the name, subcaption the price, the icon's image, the seed's URL items")
    func tappingARowStagesTheIcon() async throws {
        try await alice.openApp(named: "Icon Store")
        try await alice.tap("Cat icon, $2.99")

        let staged = try #require(await alice.staged()?.message)
        let layout = try #require(staged.template)
        #expect(layout.caption == "Cat icon")
        #expect(layout.subcaption == "$2.99")
        #expect(layout.image == .asset("cat.png"))
        let items = try QueryItems(url: try #require(staged.url))
        #expect(items["name"] == "Cat icon")
        #expect(items["imageName"] == "cat")
        #expect(items["description"] == "Halloween icon designed by Tania Raskalova.")
        #expect(items["price"] == "2.99")
        #expect(staged.session != nil)
        #expect(staged.summaryText == "\(try await alice.participantID(in: "Icon Store").mention) shared Cat icon ($2.99)", "the line says who shared it")
        #expect(staged.accessibilityLabel == "Cat icon, $2.99: Halloween icon designed by Tania Raskalova.")
        #expect(await simulator.messages.isEmpty, "the user sends it; the app only stages it")
    }

    @Test("Bob taps Alice's icon while the extension is closed: it opens expanded on the detail (willBecomeActive)")
    func recipientOpensDetail() async throws {
        try await aliceSendsCat()

        let view = try await bob.tapMessage(containing: "Cat icon")
        #expect(await bob.presentationStyle() == .expanded)
        #expect(await bob.modal() == IconStore.detailModal)
        #expect(view.image(id: "detail-image")?.source == .asset("cat.png"))
        #expect(view.image(id: "detail-image")?.label == "Cat icon")
        #expect(view.text(id: "detail-name") == "Cat icon")
        #expect(view.text(id: "detail-description") == "Halloween icon designed by Tania Raskalova.")
        #expect(view.text(id: "detail-price") == "$2.99")
        #expect(view.hasEnabledControl("Buy Cat icon for $2.99"))
        #expect(view.hasEnabledControl("Like Cat icon"))
        #expect(await bob.appError() == nil)
    }

    @Test("Back to compact dismisses the detail; tapping the message again shows it again (willTransition, didSelect)")
    func compactDismissesAndTapShowsAgain() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")

        try await bob.collapse()
        let compact = await bob.view()
        #expect(await bob.presentationStyle() == .compact)
        #expect(await bob.modal() == nil)
        #expect(compact.text(id: "detail-name") == nil)
        #expect(compact.rows.count == 20, "the list is back")

        let again = try await bob.tapMessage(containing: "Cat icon")
        #expect(await bob.presentationStyle() == .expanded)
        #expect(await bob.modal() == IconStore.detailModal)
        #expect(again.text(id: "detail-name") == "Cat icon")
    }

    @Test("After closing the app, tapping the message opens the detail again; opening from the drawer does not")
    func reopenAfterDismiss() async throws {
        try await aliceSendsCat()
        try await bob.tapMessage(containing: "Cat icon")
        try await bob.dismissApp()

        let reopened = try await bob.tapMessage(containing: "Cat icon")
        #expect(reopened.text(id: "detail-name") == "Cat icon")

        try await bob.dismissApp()
        let fromDrawer = try await bob.openApp(named: "Icon Store")
        #expect(await bob.presentationStyle() == .compact)
        #expect(await bob.modal() == nil)
        #expect(fromDrawer.text(id: "detail-name") == nil)
    }

    @Test("Tapping another icon's message while the detail is open switches the detail to that icon")
    func selectingAnotherMessageSwitchesDetail() async throws {
        try await aliceSendsCat()
        try await alice.tap("Owl icon, $5.99")
        try await alice.sendStaged()

        try await bob.tapMessage(containing: "Cat icon")
        let owl = try await bob.tapMessage(containing: "Owl icon")
        #expect(owl.text(id: "detail-name") == "Owl icon")
        #expect(owl.text(id: "detail-price") == "$5.99")
        #expect(owl.image(id: "detail-image")?.source == .asset("owl.png"))
    }

    @Test("The sender tapping her own icon sees its detail without a Like button")
    func senderSeesNoLike() async throws {
        try await aliceSendsCat()
        try await alice.dismissApp()

        let view = try await alice.tapMessage(containing: "Cat icon")
        #expect(view.text(id: "detail-name") == "Cat icon")
        #expect(view.interactiveNodes(matching: "Like Cat icon").isEmpty)
    }
}
