import GRDB
import ParlorStore

/// The SQLite schema, as GRDB migrations. Never edit a shipped migration: add a new one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    display_name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE TABLE auth_tokens (
                    hash TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at REAL NOT NULL
                );
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY,
                    title TEXT,
                    is_group INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    last_seq INTEGER NOT NULL DEFAULT 0,
                    last_activity REAL NOT NULL
                );
                CREATE TABLE members (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    joined_at REAL NOT NULL,
                    last_read_seq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (conversation_id, user_id)
                );
                CREATE INDEX members_by_user ON members(user_id);
                CREATE TABLE messages (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    id TEXT NOT NULL,
                    sender_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    session_id TEXT,
                    content TEXT NOT NULL,
                    sent_at REAL NOT NULL,
                    PRIMARY KEY (conversation_id, seq),
                    UNIQUE (conversation_id, id)
                );
                CREATE INDEX messages_by_session ON messages(conversation_id, session_id, seq) WHERE session_id IS NOT NULL;
                CREATE TABLE expiring_reads (
                    user_id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    read_at REAL NOT NULL,
                    kept INTEGER NOT NULL DEFAULT 0,
                    hidden INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (user_id, conversation_id, message_id)
                );
                CREATE TABLE staged (
                    user_id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY (user_id, conversation_id)
                );
                CREATE TABLE app_instances (
                    user_id TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    snapshot BLOB NOT NULL,
                    PRIMARY KEY (user_id, scope, app_id)
                );
                CREATE TABLE app_participants (
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    participant_id TEXT NOT NULL UNIQUE,
                    PRIMARY KEY (user_id, app_id)
                );
                CREATE TABLE app_containers (
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value BLOB NOT NULL,
                    PRIMARY KEY (user_id, app_id, key)
                );
                CREATE TABLE drawers (
                    user_id TEXT PRIMARY KEY,
                    items TEXT NOT NULL
                );
                CREATE TABLE blobs (
                    hash TEXT PRIMARY KEY,
                    content_type TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    data BLOB NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2: group admins, owned uploads") { db in
            try db.execute(sql: """
                ALTER TABLE members ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;
                UPDATE members SET is_admin = 1 WHERE rowid IN (
                    SELECT (SELECT m.rowid FROM members m WHERE m.conversation_id = c.id ORDER BY m.joined_at, m.rowid LIMIT 1)
                    FROM conversations c WHERE c.is_group = 1
                );
                CREATE TABLE blob_uploads (
                    hash TEXT NOT NULL REFERENCES blobs(hash) ON DELETE CASCADE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    uploaded_at REAL NOT NULL,
                    PRIMARY KEY (hash, user_id)
                );
                CREATE INDEX blob_uploads_by_user ON blob_uploads(user_id);
                CREATE INDEX blob_uploads_by_time ON blob_uploads(uploaded_at);
                """)
        }
        migrator.registerMigration("v3: look-alike usernames") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN username_key TEXT")
            let users = try Row.fetchAll(db, sql: "SELECT id, username FROM users ORDER BY created_at, id")
                .map { row -> (id: String, username: String) in (row["id"], row["username"]) }
            for (id, key) in UsernameKey.backfill(users) {
                try db.execute(sql: "UPDATE users SET username_key = ? WHERE id = ?", arguments: [key, id])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX users_username_key_key ON users (username_key)")
        }
        migrator.registerMigration("v4: apps outside the server") { db in
            try db.execute(sql: """
                CREATE TABLE registered_apps (
                    id TEXT PRIMARY KEY,
                    manifest TEXT NOT NULL,
                    secret_hash TEXT NOT NULL UNIQUE,
                    added_at REAL NOT NULL
                )
                """)
        }
        migrator.registerMigration("v5: reactions") { db in
            try db.execute(sql: """
                CREATE TABLE reactions (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    message_id TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    emoji TEXT NOT NULL,
                    reacted_at REAL NOT NULL,
                    PRIMARY KEY (conversation_id, message_id, user_id, emoji)
                )
                """)
        }
        migrator.registerMigration("v6: replies, edits, unsends") { db in
            try db.execute(sql: """
                ALTER TABLE messages ADD COLUMN reply_to TEXT;
                ALTER TABLE messages ADD COLUMN edited_at REAL;
                ALTER TABLE messages ADD COLUMN unsent_at REAL;
                CREATE INDEX messages_by_reply ON messages(conversation_id, reply_to, seq) WHERE reply_to IS NOT NULL;
                CREATE TABLE message_versions (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    message_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    replaced_at REAL NOT NULL,
                    PRIMARY KEY (conversation_id, message_id, version)
                );
                """)
        }
        migrator.registerMigration("v7: read receipts") { db in
            try db.execute(sql: """
                ALTER TABLE members ADD COLUMN last_read_at REAL;
                ALTER TABLE users ADD COLUMN shares_read_receipts INTEGER NOT NULL DEFAULT 1;
                """)
        }
        migrator.registerMigration("v8: search") { db in
            // The words of each message (SearchTerms.indexText), in an FTS5 index over that column.
            // Triggers keep the index in step with the rows; it is keyed by the messages' rowid,
            // which only VACUUM renumbers (Parlor never runs it; docs/OPERATING.md says how to
            // rebuild the index after one).
            try db.execute(sql: "ALTER TABLE messages ADD COLUMN search_text TEXT NOT NULL DEFAULT ''")
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, content FROM messages WHERE unsent_at IS NULL")
            while let row = try rows.next() {
                // A row that cannot be read stays out of the index rather than stopping the server.
                guard let content = try? RowCodec.decode(StoredContent.self, from: row["content"]) else { continue }
                try db.execute(
                    sql: "UPDATE messages SET search_text = ? WHERE rowid = ?", arguments: [content.searchIndexText, row["rowid"] as Int64])
            }
            try db.execute(sql: """
                CREATE VIRTUAL TABLE message_search USING fts5(
                    search_text, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
                );
                INSERT INTO message_search (message_search) VALUES ('rebuild');
                CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN
                    INSERT INTO message_search (rowid, search_text) VALUES (new.rowid, new.search_text);
                END;
                CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
                    INSERT INTO message_search (message_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
                END;
                CREATE TRIGGER message_search_update AFTER UPDATE OF search_text ON messages BEGIN
                    INSERT INTO message_search (message_search, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
                    INSERT INTO message_search (rowid, search_text) VALUES (new.rowid, new.search_text);
                END;
                """)
        }
        migrator.registerMigration("v9: muted conversations") { db in
            try db.execute(sql: "ALTER TABLE members ADD COLUMN muted INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v10: mentions") { db in
            try db.execute(sql: """
                CREATE TABLE mentions (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    PRIMARY KEY (conversation_id, user_id, seq)
                );
                CREATE INDEX mentions_by_message ON mentions(conversation_id, seq);
                """)
        }
        migrator.registerMigration("v11: attachments") { db in
            try db.execute(sql: """
                CREATE TABLE message_blobs (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    hash TEXT NOT NULL,
                    PRIMARY KEY (conversation_id, seq, hash)
                );
                CREATE INDEX message_blobs_by_hash ON message_blobs(hash);
                """)
        }
        migrator.registerMigration("v12: profile pictures") { db in
            // Indexed: every blob fetch asks whether it is someone's picture.
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN avatar TEXT;
                CREATE INDEX users_by_avatar ON users(avatar) WHERE avatar IS NOT NULL;
                """)
        }
        migrator.registerMigration("v13: server secrets") { db in
            // Keys every node of a server shares (the image proxy's signing key).
            try db.execute(sql: "CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
        }
        migrator.registerMigration("v14: pinned, archived, marked unread") { db in
            // Where each member keeps a conversation in their own list (ListPlace).
            try db.execute(sql: """
                ALTER TABLE members ADD COLUMN pinned_at REAL;
                ALTER TABLE members ADD COLUMN archived_through INTEGER;
                ALTER TABLE members ADD COLUMN marked_unread INTEGER NOT NULL DEFAULT 0;
                """)
        }
        migrator.registerMigration("v15: blocks") { db in
            // Who blocked whom (BlockStore); both sides go with either account.
            try db.execute(sql: """
                CREATE TABLE blocks (
                    blocker_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    blocked_at REAL NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id)
                );
                CREATE INDEX blocks_by_blocked ON blocks(blocked_id);
                """)
        }
        migrator.registerMigration("v16: deleted for me") { db in
            // The history a member deleted for themselves (ListPlace.deletedThrough).
            try db.execute(sql: "ALTER TABLE members ADD COLUMN deleted_through INTEGER")
        }
        migrator.registerMigration("v17: web push") { db in
            // Browsers receiving pushes (PushStore), each gone with the sign-in that subscribed.
            try db.execute(sql: """
                CREATE TABLE push_subscriptions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    token_hash TEXT NOT NULL REFERENCES auth_tokens(hash) ON DELETE CASCADE,
                    endpoint TEXT NOT NULL UNIQUE,
                    public_key TEXT NOT NULL,
                    auth_secret TEXT NOT NULL,
                    device TEXT NOT NULL,
                    created_at REAL NOT NULL
                );
                CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id);
                CREATE INDEX push_subscriptions_by_token ON push_subscriptions(token_hash);
                ALTER TABLE users ADD COLUMN push_shows_text INTEGER NOT NULL DEFAULT 1;
                """)
        }
        migrator.registerMigration("v18: apps as one WebAssembly file") { db in
            // A registered app that Parlor runs itself (docs/APPS-WASM.md): its module, and the
            // module's SHA-256, read with the registrations every second instead of the bytes.
            try db.execute(sql: "ALTER TABLE registered_apps ADD COLUMN module_hash TEXT")
            try db.execute(sql: "ALTER TABLE registered_apps ADD COLUMN module BLOB")
        }
        migrator.registerMigration("v19: the last message someone sent") { db in
            // What brings an archived or deleted conversation back (ListPlace): a message someone
            // sent, not an event line such as a new name.
            try db.execute(sql: """
                ALTER TABLE conversations ADD COLUMN last_message_seq INTEGER NOT NULL DEFAULT 0;
                UPDATE conversations SET last_message_seq = IFNULL(
                    (SELECT MAX(seq) FROM messages m WHERE m.conversation_id = conversations.id AND m.kind != 'event'), 0);
                """)
        }
        migrator.registerMigration("v20: group photos, about") { db in
            // Indexed: every blob fetch asks whether it is a photo of one of the reader's groups.
            try db.execute(sql: """
                ALTER TABLE conversations ADD COLUMN photo TEXT;
                CREATE INDEX conversations_by_photo ON conversations(photo) WHERE photo IS NOT NULL;
                ALTER TABLE users ADD COLUMN about TEXT;
                """)
        }
        return migrator
    }
}
