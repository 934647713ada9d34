import Foundation
import ParlorKit

/// What apps keep per person: instance snapshots, compose fields, participant ids, containers.
public protocol AppStateStore: Sendable {
    /// Saves an app instance's snapshot (how its view was left), without waiting for the disk (see
    /// `ParlorStore`): a move costs the disk the sync of its message only, as a plain message does.
    func saveInstance(_ snapshot: Data, user: UserID, scope: InstanceScope, app: AppID) async throws
    func instance(user: UserID, scope: InstanceScope, app: AppID) async throws -> Data?
    /// Sets (or with nil clears) what `user` has staged in a conversation, without waiting for the
    /// disk (see `ParlorStore`). Sending it clears it in the message's own, durable, transaction.
    func setStaged(_ staged: StagedRecord?, user: UserID, conversation: ConversationID) async throws
    func staged(user: UserID, conversation: ConversationID) async throws -> StagedRecord?
    /// The user's participant id inside `app`: created on first use, then stable.
    func participantID(user: UserID, app: AppID) async throws -> ParticipantID
    func containerData(user: UserID, app: AppID, key: String) async throws -> Data?
    func setContainerData(_ data: Data?, user: UserID, app: AppID, key: String) async throws
}
