import Foundation
import ParlorKit

/// A write of a user's state that can ride in a message's transaction (`ParlorStore.append`):
/// sending what was staged clears the compose field in the same commit, so no crash can leave a
/// sent message still waiting to be sent; a message an app sends from a hook drops the app's saved
/// snapshot in the same commit, so no crash can leave the app's state older than that message.
public enum StateWrite: Sendable, Hashable {
    /// `ParlorStore.setStaged` (nil clears the compose field).
    case staged(StagedRecord?, user: UserID, conversation: ConversationID)
    /// `ParlorStore.saveInstance` (nil drops the snapshot: the app opens afresh next time).
    case instance(Data?, user: UserID, scope: InstanceScope, app: AppID)
}
