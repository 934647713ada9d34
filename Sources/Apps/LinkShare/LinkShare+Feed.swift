import Foundation
import ParlorKit

/// Choosing the feed: a person's choice is kept in their container under `feedKey`, read each time
/// the app becomes active (it may have changed in another conversation), and forgotten when they
/// go back to the server's default.
extension LinkShare {
    /// The container key of the chosen feed.
    static let feedKey = "feed"

    /// What the container keeps: the chosen feed's address.
    struct StoredFeed: Codable {
        var url: String
    }

    /// Shows the feed `text` names and remembers it; or, when it names no feed LinkShare can
    /// read, keeps the chooser open with the reason.
    func choose(_ text: String, state: inout State, context: AppContext) async {
        let url: URL
        do {
            url = try FeedAddress.resolve(text, defaultFeed: feedURL)
        } catch {
            state.notice = error.message
            return
        }
        let chosen = url == feedURL ? nil : url  // choosing the default is going back to it
        state.isChoosingFeed = false
        state.notice = nil
        await remember(chosen, state: &state, context: context)
        show(chosen, state: &state)
        await reload(&state, context: context)
    }

    /// Forgets the chosen feed and shows the server's default.
    func useDefaultFeed(_ state: inout State, context: AppContext) async {
        state.isChoosingFeed = false
        state.notice = nil
        await remember(nil, state: &state, context: context)
        show(nil, state: &state)
        await reload(&state, context: context)
    }

    /// Takes the feed kept in the container; the server's default when there is none, or when
    /// the one kept can no longer be read (the notice says so).
    func readChosenFeed(_ state: inout State, context: AppContext) async {
        let stored: StoredFeed?
        do {
            stored = try await context.container.value(StoredFeed.self, forKey: Self.feedKey)
        } catch {
            state.notice = "LinkShare couldn't read the feed you chose, so it shows the server's default."
            show(nil, state: &state)
            return
        }
        guard let stored else { return show(nil, state: &state) }
        do {
            let url = try FeedAddress.resolve(stored.url, defaultFeed: feedURL)
            show(url == feedURL ? nil : url, state: &state)
        } catch {
            state.notice = "The feed you chose can't be used any more, so LinkShare shows the server's default. \(error.message)"
            show(nil, state: &state)
        }
    }

    /// Keeps `feed` in the container (nil forgets it); a failure is said in the notice.
    private func remember(_ feed: URL?, state: inout State, context: AppContext) async {
        do {
            if let feed {
                try await context.container.setValue(StoredFeed(url: feed.absoluteString), forKey: Self.feedKey)
            } else {
                try await context.container.setData(nil, forKey: Self.feedKey)
            }
        } catch {
            state.notice = "LinkShare couldn't remember this choice, so it will show the server's default next time."
        }
    }

    /// Makes `feed` (nil: the default) the one shown; another feed's posts and title go.
    private func show(_ feed: URL?, state: inout State) {
        guard feed != state.chosenFeed else { return }
        state.chosenFeed = feed
        state.posts = []
        state.feedTitle = nil
        state.error = nil
        state.failures = 0
    }
}
