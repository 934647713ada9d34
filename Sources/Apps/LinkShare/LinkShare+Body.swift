import ParlorKit

extension LinkShare {
    /// The web page of a tapped message, or the feed: its error and Retry button (when the last
    /// load failed) above the posts of the last good load, and a Refresh button.
    @ViewBuilder public func body(state: State, environment: ViewEnvironment) -> ViewNode {
        if let page = state.page, environment.presentationStyle != .compact {
            VStack {
                Button("Back to posts", action: Action.closePage, role: .secondary)
                WebPage(url: page.url, title: page.title)
            }
        } else {
            VStack {
                Text(feedTitle, style: .headline, id: "feed-title")
                if let error = state.error {
                    Text(error.message, style: .callout, color: .destructive, id: "feed-error")
                    Button("Retry", action: Action.refresh)
                    if !state.posts.isEmpty {
                        Text("Showing the posts from the last successful refresh.", style: .caption, color: .secondary)
                    }
                }
                if state.posts.isEmpty {
                    if state.error == nil { Text("No posts to share right now.", style: .body, color: .secondary, id: "empty") }
                } else {
                    postList(state.posts)
                }
                if state.error == nil { Button("Refresh", action: Action.refresh, role: .secondary) }
            }
        }
    }

    /// One row per post: tapping it stages the post as a message.
    private func postList(_ posts: [Post]) -> ViewNode {
        List(label: "Posts from \(feedTitle)", id: "posts") {
            for post in posts {
                ListRow(label: post.rowLabel, action: Action.share(postID: post.id), id: "post-\(post.id)") {
                    HStack(alignment: .leading) {
                        if let thumbnail = post.thumbnail { Image(.url(thumbnail), label: nil, width: 56, height: 56) }
                        VStack {
                            Text(post.title, style: .body)
                            HStack {
                                Text(post.scoreText, style: .caption, color: .secondary)
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
