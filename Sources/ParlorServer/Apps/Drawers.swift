import Foundation
import ParlorKit
import ParlorStore

/// What each user installed: their drawer of apps and sticker packs, in order.
final class Drawers: Sendable {
    let store: any DrawerStore
    let caches: ViewerCaches
    let directory: AppDirectory

    init(store: any DrawerStore, caches: ViewerCaches, directory: AppDirectory) {
        self.store = store
        self.caches = caches
        self.directory = directory
    }

    /// The most items a drawer holds.
    static let maxItems = 200

    /// The user's drawer (until they change it, the directory's default: every app and pack but the
    /// store-only ones; computed, so a store-only app also leaves the drawer of who never changed theirs).
    func drawer(of user: UserID) async throws -> [String] {
        try await caches.drawer(user, store: store, directory: directory)
    }

    /// Replaces the user's drawer.
    /// - Throws: `invalidValue` unless it lists each item of the directory at most once.
    func setDrawer(_ items: [String], of user: UserID) async throws {
        guard items.count <= Self.maxItems, Set(items).count == items.count else {
            throw APIError.invalid("The drawer lists each app or sticker pack of the store at most once, at most \(Self.maxItems).")
        }
        if let unknown = items.first(where: { !directory.contains(drawerItem: $0) }) {
            throw APIError(.notFound, code: .unknownApp, "There is no app or sticker pack '\(unknown.prefix(100))' in the store.")
        }
        try await store.setDrawer(items, user: user)
        await caches.setDrawer(items, for: user)
    }

    /// Whether `user` has `app` in their drawer.
    func hasInstalled(_ app: AppID, user: UserID) async throws -> Bool {
        try await drawer(of: user).contains(app.rawValue)
    }
}
