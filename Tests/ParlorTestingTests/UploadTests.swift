import Foundation
import ParlorKit
import ParlorTesting
import Testing

/// An app that draws a picture once and sends it by its upload id.
struct SketchApp: MessagesApp {
    static let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 150_000)
    var manifest: AppManifest { AppManifest(id: "org.parlor.test.sketch", name: "Sketch", icon: .asset("sketch.png")) }
    struct State: Codable, Sendable { var ids: [String] = [] }
    enum Action: Codable, Sendable { case draw, drawText }
    var initialState: State { State() }

    func body(state: State, environment: ViewEnvironment) -> ViewNode {
        VStack {
            for id in state.ids { Image(.upload(id), label: "Sketch", width: 40, height: 40) }
            Button("Draw", action: Action.draw)
            Button("Draw text", action: Action.drawText)
        }
    }

    func handle(_ action: Action, state: inout State, context: AppContext) async throws {
        switch action {
        case .draw:
            let image = try await context.conversation.upload(image: Self.picture)
            guard case .upload(let id) = image else { return }
            state.ids.append(id)
            try await context.conversation.send(Message(layout: .template(TemplateLayout(image: image, caption: "A sketch"))))
        case .drawText:
            _ = try await context.conversation.upload(image: Data("<svg/>".utf8))
        }
    }
}

@Suite("Images apps upload, in the simulator")
struct UploadTests {
    @Test("Uploaded once and shown by its id, the same bytes the same id; what is not an image or an unknown id is refused; in process and over the app protocol alike", arguments: [false, true])
    func uploadOnce(outside: Bool) async throws {
        let simulator = outside
            ? ConversationSimulator(participants: ["Alice", "Bob"], hosting: [OutOfProcess.app(SketchApp())])
            : ConversationSimulator(participants: ["Alice", "Bob"], apps: [SketchApp()])
        let (alice, bob) = (simulator.participant("Alice"), simulator.participant("Bob"))
        _ = try await alice.openApp(named: "Sketch")
        try await alice.tap("Draw")
        let error = await alice.appError()
        #expect(error == nil, "\(String(describing: error))")
        let sent = try #require(await simulator.messages.last?.message)
        guard case .upload(let id)? = sent.template?.image else {
            Issue.record("the message shows no upload: \(String(describing: sent.template?.image))")
            return
        }
        #expect(id.count == 64 && id.allSatisfy(\.isHexDigit))
        #expect(await simulator.uploadedImage(id) == SketchApp.picture, "the bytes, kept once")
        try await alice.tap("Draw")
        #expect(await simulator.messages.compactMap { $0.message?.template?.image }.allSatisfy { $0 == .upload(id) }, "the same bytes, the same id")

        try await alice.tap("Draw text")
        #expect(await alice.appError()?.code == .improperFileType)

        // Bob's own message showing an upload nobody made is refused.
        let forged = Message(layout: .template(TemplateLayout(image: .upload(String(repeating: "ab", count: 32)), caption: "Look")))
        await #expect(throws: MessagesError.self) { try await bob.sendRawMessage(forged, app: "Sketch", replacing: nil) }
        #expect(await simulator.messages.count == 2)
    }
}
