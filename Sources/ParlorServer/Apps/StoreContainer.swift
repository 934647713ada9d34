import Foundation
import ParlorKit
import ParlorStore

/// An app's container for one user, kept in the store.
struct StoreContainer: AppContainer {
    let store: any AppStateStore
    let user: UserID
    let app: AppID
    static let maxValueBytes = 1024 * 1024

    func data(forKey key: String) async throws -> Data? {
        try await store.containerData(user: user, app: app, key: key)
    }

    func setData(_ data: Data?, forKey key: String) async throws {
        guard key.count <= 200, (data?.count ?? 0) <= Self.maxValueBytes else {
            throw MessagesError(.mediaExceedsMaxSize, "A stored value is limited to \(Self.maxValueBytes) bytes and its key to 200 characters.")
        }
        try await store.setContainerData(data, user: user, app: app, key: key)
    }
}
