import Foundation
import Hello
import IconStore
import LinkShare
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

    /// The seed apps' ids: an app outside the server cannot take one.
    public static var ids: [AppID] { all().map(\.manifest.id) }
}
