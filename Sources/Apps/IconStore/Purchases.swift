import ParlorKit

/// The icons a user bought, kept in the app's container: the one place both the home surface and
/// the message extension read and write them, like the seed's app group.
enum Purchases {
    /// The container key holding the bought icons' image names.
    static let key = "purchases"

    /// The image names of the icons the user owns.
    /// - Throws: `MessagesError(.invalidValue)` when the stored list cannot be read.
    static func owned(in container: any AppContainer) async throws -> Set<String> {
        Set(try await container.value([String].self, forKey: key) ?? [])
    }

    /// Records that the user bought `icon`; returns everything the user now owns.
    static func record(_ icon: Icon, in container: any AppContainer) async throws -> Set<String> {
        var owned = try await owned(in: container)
        owned.insert(icon.imageName)
        try await container.setValue(owned.sorted(), forKey: key)
        return owned
    }
}
