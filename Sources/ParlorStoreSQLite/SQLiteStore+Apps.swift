import Foundation
import GRDB
@_spi(Hosting) import ParlorKit
import ParlorStore

extension SQLiteStore {
    public func setStaged(_ staged: StagedRecord?, user: UserID, conversation: ConversationID) async throws {
        try await apply(.staged(staged, user: user, conversation: conversation))
    }

    public func staged(user: UserID, conversation: ConversationID) async throws -> StagedRecord? {
        if let field = composeFields.field(user: user, conversation: conversation) { return field.record }
        let json = try await read { db in
            try String.fetchOne(
                db, sql: "SELECT record FROM staged WHERE user_id = ? AND conversation_id = ?",
                arguments: [user.description, conversation.description])
        }
        guard let json else { return nil }
        do {
            return try CompactJSONDecoder().decode(StagedRecord.self, from: json)
        } catch {
            throw StoreError(.unavailable, "A stored compose field could not be read.")
        }
    }

    public func saveInstance(_ snapshot: Data, user: UserID, scope: InstanceScope, app: AppID) async throws {
        try await apply(.instance(snapshot, user: user, scope: scope, app: app))
    }

    /// Neither a compose field nor a snapshot waits for the disk (`ParlorStore`).
    private func apply(_ write: StateWrite) async throws {
        let statement = try Self.statement(for: write)
        let fields = composeFields
        try await self.write(synced: false) { db in
            try statement.execute(db)
            db.keepOnCommit([write], in: fields)
        }
    }

    /// One state write as SQL, encoded outside the writer (`apply`, and beside a message in `CommitBatcher`).
    static func statement(for write: StateWrite) throws -> StateStatement {
        switch write {
        case .staged(let record?, let user, let conversation):
            StateStatement(
                sql: "INSERT INTO staged (user_id, conversation_id, record) VALUES (?, ?, ?) ON CONFLICT (user_id, conversation_id) DO UPDATE SET record = excluded.record",
                arguments: [user.description, conversation.description, try encode(record)])
        case .staged(nil, let user, let conversation):
            StateStatement(
                sql: "DELETE FROM staged WHERE user_id = ? AND conversation_id = ?", arguments: [user.description, conversation.description])
        case .instance(let snapshot?, let user, let scope, let app):
            StateStatement(
                sql: "INSERT INTO app_instances (user_id, scope, app_id, snapshot) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, scope, app_id) DO UPDATE SET snapshot = excluded.snapshot",
                arguments: [user.description, scope.storageKey, app.rawValue, snapshot])
        case .instance(nil, let user, let scope, let app):
            StateStatement(
                sql: "DELETE FROM app_instances WHERE user_id = ? AND scope = ? AND app_id = ?",
                arguments: [user.description, scope.storageKey, app.rawValue])
        }
    }

    public func instance(user: UserID, scope: InstanceScope, app: AppID) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(
                db, sql: "SELECT snapshot FROM app_instances WHERE user_id = ? AND scope = ? AND app_id = ?",
                arguments: [user.description, scope.storageKey, app.rawValue])
        }
    }

    /// From the cache, else read first: an id, once stored, never changes, and a read does not
    /// queue behind the writer (and the group commit's sync) as the insert does.
    public func participantID(user: UserID, app: AppID) async throws -> ParticipantID {
        try await participantIDs.id(user: user, app: app) { try await storedParticipantID(user: user, app: app) }
    }

    private func storedParticipantID(user: UserID, app: AppID) async throws -> ParticipantID {
        @Sendable func fetch(_ db: Database) throws -> String? {
            try String.fetchOne(
                db, sql: "SELECT participant_id FROM app_participants WHERE user_id = ? AND app_id = ?",
                arguments: [user.description, app.rawValue])
        }
        if let existing = try await read(fetch), let id = ParticipantID(existing) { return id }
        let candidate = ParticipantID()
        let stored = try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO app_participants (user_id, app_id, participant_id) VALUES (?, ?, ?)",
                arguments: [user.description, app.rawValue, candidate.description])
            return try fetch(db)
        }
        guard let stored, let id = ParticipantID(stored) else { throw StoreError(.unavailable, "A participant id could not be stored.") }
        return id
    }

    public func containerData(user: UserID, app: AppID, key: String) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(
                db, sql: "SELECT value FROM app_containers WHERE user_id = ? AND app_id = ? AND key = ?",
                arguments: [user.description, app.rawValue, key])
        }
    }

    public func setContainerData(_ data: Data?, user: UserID, app: AppID, key: String) async throws {
        try await write { db in
            if let data {
                try db.execute(
                    sql: "INSERT INTO app_containers (user_id, app_id, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, app_id, key) DO UPDATE SET value = excluded.value",
                    arguments: [user.description, app.rawValue, key, data])
            } else {
                try db.execute(
                    sql: "DELETE FROM app_containers WHERE user_id = ? AND app_id = ? AND key = ?", arguments: [user.description, app.rawValue, key])
            }
        }
    }

    public func drawer(user: UserID) async throws -> [String]? {
        let json = try await read { db in
            try String.fetchOne(db, sql: "SELECT items FROM drawers WHERE user_id = ?", arguments: [user.description])
        }
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError(.unavailable, "A stored drawer could not be read.")
        }
    }

    public func setDrawer(_ items: [String], user: UserID) async throws {
        let json = try Self.encode(items)
        try await write { db in
            try db.execute(
                sql: "INSERT INTO drawers (user_id, items) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET items = excluded.items",
                arguments: [user.description, json])
        }
    }

    public func putBlob(_ data: Data, hash: String, contentType: String, owner: UserID, quota: Int64, at time: Date) async throws -> Bool {
        try await write { db in
            let upload = "SELECT 1 FROM blob_uploads WHERE hash = ? AND user_id = ?"
            if try Row.fetchOne(db, sql: upload, arguments: [hash, owner.description]) == nil {
                let used = try Int64.fetchOne(
                    db, sql: "SELECT COALESCE(SUM(b.size), 0) FROM blob_uploads u JOIN blobs b ON b.hash = u.hash WHERE u.user_id = ?",
                    arguments: [owner.description]) ?? 0
                guard used + Int64(data.count) <= quota else { return false }
            }
            try db.execute(
                sql: "INSERT OR IGNORE INTO blobs (hash, content_type, size, data) VALUES (?, ?, ?, ?)",
                arguments: [hash, contentType, data.count, data])
            try db.execute(
                sql: """
                    INSERT INTO blob_uploads (hash, user_id, uploaded_at) VALUES (?, ?, ?)
                    ON CONFLICT (hash, user_id) DO UPDATE SET uploaded_at = excluded.uploaded_at
                    """,
                arguments: [hash, owner.description, Self.time(time)])
            return true
        }
    }

    /// Who may fetch a blob: its uploader, the members of a conversation with a message using it
    /// or with it as the group's photo, and, for a profile picture, its account and whoever shares
    /// a conversation with it.
    static let blobReadable = """
        (EXISTS (SELECT 1 FROM blob_uploads u WHERE u.hash = b.hash AND u.user_id = :reader)
         OR EXISTS (SELECT 1 FROM message_blobs mb JOIN members m ON m.conversation_id = mb.conversation_id
                    WHERE mb.hash = b.hash AND m.user_id = :reader)
         OR EXISTS (SELECT 1 FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE c.photo = b.hash AND m.user_id = :reader)
         OR EXISTS (SELECT 1 FROM users a WHERE a.avatar = b.hash AND a.id = :reader)
         OR EXISTS (SELECT 1 FROM users a JOIN members theirs ON theirs.user_id = a.id
                    JOIN members mine ON mine.conversation_id = theirs.conversation_id
                    WHERE a.avatar = b.hash AND mine.user_id = :reader))
        """

    public func blob(hash: String, readableBy reader: UserID) async throws -> Blob? {
        try await read { db in
            try BlobRow.fetchOne(
                db, sql: "SELECT b.hash, b.content_type, b.data FROM blobs b WHERE b.hash = :hash AND \(Self.blobReadable)",
                arguments: ["hash": hash, "reader": reader.description])?.blob
        }
    }

    public func blobInfo(hash: String, readableBy reader: UserID) async throws -> (contentType: String, size: Int64)? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT b.content_type, b.size FROM blobs b WHERE b.hash = :hash AND \(Self.blobReadable)",
                arguments: ["hash": hash, "reader": reader.description]
            ).map { (contentType: $0["content_type"], size: $0["size"]) }
        }
    }

    public func uploadInfo(hash: String, owner: UserID) async throws -> (contentType: String, size: Int64)? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT b.content_type, b.size FROM blobs b JOIN blob_uploads u ON u.hash = b.hash WHERE b.hash = ? AND u.user_id = ?",
                arguments: [hash, owner.description]
            ).map { (contentType: $0["content_type"], size: $0["size"]) }
        }
    }

    public func removeUnusedUploads(before cutoff: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM blob_uploads WHERE uploaded_at < ?", arguments: [Self.time(cutoff)])
            let removed = db.changesCount
            try db.execute(sql: """
                DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM blob_uploads) AND hash NOT IN (SELECT hash FROM message_blobs)
                    AND hash NOT IN (SELECT avatar FROM users WHERE avatar IS NOT NULL)
                    AND hash NOT IN (SELECT photo FROM conversations WHERE photo IS NOT NULL)
                """)
            return removed
        }
    }

    public func registeredApps() async throws -> [RegisteredApp] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT manifest, secret_hash, added_at, module_hash FROM registered_apps ORDER BY added_at, id")
                .map { row -> (String, String, Double, String?) in (row["manifest"], row["secret_hash"], row["added_at"], row["module_hash"]) }
        }
        return try rows.map { manifest, hash, added, module in
            RegisteredApp(
                manifest: try RowCodec.decode(AppManifest.self, from: manifest), secretHash: hash, addedAt: Date(timeIntervalSince1970: added),
                moduleHash: module)
        }
    }

    public func addRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool {
        let manifest = try Self.encode(app.manifest)
        return try await write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO registered_apps (id, manifest, secret_hash, added_at, module_hash, module)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [app.manifest.id.rawValue, manifest, app.secretHash, app.addedAt.timeIntervalSince1970, app.moduleHash, module])
            return db.changesCount > 0
        }
    }

    public func replaceRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool {
        let manifest = try Self.encode(app.manifest)
        return try await write { db in
            try db.execute(
                sql: "UPDATE registered_apps SET manifest = ?, module_hash = ?, module = ? WHERE id = ? AND module_hash IS NOT NULL",
                arguments: [manifest, app.moduleHash, module, app.manifest.id.rawValue])
            return db.changesCount > 0
        }
    }

    public func registeredModule(_ id: AppID) async throws -> Data? {
        try await read { db in
            try Data.fetchOne(db, sql: "SELECT module FROM registered_apps WHERE id = ? AND module IS NOT NULL", arguments: [id.rawValue])
        }
    }

    public func saveRegisteredApp(_ app: RegisteredApp) async throws {
        let manifest = try Self.encode(app.manifest)
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO registered_apps (id, manifest, secret_hash, added_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest, secret_hash = excluded.secret_hash
                    """,
                arguments: [app.manifest.id.rawValue, manifest, app.secretHash, app.addedAt.timeIntervalSince1970])
        }
    }

    public func addRegisteredApp(_ app: RegisteredApp) async throws -> Bool {
        let manifest = try Self.encode(app.manifest)
        return try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO registered_apps (id, manifest, secret_hash, added_at) VALUES (?, ?, ?, ?)",
                arguments: [app.manifest.id.rawValue, manifest, app.secretHash, app.addedAt.timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    public func setRegisteredAppSecret(_ secretHash: String, of id: AppID) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE registered_apps SET secret_hash = ? WHERE id = ?", arguments: [secretHash, id.rawValue])
            return db.changesCount > 0
        }
    }

    public func deleteRegisteredApp(_ id: AppID) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM registered_apps WHERE id = ?", arguments: [id.rawValue])
            return db.changesCount > 0
        }
    }
}

/// A `StateWrite` ready to run on the writer.
struct StateStatement: Sendable {
    let sql: String
    let arguments: StatementArguments

    func execute(_ db: Database) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
