import ParlorKit

extension LinkShare {
    /// The web page of a tapped message, or the feed: its title, the feed chooser when open, the
    /// error with Retry and Choose feed (when the last load failed) above the posts of the last
    /// good load, and Refresh and Choose feed buttons.
    @ViewBuilder public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if let page = state.page, environment.presentationStyle != .compact {
            VStack {
                Button("Back to posts", action: Action.closePage, role: .secondary)
                WebPage(url: page.url, title: page.title)
            }
        } else {
            VStack {
                Text(title(state), style: .headline, id: "feed-title")
                if let notice = state.notice { Text(notice, style: .callout, color: .destructive, id: "feed-notice") }
                if state.isChoosingFeed { chooser(state) }
                if let error = state.error {
                    Text(error.message, style: .callout, color: .destructive, id: "feed-error")
                    if state.failures > 1 {
                        Text("Still failing after \(state.failures) tries.", style: .caption, color: .secondary, id: "feed-tries")
                    }
                    Button("Retry", action: Action.refresh)
                    if !state.isChoosingFeed { Button("Choose feed", action: Action.chooseFeed, role: .secondary) }
                    if !state.posts.isEmpty {
                        Text("Showing the posts from the last successful refresh.", style: .caption, color: .secondary)
                    }
                }
                if state.posts.isEmpty {
                    if state.error == nil { Text("No posts to share right now.", style: .body, color: .secondary, id: "empty") }
                } else {
                    postList(state.posts, title: title(state))
                }
                if state.error == nil {
                    Button("Refresh", action: Action.refresh, role: .secondary)
                    if !state.isChoosingFeed { Button("Choose feed", action: Action.chooseFeed, role: .secondary) }
                }
            }
        }
    }

    /// The Feed field, the server's default and the way back to it.
    private func chooser(_ state: State) -> ViewNode {
        VStack {
            TextField(
                "Feed", text: state.draft, id: "feed", placeholder: "swift, or https://example.org/feed.xml",
                maxLength: FeedAddress.maxInputLength, onChange: Action.editFeed, onSubmit: Action.useFeed)
            Text("A subreddit name, or the address of an RSS, Atom or Reddit feed.", style: .caption, color: .secondary)
            Button("Show feed", action: Action.useTypedFeed)
            Text("Server default: \(FeedAddress.name(of: feedURL))", style: .caption, color: .secondary, id: "server-default")
            if state.chosenFeed != nil { Button("Use server default", action: Action.useDefaultFeed, role: .secondary) }
            Button("Cancel", action: Action.closeChooser, role: .plain)
        }.node
    }

    /// One row per post: tapping it stages the post as a message.
    private func postList(_ posts: [Post], title: String) -> ViewNode {
        List(label: "Posts from \(title)", id: "posts") {
            for post in posts {
                ListRow(label: post.rowLabel, action: Action.share(postID: post.id), id: "post-\(post.id)") {
                    HStack(alignment: .leading) {
                        if let thumbnail = post.thumbnail { Image(.url(thumbnail), label: nil, width: 56, height: 56) }
                        VStack {
                            Text(post.title, style: .body)
                            HStack {
                                if let score = post.scoreText { Text(score, style: .caption, color: .secondary) }
                                Spacer()
                                Text(post.domain, style: .caption, color: .secondary)
                            }
                            if let byline = post.byline { Text(byline, style: .footnote, color: .secondary) }
                        }
                    }
                }
            }
        }.node
    }
}
