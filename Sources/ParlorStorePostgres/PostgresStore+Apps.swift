import Foundation
import ParlorKit
import ParlorStore
import PostgresNIO

extension PostgresStore {
    public func setStaged(_ staged: StagedRecord?, user: UserID, conversation: ConversationID) async throws {
        try await unsyncedQuery(try Self.query(for: .staged(staged, user: user, conversation: conversation)))
    }

    public func staged(user: UserID, conversation: ConversationID) async throws -> StagedRecord? {
        let json = try await query("SELECT record FROM staged WHERE user_id = \(user.description) AND conversation_id = \(conversation.description)")
            .first?.decode(String.self)
        guard let json else { return nil }
        return try? JSONDecoder().decode(StagedRecord.self, from: Data(json.utf8))
    }

    public func saveInstance(_ snapshot: Data, user: UserID, scope: InstanceScope, app: AppID) async throws {
        try await unsyncedQuery(try Self.query(for: .instance(snapshot, user: user, scope: scope, app: app)))
    }

    /// One state write as SQL (`setStaged`, `saveInstance`, and beside a message in `PostgresCommitBatcher`).
    static func query(for write: StateWrite) throws -> PostgresQuery {
        switch write {
        case .staged(let record?, let user, let conversation):
            let json = try encode(record)
            return """
            INSERT INTO staged (user_id, conversation_id, record) VALUES (\(user.description), \(conversation.description), \(json))
            ON CONFLICT (user_id, conversation_id) DO UPDATE SET record = excluded.record
            """
        case .staged(nil, let user, let conversation):
            return "DELETE FROM staged WHERE user_id = \(user.description) AND conversation_id = \(conversation.description)"
        case .instance(let snapshot?, let user, let scope, let app):
            return try """
            INSERT INTO app_instances (user_id, scope, app_id, snapshot) VALUES (\(user.description), \(scope.storageKey), \(app.rawValue), \(snapshot))
            ON CONFLICT (user_id, scope, app_id) DO UPDATE SET snapshot = excluded.snapshot
            """
        case .instance(nil, let user, let scope, let app):
            return "DELETE FROM app_instances WHERE user_id = \(user.description) AND scope = \(scope.storageKey) AND app_id = \(app.rawValue)"
        }
    }

    public func instance(user: UserID, scope: InstanceScope, app: AppID) async throws -> Data? {
        try await query("""
            SELECT snapshot FROM app_instances WHERE user_id = \(user.description) AND scope = \(scope.storageKey) AND app_id = \(app.rawValue)
            """).first?.decode(Data.self)
    }

    public func participantID(user: UserID, app: AppID) async throws -> ParticipantID {
        try await participantIDs.id(user: user, app: app) { try await storedParticipantID(user: user, app: app) }
    }

    private func storedParticipantID(user: UserID, app: AppID) async throws -> ParticipantID {
        let select: PostgresQuery = "SELECT participant_id FROM app_participants WHERE user_id = \(user.description) AND app_id = \(app.rawValue)"
        // An id, once stored, never changes: one round trip when it exists.
        if let existing = try await query(select).first?.decode(String.self), let id = ParticipantID(existing) { return id }
        // Two statements: the SELECT must see a row another connection inserted concurrently.
        _ = try await query("""
            INSERT INTO app_participants (user_id, app_id, participant_id) VALUES (\(user.description), \(app.rawValue), \(ParticipantID().description))
            ON CONFLICT (user_id, app_id) DO NOTHING
            """)
        let stored = try await query(select).first?.decode(String.self)
        guard let stored, let id = ParticipantID(stored) else { throw StoreError(.unavailable, "A participant id could not be stored.") }
        return id
    }

    public func containerData(user: UserID, app: AppID, key: String) async throws -> Data? {
        try await query("""
            SELECT value FROM app_containers WHERE user_id = \(user.description) AND app_id = \(app.rawValue) AND key = \(key)
            """).first?.decode(Data.self)
    }

    public func setContainerData(_ data: Data?, user: UserID, app: AppID, key: String) async throws {
        if let data {
            _ = try await query("""
                INSERT INTO app_containers (user_id, app_id, key, value) VALUES (\(user.description), \(app.rawValue), \(key), \(data))
                ON CONFLICT (user_id, app_id, key) DO UPDATE SET value = excluded.value
                """)
        } else {
            _ = try await query("DELETE FROM app_containers WHERE user_id = \(user.description) AND app_id = \(app.rawValue) AND key = \(key)")
        }
    }

    public func drawer(user: UserID) async throws -> [String]? {
        let json = try await query("SELECT items FROM drawers WHERE user_id = \(user.description)").first?.decode(String.self)
        return json.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }

    public func setDrawer(_ items: [String], user: UserID) async throws {
        _ = try await query("""
            INSERT INTO drawers (user_id, items) VALUES (\(user.description), \(try Self.encode(items)))
            ON CONFLICT (user_id) DO UPDATE SET items = excluded.items
            """)
    }

    public func putBlob(_ data: Data, hash: String, contentType: String, owner: UserID, quota: Int64, at time: Date) async throws -> Bool {
        try await transaction { connection in
            // One upload at a time per owner, so two at once cannot both pass the quota.
            try await connection.rows("SELECT pg_advisory_xact_lock(hashtext(\(owner.description)))", logger: self.logger)
            let already = try await connection.rows(
                "SELECT 1 FROM blob_uploads WHERE hash = \(hash) AND user_id = \(owner.description)", logger: self.logger)
            if already.isEmpty {
                let used = try await connection.rows("""
                    SELECT COALESCE(SUM(b.size), 0)::BIGINT FROM blob_uploads u JOIN blobs b ON b.hash = u.hash
                    WHERE u.user_id = \(owner.description)
                    """, logger: self.logger).first?.decode(Int64.self) ?? 0
                guard used + Int64(data.count) <= quota else { return false }
            }
            try await connection.rows("""
                INSERT INTO blobs (hash, content_type, size, data) VALUES (\(hash), \(contentType), \(Int64(data.count)), \(data))
                ON CONFLICT (hash) DO NOTHING
                """, logger: self.logger)
            try await connection.rows("""
                INSERT INTO blob_uploads (hash, user_id, uploaded_at) VALUES (\(hash), \(owner.description), \(Timestamp(time)))
                ON CONFLICT (hash, user_id) DO UPDATE SET uploaded_at = excluded.uploaded_at
                """, logger: self.logger)
            return true
        }
    }

    /// `columns` of the blob, when `reader` may fetch it: its uploader, the members of a
    /// conversation with a message using it or with it as the group's photo, and, for a profile
    /// picture, its account and whoever shares a conversation with it.
    private func readableBlob(_ hash: String, reader: UserID, columns: String) async throws -> PostgresRow? {
        let reader = reader.description
        return try await query("""
            SELECT \(unescaped: columns) FROM blobs b
            WHERE b.hash = \(hash) AND (EXISTS (SELECT 1 FROM blob_uploads u WHERE u.hash = b.hash AND u.user_id = \(reader))
                OR EXISTS (SELECT 1 FROM message_blobs mb JOIN members m ON m.conversation_id = mb.conversation_id
                           WHERE mb.hash = b.hash AND m.user_id = \(reader))
                OR EXISTS (SELECT 1 FROM conversations c JOIN members m ON m.conversation_id = c.id
                           WHERE c.photo = b.hash AND m.user_id = \(reader))
                OR EXISTS (SELECT 1 FROM users a WHERE a.avatar = b.hash AND a.id = \(reader))
                OR EXISTS (SELECT 1 FROM users a JOIN members theirs ON theirs.user_id = a.id
                           JOIN members mine ON mine.conversation_id = theirs.conversation_id
                           WHERE a.avatar = b.hash AND mine.user_id = \(reader)))
            """).first
    }

    public func blob(hash: String, readableBy reader: UserID) async throws -> Blob? {
        guard let row = try await readableBlob(hash, reader: reader, columns: "b.hash, b.content_type, b.data") else { return nil }
        let (hash, contentType, data) = try row.decode((String, String, Data).self)
        return Blob(hash: hash, contentType: contentType, data: data)
    }

    public func blobInfo(hash: String, readableBy reader: UserID) async throws -> (contentType: String, size: Int64)? {
        guard let row = try await readableBlob(hash, reader: reader, columns: "b.content_type, b.size") else { return nil }
        let (contentType, size) = try row.decode((String, Int64).self)
        return (contentType, size)
    }

    public func uploadInfo(hash: String, owner: UserID) async throws -> (contentType: String, size: Int64)? {
        let owner = owner.description
        guard let row = try await query("""
            SELECT b.content_type, b.size FROM blobs b JOIN blob_uploads u ON u.hash = b.hash WHERE b.hash = \(hash) AND u.user_id = \(owner)
            """).first else { return nil }
        let (contentType, size) = try row.decode((String, Int64).self)
        return (contentType, size)
    }

    public func removeUnusedUploads(before cutoff: Date) async throws -> Int {
        try await transaction { connection in
            let removed = try await connection.rows(
                "DELETE FROM blob_uploads WHERE uploaded_at < \(Timestamp(cutoff)) RETURNING 1", logger: self.logger)
            try await connection.rows(
                """
                DELETE FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM blob_uploads u WHERE u.hash = b.hash)
                    AND NOT EXISTS (SELECT 1 FROM message_blobs mb WHERE mb.hash = b.hash)
                    AND NOT EXISTS (SELECT 1 FROM users a WHERE a.avatar = b.hash)
                    AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.photo = b.hash)
                """, logger: self.logger)
            return removed.count
        }
    }

    public func registeredApps() async throws -> [RegisteredApp] {
        try await query("SELECT manifest, secret_hash, added_at, module_hash FROM registered_apps ORDER BY added_at, id").map { row in
            let (manifest, hash, added, module) = try row.decode((String, String, Timestamp, String?).self)
            return RegisteredApp(
                manifest: try RowCodec.decode(AppManifest.self, from: manifest), secretHash: hash, addedAt: added.date, moduleHash: module)
        }
    }

    public func addRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool {
        try await !query("""
            INSERT INTO registered_apps (id, manifest, secret_hash, added_at, module_hash, module)
            VALUES (\(app.manifest.id.rawValue), \(try Self.encode(app.manifest)), \(app.secretHash), \(Timestamp(app.addedAt)),
                \(app.moduleHash), \(module))
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """).isEmpty
    }

    public func replaceRegisteredModule(_ app: RegisteredApp, module: Data) async throws -> Bool {
        try await !query("""
            UPDATE registered_apps SET manifest = \(try Self.encode(app.manifest)), module_hash = \(app.moduleHash), module = \(module)
            WHERE id = \(app.manifest.id.rawValue) AND module_hash IS NOT NULL RETURNING 1
            """).isEmpty
    }

    public func registeredModule(_ id: AppID) async throws -> Data? {
        try await query("SELECT module FROM registered_apps WHERE id = \(id.rawValue) AND module IS NOT NULL").first.map { row in
            try row.decode(Data.self)
        }
    }

    public func saveRegisteredApp(_ app: RegisteredApp) async throws {
        _ = try await query("""
            INSERT INTO registered_apps (id, manifest, secret_hash, added_at)
            VALUES (\(app.manifest.id.rawValue), \(try Self.encode(app.manifest)), \(app.secretHash), \(Timestamp(app.addedAt)))
            ON CONFLICT (id) DO UPDATE SET manifest = excluded.manifest, secret_hash = excluded.secret_hash
            """)
    }

    public func addRegisteredApp(_ app: RegisteredApp) async throws -> Bool {
        try await !query("""
            INSERT INTO registered_apps (id, manifest, secret_hash, added_at)
            VALUES (\(app.manifest.id.rawValue), \(try Self.encode(app.manifest)), \(app.secretHash), \(Timestamp(app.addedAt)))
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """).isEmpty
    }

    public func setRegisteredAppSecret(_ secretHash: String, of id: AppID) async throws -> Bool {
        try await !query("UPDATE registered_apps SET secret_hash = \(secretHash) WHERE id = \(id.rawValue) RETURNING 1").isEmpty
    }

    public func deleteRegisteredApp(_ id: AppID) async throws -> Bool {
        try await !query("DELETE FROM registered_apps WHERE id = \(id.rawValue) RETURNING 1").isEmpty
    }
}
