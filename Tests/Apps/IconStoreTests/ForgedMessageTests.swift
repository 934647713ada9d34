import Foundation
import IconStore
@_spi(Hosting) import ParlorHost
@_spi(Hosting) import ParlorKit
import Testing

/// Message URLs come from outside: a damaged, incomplete or forged one shows a clear error and
/// never crashes, and the host refuses to commit a message the app would not make.
@Suite("Icon Store: malformed and forged messages")
struct ForgedMessageTests {
    static let catDescription = "Halloween%20icon%20designed%20by%20Tania%20Raskalova."

    /// A URL, and what the recipient is told about it.
    static let forgeries: [(url: String?, shown: String)] = [
        ("https://parlor.example/iconstore?name=Bat%20icon&imageName=bat&description=Spooky&price=1.99",
         "The Icon Store has no icon called 'bat'."),
        ("https://parlor.example/iconstore?name=Cat%20icon&imageName=cat&description=\(catDescription)",
         "This icon message is incomplete: it has no price."),
        ("https://parlor.example/iconstore?name=Cat%20icon&description=\(catDescription)&price=2.99",
         "This icon message is incomplete: it has no icon."),
        ("https://parlor.example/iconstore?name=Cat%20icon&imageName=cat&description=\(catDescription)&price=0.01",
         "This message says Cat icon costs $0.01, but the Icon Store sells it for $2.99."),
        ("https://parlor.example/iconstore?name=Cat%20icon&imageName=cat&description=\(catDescription)&price=free",
         "This message's price 'free' is not a price."),
        ("https://parlor.example/iconstore?name=Cat%20icon&imageName=cat&description=Free%20forever&price=2.99",
         "This message's description of Cat icon is not the Icon Store's."),
        ("https://parlor.example/iconstore?name=Free%20cat&imageName=cat&description=\(catDescription)&price=2.99",
         "This message calls the icon 'Free cat', but the Icon Store calls it 'Cat icon'."),
        ("https://parlor.example/iconstore?name=Cat%20icon&imageName=cat&imageName=owl&description=\(catDescription)&price=2.99",
         "This icon message gives its icon more than once."),
        ("https://parlor.example/iconstore?name=%C3%28&imageName=cat&description=\(catDescription)&price=2.99",
         "This icon message is damaged and cannot be read."),
        (nil, "This message carries no icon."),
    ]

    /// An instance of the app for one user, as the server or simulator hosts it.
    func makeInstance() -> AppInstance<IconStore> {
        AppInstance(app: IconStore(), configuration: InstanceConfiguration(
            localParticipant: ParticipantID(), remoteParticipants: [ParticipantID()],
            conversationHost: NoConversationHost(), container: InMemoryContainer()))
    }

    @Test("Tapping a forged or malformed message opens on a clear error, with nothing to buy or like", arguments: forgeries)
    func recipientSeesError(url: String?, shown: String) async throws {
        var message = Message(
            session: Session(), url: url.flatMap(URL.init(string:)),
            layout: .template(TemplateLayout(caption: "Cat icon", subcaption: "$0.01")))
        message.senderParticipantIdentifier = ParticipantID()
        let instance = makeInstance()

        let update = await instance.tap(message)
        #expect(update.isActive)
        #expect(update.presentationStyle == .expanded)
        #expect(update.modal == IconStore.detailModal)
        #expect(update.view.text(id: "detail-error-title") == "This icon can't be shown")
        #expect(update.view.text(id: "detail-error") == shown)
        #expect(update.view.text(id: "detail-name") == nil)
        #expect(update.view.interactiveNodes(matching: "buy").isEmpty)
        #expect(update.view.interactiveNodes(matching: "like").isEmpty)
        #expect(update.error == nil, "the app handled it; nothing failed")
    }

    @Test("After a forged message, tapping a genuine one shows its icon")
    func recoversOnGenuineMessage() async throws {
        let instance = makeInstance()
        var forged = Message(session: Session(), url: URL(string: "https://parlor.example/iconstore?imageName=bat"))
        forged.senderParticipantIdentifier = ParticipantID()
        _ = await instance.tap(forged)

        let sender = ParticipantID()
        let cat = try #require(IconCatalog.icon(imageName: "cat"))
        var genuine = try IconMessage(icon: cat, kind: .share).message(from: sender, in: Session())
        genuine.senderParticipantIdentifier = sender
        let update = await instance.tap(genuine)
        #expect(update.view.text(id: "detail-error") == nil)
        #expect(update.view.text(id: "detail-name") == "Cat icon")
    }

    @Test("A URL in the seed's own format (appcoda.com base) is read as the Cat icon")
    func seedFormatURLDecodes() throws {
        let url = URL(string: "http://www.appcoda.com/?name=Cat%20icon&imageName=cat&description=\(Self.catDescription)&price=2.99")
        let read = try IconMessage(url: url)
        #expect(read.icon.name == "Cat icon")
        #expect(read.kind == .share)
    }

    @Test("The host refuses to commit a forged URL, with the same explanation", arguments: forgeries)
    func validateRefusesForgedURL(url: String?, shown: String) throws {
        var message = Message(session: Session(), url: url.flatMap(URL.init(string:)))
        message.senderParticipantIdentifier = ParticipantID()
        let error = try #require(throws: MessagesError.self) { try IconStore().validate(message, replacing: nil) }
        #expect(error.code == .actionRefused)
        #expect(error.message == shown)
    }

    @Test("The host accepts the messages the app makes: a share, a like of it, and the like taken back")
    func validateAcceptsGenuine() throws {
        let alice = ParticipantID(), bob = ParticipantID()
        let owl = try #require(IconCatalog.icon(imageName: "owl"))
        let session = Session()
        let shared = IconMessage(icon: owl, kind: .share)
        var share = try shared.message(from: alice, in: session)
        share.senderParticipantIdentifier = alice
        let liked = try #require(shared.reply(by: bob, liking: true))
        var like = try liked.message(from: bob, in: session)
        like.senderParticipantIdentifier = bob
        var unlike = try #require(liked.reply(by: bob, liking: false)).message(from: bob, in: session)
        unlike.senderParticipantIdentifier = bob

        try IconStore().validate(share, replacing: nil)
        try IconStore().validate(like, replacing: share)
        try IconStore().validate(unlike, replacing: like)
        #expect(liked.reply(by: bob, liking: true) == nil, "liking twice changes nothing")
    }

    @Test("The host refuses a genuine URL dressed in a forged bubble, a like in someone else's name, and likes outside their session")
    func validateRefusesForgedShapes() throws {
        let alice = ParticipantID(), bob = ParticipantID(), carol = ParticipantID()
        let app = IconStore()
        let cat = try #require(IconCatalog.icon(imageName: "cat"))
        let owl = try #require(IconCatalog.icon(imageName: "owl"))
        let session = Session()
        var share = try IconMessage(icon: cat, kind: .share).message(from: alice, in: session)
        share.senderParticipantIdentifier = alice

        var cheapBubble = share
        cheapBubble.layout = .template(TemplateLayout(image: cat.image, caption: "Cat icon", subcaption: "FREE"))
        #expect(throws: MessagesError.self) { try app.validate(cheapBubble, replacing: nil) }

        var impersonated = try IconMessage(icon: cat, kind: .like, likedBy: [carol]).message(from: carol, in: session)
        impersonated.senderParticipantIdentifier = bob
        #expect(throws: MessagesError.self, "a like in Carol's name, sent by Bob") { try app.validate(impersonated, replacing: share) }

        var bobLikes = try IconMessage(icon: cat, kind: .like, likedBy: [bob]).message(from: bob, in: session)
        bobLikes.senderParticipantIdentifier = bob
        try app.validate(bobLikes, replacing: share)
        var unlikesBob = try IconMessage(icon: cat, kind: .unlike, likedBy: []).message(from: carol, in: session)
        unlikesBob.senderParticipantIdentifier = carol
        #expect(throws: MessagesError.self, "Carol takes back Bob's like") { try app.validate(unlikesBob, replacing: bobLikes) }
        var inflated = try IconMessage(icon: cat, kind: .like, likedBy: [bob, carol, ParticipantID()]).message(from: carol, in: session)
        inflated.senderParticipantIdentifier = carol
        #expect(throws: MessagesError.self, "a like that adds someone else's too") { try app.validate(inflated, replacing: bobLikes) }

        var likeWithoutShare = try IconMessage(icon: cat, kind: .like, likedBy: [bob]).message(from: bob, in: Session())
        likeWithoutShare.senderParticipantIdentifier = bob
        #expect(throws: MessagesError.self) { try app.validate(likeWithoutShare, replacing: nil) }

        var likeOfAnotherIcon = try IconMessage(icon: owl, kind: .like, likedBy: [bob]).message(from: bob, in: session)
        likeOfAnotherIcon.senderParticipantIdentifier = bob
        #expect(throws: MessagesError.self) { try app.validate(likeOfAnotherIcon, replacing: share) }

        var shareOverShare = try IconMessage(icon: owl, kind: .share).message(from: bob, in: session)
        shareOverShare.senderParticipantIdentifier = bob
        #expect(throws: MessagesError.self) { try app.validate(shareOverShare, replacing: share) }

        // Whether a message answers its session decides whose name the bubble is drawn in: a like
        // claiming to take the session over (drawn as Bob's own icon), or a share claiming to
        // answer one, is not what the Icon Store sends.
        var likeTakingOver = bobLikes
        likeTakingOver.answersSession = false
        #expect(throws: MessagesError.self, "a like drawn as the liker's own share") { try app.validate(likeTakingOver, replacing: share) }
        try app.validate(share, replacing: nil)
        var shareAnswering = share
        shareAnswering.answersSession = true
        #expect(throws: MessagesError.self) { try app.validate(shareAnswering, replacing: nil) }
    }
}
