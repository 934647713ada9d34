import Foundation
import Hello
import IconStore
import LinkShare
import ParlorAppRunner
import ParlorHost
import ParlorKit
import RSVP
import TicTacToe
import Todo

/// The apps `parlor serve` hosts: the six seed apps and the example app. The server links none
/// of them; whoever starts it composes the catalog (`AppDirectory(apps:stickerDirectory:)`).
public enum SeedApps {
    /// Every seed app, in drawer order.
    /// - Parameter feedURL: the feed LinkShare reads (Reddit's r/programming by default).
    public static func all(feedURL: URL? = nil) -> [AnyMessagesApp] {
        let linkShare = feedURL.map { LinkShare(feedURL: $0) } ?? LinkShare()
        return [
            AnyMessagesApp(IconStore()), AnyMessagesApp(TicTacToe()), AnyMessagesApp(RSVP()), AnyMessagesApp(linkShare),
            AnyMessagesApp(Todo()), AnyMessagesApp(Hello()),
        ]
    }

    /// The apps written to show developers how (Hello): in the store, not in a new person's drawer.
    public static var examples: Set<AppID> { [Hello().manifest.id] }

    /// The seed apps' ids: an app outside the server cannot take one.
    public static var ids: [AppID] { all().map(\.manifest.id) }

    /// Runs the seed app `id` in this process, dialled in to each of `servers` (the nodes of one
    /// Parlor; empty: `PARLOR_URL`) with `secret` (`parlor apps run`): the same code as in the
    /// server, over the app protocol.
    /// - Throws: `ConnectionRefused` when the server refuses the credential; `MessagesError` for
    ///   an id that is not a seed app's.
    public static func runOutOfProcess(
        _ id: AppID, servers: [URL], secret: String?, feedURL: URL? = nil, onConnected: @escaping @Sendable () async -> Void = {}
    ) async throws {
        switch id {
        case Hello().manifest.id: try await AppRunner(app: Hello(), servers: servers, secret: secret).run(onConnected: onConnected)
        case IconStore().manifest.id: try await AppRunner(app: IconStore(), servers: servers, secret: secret).run(onConnected: onConnected)
        case TicTacToe().manifest.id: try await AppRunner(app: TicTacToe(), servers: servers, secret: secret).run(onConnected: onConnected)
        case RSVP().manifest.id: try await AppRunner(app: RSVP(), servers: servers, secret: secret).run(onConnected: onConnected)
        case Todo().manifest.id: try await AppRunner(app: Todo(), servers: servers, secret: secret).run(onConnected: onConnected)
        case LinkShare().manifest.id:
            let app = feedURL.map { LinkShare(feedURL: $0) } ?? LinkShare()
            try await AppRunner(app: app, servers: servers, secret: secret).run(onConnected: onConnected)
        default:
            throw MessagesError(.fileNotFound, "\(id) is not a seed app; they are \(ids.map(\.rawValue).joined(separator: ", ")).")
        }
    }
}
