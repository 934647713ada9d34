import Foundation
import LinkShare
import ParlorKit
import ParlorHost
import ParlorTesting

extension ViewNode {
    /// The in-app web pages in the view.
    var webPages: [WebPageNode] {
        allNodes.compactMap { node in
            if case .webPage(let page) = node { return page }
            return nil
        }
    }

    /// The accessibility labels of the list's rows, in order.
    var rowLabels: [String] {
        allNodes.compactMap { node in
            if case .row(let row) = node { return row.label }
            return nil
        }
    }

    /// The titles of the posts listed (each row's first text).
    var listedTitles: [String] {
        allNodes.compactMap { node in
            if case .row(let row) = node { return row.children.first?.visibleTexts.first }
            return nil
        }
    }

    /// The labels of the enabled buttons in the view.
    var buttonTitles: [String] {
        allNodes.compactMap { node in
            if case .button(let button) = node, !button.disabled { return button.title }
            return nil
        }
    }

    /// The text with element id `id`, if shown.
    func text(id: String) -> String? {
        allNodes.lazy.compactMap { node in
            if case .text(let text) = node, text.id == id { return text.text }
            return nil
        }.first
    }
}

/// LinkShare reading `feedURL` with a timeout long enough that a stalled machine (a shared CI
/// runner) cannot turn a quick answer or refusal into a timeout: for tests not about timeouts.
func patientLinkShare(feedURL: URL) -> LinkShare {
    LinkShare(feedURL: feedURL, timeout: .seconds(120))
}

/// A two-person conversation with LinkShare installed, fetching through a real HTTP client.
func linkShareConversation(_ app: LinkShare) -> ConversationSimulator {
    ConversationSimulator(participants: ["Alice", "Bob"], apps: [app], httpClient: URLSessionFetchClient())
}
