/// How an app is shown, like `MSMessagesAppPresentationStyle`.
public enum PresentationStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// In place of the keyboard; the default when opened from the drawer.
    case compact
    /// Most of the screen; the default when opened by tapping one of the app's messages.
    case expanded
    /// Inside a message bubble (live layouts). Apps cannot request it.
    case transcript
}

/// Which surface of an app is running.
public enum AppSurface: String, Sendable, Hashable, Codable {
    /// The message extension, inside a conversation.
    case messages
    /// The app's own full-screen surface (an iOS app's main screen), outside conversations.
    case home
}
