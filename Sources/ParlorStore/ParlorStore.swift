import Foundation
import ParlorKit

/// Everything Parlor keeps: accounts, conversations, messages, staged messages, app instances,
/// app containers, installs and blobs. SQLite (`SQLiteStore`) is the embedded default; one test
/// suite runs against every implementation.
///
/// It is the sum of narrow roles, one per thing kept (`AccountStore`, `MessageStore`, …, in
/// `Roles/`), as GRDB's `DatabaseReader` and `DatabaseWriter` are: a service asks for the roles
/// it uses (`any MessageStore & ReceiptStore`), and only the composition root holds the whole.
///
/// Messages get gapless per-conversation sequence numbers and are durable when `append` returns.
///
/// A few writes do not wait for the disk, because they change all the time and losing the last
/// of them costs a person nothing they wrote: read marks (with the expiry countdowns a read
/// starts), app snapshots and compose fields (what an app staged, not yet sent). Such a write survives the server process being killed, and is on
/// disk once any commit after it is (a message's `append`); only power lost before that can take
/// it back, and then never without the writes before it.
public protocol ParlorStore:
    AccountStore, TokenStore, SecretStore, ConversationStore, MessageStore, ReceiptStore, ExpiryStore, MessageChangeStore,
    SearchStore, ReactionStore, AppStateStore, DrawerStore, BlobStore, AppRegistryStore, OperationsStore,
    BlockStore, PushStore
{}
