import Foundation
import ParlorKit

/// What each person installed in their app drawer.
public protocol DrawerStore: Sendable {
    /// The user's drawer (app ids and `sticker:<pack>` ids, in order), or nil when never set.
    func drawer(user: UserID) async throws -> [String]?
    func setDrawer(_ items: [String], user: UserID) async throws
}
