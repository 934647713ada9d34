import Logging
import ParlorStore
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations recorded in `schema_migrations`. Never edit a
/// shipped migration: add a new one. Mirrors `SQLiteSchema`.
enum PostgresSchema {
    struct Migration {
        let name: String
        /// One statement each: PostgreSQL's extended protocol takes a single statement per query.
        let statements: [String]
        /// Swift run after the statements, in the same transaction (backfills SQL cannot compute).
        var then: (@Sendable (PostgresConnection, Logger) async throws -> Void)?
    }

    /// The advisory lock key that serializes migrations across nodes ("parlor" in ASCII).
    static let lockKey: Int64 = 0x70_61_72_6C_6F_72

    static let migrations = [
        Migration(name: "v1", statements: [
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                display_name TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            // Case-insensitive for ASCII letters only, as SQLite's NOCASE is.
            #"CREATE UNIQUE INDEX users_username_key ON users (lower(username COLLATE "C"))"#,
            """
            CREATE TABLE auth_tokens (
                hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX auth_tokens_by_user ON auth_tokens(user_id)",
            """
            CREATE TABLE conversations (
                id TEXT PRIMARY KEY,
                title TEXT,
                is_group BOOLEAN NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                last_seq BIGINT NOT NULL DEFAULT 0,
                last_activity TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE members (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                joined_at TIMESTAMPTZ NOT NULL,
                join_order BIGINT GENERATED ALWAYS AS IDENTITY,
                last_read_seq BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (conversation_id, user_id)
            )
            """,
            "CREATE INDEX members_by_user ON members(user_id)",
            // content is the JSON of StoredContent as text: JSON escapes U+0000, which text
            // and jsonb columns would refuse raw.
            """
            CREATE TABLE messages (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                seq BIGINT NOT NULL,
                id TEXT NOT NULL,
                sender_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                session_id TEXT,
                content TEXT NOT NULL,
                sent_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (conversation_id, seq),
                UNIQUE (conversation_id, id)
            )
            """,
            "CREATE INDEX messages_by_session ON messages(conversation_id, session_id, seq) WHERE session_id IS NOT NULL",
            """
            CREATE TABLE expiring_reads (
                user_id TEXT NOT NULL,
                conversation_id TEXT NOT NULL,
                message_id TEXT NOT NULL,
                read_at TIMESTAMPTZ NOT NULL,
                kept BOOLEAN NOT NULL DEFAULT FALSE,
                hidden BOOLEAN NOT NULL DEFAULT FALSE,
                PRIMARY KEY (user_id, conversation_id, message_id)
            )
            """,
            "CREATE INDEX expiring_reads_pending ON expiring_reads(read_at) WHERE NOT hidden AND NOT kept",
            """
            CREATE TABLE staged (
                user_id TEXT NOT NULL,
                conversation_id TEXT NOT NULL,
                record TEXT NOT NULL,
                PRIMARY KEY (user_id, conversation_id)
            )
            """,
            """
            CREATE TABLE app_instances (
                user_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                app_id TEXT NOT NULL,
                snapshot BYTEA NOT NULL,
                PRIMARY KEY (user_id, scope, app_id)
            )
            """,
            """
            CREATE TABLE app_participants (
                user_id TEXT NOT NULL,
                app_id TEXT NOT NULL,
                participant_id TEXT NOT NULL UNIQUE,
                PRIMARY KEY (user_id, app_id)
            )
            """,
            """
            CREATE TABLE app_containers (
                user_id TEXT NOT NULL,
                app_id TEXT NOT NULL,
                key TEXT NOT NULL,
                value BYTEA NOT NULL,
                PRIMARY KEY (user_id, app_id, key)
            )
            """,
            "CREATE TABLE drawers (user_id TEXT PRIMARY KEY, items TEXT NOT NULL)",
            """
            CREATE TABLE blobs (
                hash TEXT PRIMARY KEY,
                content_type TEXT NOT NULL,
                size BIGINT NOT NULL,
                data BYTEA NOT NULL
            )
            """,
        ]),
        Migration(name: "v2: group admins, owned uploads", statements: [
            "ALTER TABLE members ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT false",
            """
            UPDATE members SET is_admin = true WHERE (conversation_id, join_order) IN (
                SELECT DISTINCT ON (m.conversation_id) m.conversation_id, m.join_order
                FROM members m JOIN conversations c ON c.id = m.conversation_id
                WHERE c.is_group ORDER BY m.conversation_id, m.joined_at, m.join_order
            )
            """,
            """
            CREATE TABLE blob_uploads (
                hash TEXT NOT NULL REFERENCES blobs(hash) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                uploaded_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (hash, user_id)
            )
            """,
            "CREATE INDEX blob_uploads_by_user ON blob_uploads(user_id)",
            "CREATE INDEX blob_uploads_by_time ON blob_uploads(uploaded_at)",
        ]),
        Migration(
            name: "v3: look-alike usernames",
            statements: ["ALTER TABLE users ADD COLUMN username_key TEXT"],
            then: { connection, logger in
                let users = try await connection.rows("SELECT id, username FROM users ORDER BY created_at, id", logger: logger)
                    .map { row -> (id: String, username: String) in try row.decode((String, String).self) }
                for (id, key) in UsernameKey.backfill(users) {
                    try await connection.rows("UPDATE users SET username_key = \(key) WHERE id = \(id)", logger: logger)
                }
                try await connection.rows("CREATE UNIQUE INDEX users_username_key_key ON users (username_key)", logger: logger)
            }),
        Migration(name: "v4: apps outside the server", statements: [
            """
            CREATE TABLE registered_apps (
                id TEXT PRIMARY KEY,
                manifest TEXT NOT NULL,
                secret_hash TEXT NOT NULL UNIQUE,
                added_at TIMESTAMPTZ NOT NULL
            )
            """,
        ]),
        Migration(name: "v5: reactions", statements: [
            """
            CREATE TABLE reactions (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                message_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                emoji TEXT NOT NULL,
                reacted_at TIMESTAMPTZ NOT NULL,
                reaction_order BIGINT GENERATED ALWAYS AS IDENTITY,
                PRIMARY KEY (conversation_id, message_id, user_id, emoji)
            )
            """,
        ]),
        Migration(name: "v6: replies, edits, unsends", statements: [
            "ALTER TABLE messages ADD COLUMN reply_to TEXT",
            "ALTER TABLE messages ADD COLUMN edited_at TIMESTAMPTZ",
            "ALTER TABLE messages ADD COLUMN unsent_at TIMESTAMPTZ",
            "CREATE INDEX messages_by_reply ON messages(conversation_id, reply_to, seq) WHERE reply_to IS NOT NULL",
            """
            CREATE TABLE message_versions (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                message_id TEXT NOT NULL,
                version INTEGER NOT NULL,
                text TEXT NOT NULL,
                replaced_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (conversation_id, message_id, version)
            )
            """,
        ]),
        Migration(name: "v7: read receipts", statements: [
            "ALTER TABLE members ADD COLUMN last_read_at TIMESTAMPTZ",
            "ALTER TABLE users ADD COLUMN shares_read_receipts BOOLEAN NOT NULL DEFAULT true",
        ]),
        // The words of each message (SearchTerms.indexText), as a tsvector of the `simple`
        // configuration (no stemming, no stop words: the same words SQLite's FTS5 indexes).
        Migration(
            name: "v8: search",
            statements: [
                "ALTER TABLE messages ADD COLUMN search_text TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED",
            ],
            then: { connection, logger in
                let rows = try await connection.rows(
                    "SELECT conversation_id, seq, content FROM messages WHERE unsent_at IS NULL", logger: logger)
                for row in rows {
                    let (conversation, sequence, content) = try row.decode((String, Int64, String).self)
                    // A row that cannot be read stays out of the index rather than stopping the server.
                    guard let text = (try? RowCodec.decode(StoredContent.self, from: content))?.searchIndexText else { continue }
                    try await connection.rows(
                        "UPDATE messages SET search_text = \(text) WHERE conversation_id = \(conversation) AND seq = \(sequence)", logger: logger)
                }
                try await connection.rows("CREATE INDEX messages_search ON messages USING GIN (search)", logger: logger)
            }),
        Migration(name: "v9: muted conversations", statements: [
            "ALTER TABLE members ADD COLUMN muted BOOLEAN NOT NULL DEFAULT false",
        ]),
        Migration(name: "v10: mentions", statements: [
            """
            CREATE TABLE mentions (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                seq BIGINT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                PRIMARY KEY (conversation_id, user_id, seq)
            )
            """,
            "CREATE INDEX mentions_by_message ON mentions (conversation_id, seq)",
        ]),
        Migration(name: "v11: attachments", statements: [
            """
            CREATE TABLE message_blobs (
                conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                seq BIGINT NOT NULL,
                hash TEXT NOT NULL,
                PRIMARY KEY (conversation_id, seq, hash)
            )
            """,
            "CREATE INDEX message_blobs_by_hash ON message_blobs (hash)",
        ]),
        Migration(name: "v12: profile pictures", statements: [
            "ALTER TABLE users ADD COLUMN avatar TEXT",
            // Indexed: every blob fetch asks whether it is someone's picture.
            "CREATE INDEX users_by_avatar ON users (avatar) WHERE avatar IS NOT NULL",
        ]),
        Migration(name: "v13: server secrets", statements: [
            // Keys every node of a server shares (the image proxy's signing key).
            "CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
        ]),
        Migration(name: "v14: pinned, archived, marked unread", statements: [
            // Where each member keeps a conversation in their own list (ListPlace).
            "ALTER TABLE members ADD COLUMN pinned_at TIMESTAMPTZ",
            "ALTER TABLE members ADD COLUMN archived_through BIGINT",
            "ALTER TABLE members ADD COLUMN marked_unread BOOLEAN NOT NULL DEFAULT false",
        ]),
        Migration(name: "v15: blocks", statements: [
            // Who blocked whom (BlockStore); both sides go with either account.
            """
            CREATE TABLE blocks (
                blocker_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                blocked_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id)
            )
            """,
            "CREATE INDEX blocks_by_blocked ON blocks(blocked_id)",
        ]),
        Migration(name: "v16: deleted for me", statements: [
            // The history a member deleted for themselves (ListPlace.deletedThrough).
            "ALTER TABLE members ADD COLUMN deleted_through BIGINT",
        ]),
        Migration(name: "v17: web push", statements: [
            // Browsers receiving pushes (PushStore), each gone with the sign-in that subscribed.
            """
            CREATE TABLE push_subscriptions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                token_hash TEXT NOT NULL REFERENCES auth_tokens(hash) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                public_key TEXT NOT NULL,
                auth_secret TEXT NOT NULL,
                device TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id)",
            "CREATE INDEX push_subscriptions_by_token ON push_subscriptions(token_hash)",
            "ALTER TABLE users ADD COLUMN push_shows_text BOOLEAN NOT NULL DEFAULT true",
        ]),
        Migration(name: "v18: apps as one WebAssembly file", statements: [
            // A registered app that Parlor runs itself (docs/APPS-WASM.md): its module, and the
            // module's SHA-256, read with the registrations every second instead of the bytes.
            "ALTER TABLE registered_apps ADD COLUMN module_hash TEXT",
            "ALTER TABLE registered_apps ADD COLUMN module BYTEA",
        ]),
        Migration(name: "v19: the last message someone sent", statements: [
            // What brings an archived or deleted conversation back (ListPlace): a message someone
            // sent, not an event line such as a new name.
            "ALTER TABLE conversations ADD COLUMN last_message_seq BIGINT NOT NULL DEFAULT 0",
            """
            UPDATE conversations SET last_message_seq = COALESCE(
                (SELECT MAX(seq) FROM messages m WHERE m.conversation_id = conversations.id AND m.kind <> 'event'), 0)
            """,
        ]),
        Migration(name: "v20: group photos, about", statements: [
            // Indexed: every blob fetch asks whether it is a photo of one of the reader's groups.
            "ALTER TABLE conversations ADD COLUMN photo TEXT",
            "CREATE INDEX conversations_by_photo ON conversations (photo) WHERE photo IS NOT NULL",
            // The line a person writes about themselves.
            "ALTER TABLE users ADD COLUMN about TEXT",
        ]),
        Migration(name: "v21: who is connected to which node", statements: [
            // Read before a push: someone with a tab open on another node is not pushed to.
            // A node's rows count while its listening connection is open (pg_stat_activity).
            "CREATE TABLE cluster_presence (node TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (node, user_id))",
            "CREATE INDEX cluster_presence_by_user ON cluster_presence(user_id)",
        ]),
    ]

    /// Applies the migrations not yet recorded, in one transaction holding an advisory lock, so
    /// nodes starting together apply each migration once.
    static func migrate(client: PostgresClient, logger: Logger) async throws {
        try await PostgresStore.mapErrors {
            try await client.withConnection { connection in
                try await PostgresStore.inTransaction(connection, logger: logger) { connection in
                    try await connection.rows("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                    try await connection.rows(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                        logger: logger
                    )
                    let applied = Set(try await connection.rows("SELECT name FROM schema_migrations", logger: logger)
                        .map { try $0.decode(String.self) })
                    for migration in migrations where !applied.contains(migration.name) {
                        logger.info("Applying database migration", metadata: ["migration": "\(migration.name)"])
                        for statement in migration.statements {
                            try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        try await migration.then?(connection, logger)
                        try await connection.rows("INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger: logger)
                    }
                }
            }
        }
    }
}
