import Foundation
import GRDB
import ParlorStore
import ParlorStoreSQLite
import PostgresNIO
import Testing

/// The schema is written twice, as SQLite and as PostgreSQL migrations. After both have run, the
/// two databases must have the same tables, columns, NOT NULL columns, primary keys, foreign keys
/// and unique constraints, read back from each engine's own catalog.
@Suite("SQLite and PostgreSQL schemas match")
struct SchemaParityTests {
    /// One table as both catalogs describe it, in the same terms.
    struct Table: Hashable, CustomStringConvertible {
        var columns: Set<String> = []
        var notNull: Set<String> = []
        var primaryKey: [String] = []
        /// "column → table".
        var foreignKeys: Set<String> = []
        /// Each unique constraint's columns, comma-separated in order.
        var unique: Set<String> = []

        var description: String {
            "columns \(columns.sorted()), not null \(notNull.sorted()), primary key \(primaryKey), "
                + "foreign keys \(foreignKeys.sorted()), unique \(unique.sorted())"
        }
    }

    /// What one engine has that the other does the same job without, and why. Each is checked
    /// to still be there, so the list cannot outlive the difference it explains.
    struct EngineSpecific: Sendable {
        let what: String
        let why: String
        /// Removes the difference from the engine's schema; false when it is not there.
        let remove: @Sendable (_ postgres: inout [String: Table], _ sqlite: inout [String: Table]) -> Bool
    }

    static let engineSpecific = [
        EngineSpecific(what: "members.join_order", why: "SQLite keeps members in join order by rowid; PostgreSQL needs the column") { postgres, _ in
            postgres["members"]?.columns.remove("join_order") != nil && postgres["members"]?.notNull.remove("join_order") != nil
        },
        EngineSpecific(
            what: "users.username unique",
            why: "SQLite: a UNIQUE COLLATE NOCASE column; PostgreSQL: a unique index on lower(username COLLATE \"C\"): both case-insensitive for ASCII only"
        ) { _, sqlite in
            sqlite["users"]?.unique.remove("username") != nil
        },
        EngineSpecific(
            what: "reactions.reaction_order",
            why: "SQLite orders reactions given in the same instant by rowid; PostgreSQL needs the column"
        ) { postgres, _ in
            postgres["reactions"]?.columns.remove("reaction_order") != nil && postgres["reactions"]?.notNull.remove("reaction_order") != nil
        },
        EngineSpecific(
            what: "message_search (SQLite) and messages.search (PostgreSQL)",
            why: "the search index over messages.search_text: an FTS5 table and its shadow tables on SQLite, a generated tsvector column on PostgreSQL"
        ) { postgres, sqlite in
            let ftsTables = sqlite.keys.filter { $0.hasPrefix("message_search") }
            for table in ftsTables { sqlite[table] = nil }
            return !ftsTables.isEmpty && postgres["messages"]?.columns.remove("search") != nil
        },
        EngineSpecific(
            what: "cluster_presence (PostgreSQL)",
            why: "who is connected to which node: only a cluster has other nodes, and SQLite serves one"
        ) { postgres, _ in
            postgres.removeValue(forKey: "cluster_presence") != nil
        },
    ]

    @Test("Every table has the same columns, NOT NULLs, keys and unique constraints on both engines")
    func sameSchema() async throws {
        var sqlite = try sqliteSchema()
        var postgres = try await postgresSchema()
        for exception in Self.engineSpecific {
            #expect(exception.remove(&postgres, &sqlite), "no longer true: \(exception.what) (\(exception.why))")
        }
        #expect(Set(sqlite.keys) == Set(postgres.keys), "tables")
        #expect(sqlite.count == 21, "every table was read")
        for name in Set(sqlite.keys).intersection(postgres.keys).sorted() {
            let (lite, pg) = (sqlite[name] ?? Table(), postgres[name] ?? Table())
            #expect(lite.columns == pg.columns, "\(name): columns")
            #expect(lite.notNull == pg.notNull, "\(name): NOT NULL")
            #expect(lite.primaryKey == pg.primaryKey, "\(name): primary key")
            #expect(lite.foreignKeys == pg.foreignKeys, "\(name): foreign keys")
            #expect(lite.unique == pg.unique, "\(name): unique constraints")
        }
    }

    private func sqliteSchema() throws -> [String: Table] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SchemaParity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("parlor.sqlite").path
        _ = try SQLiteStore(path: path, logger: .quiet)
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var tables: [String: Table] = [:]
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
            for name in names {
                var table = Table()
                var keyed: [(position: Int, column: String)] = []
                for column in try Row.fetchAll(db, sql: "SELECT name, \"notnull\", pk FROM pragma_table_info(?)", arguments: [name]) {
                    let columnName: String = column["name"]
                    table.columns.insert(columnName)
                    let position: Int = column["pk"]
                    if position > 0 { keyed.append((position, columnName)) }
                    // A primary key column is NOT NULL on PostgreSQL whatever it says; say so here too.
                    if (column["notnull"] as Int) == 1 || position > 0 { table.notNull.insert(columnName) }
                }
                table.primaryKey = keyed.sorted { $0.position < $1.position }.map(\.column)
                for key in try Row.fetchAll(db, sql: "SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", arguments: [name]) {
                    table.foreignKeys.insert("\(key["from"] as String) → \(key["table"] as String)")
                }
                for index in try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin != 'pk'", arguments: [name]) {
                    let columns = try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"] as String])
                    table.unique.insert(columns.joined(separator: ","))
                }
                tables[name] = table
            }
            return tables
        }
    }

    private func postgresSchema() async throws -> [String: Table] {
        try await StoreBackend.postgres.withDatabase { database in
            _ = try await database.open()
            let url = try #require(database.postgresURL)
            return try await PostgresTestServer.withClient(url: url) { client in
                var tables: [String: Table] = [:]
                let columns = try await client.query("""
                    SELECT table_name::text, column_name::text, is_nullable::text FROM information_schema.columns
                    WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
                    """).collect()
                for row in columns {
                    let (table, column, nullable) = try row.decode((String, String, String).self)
                    tables[table, default: Table()].columns.insert(column)
                    if nullable == "NO" { tables[table, default: Table()].notNull.insert(column) }
                }
                // Every constraint with its columns in order; for foreign keys, the table referenced.
                let constraints = try await client.query("""
                    SELECT c.conrelid::regclass::text, c.contype::text, c.confrelid::regclass::text,
                           array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n), ',')
                    FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
                    WHERE s.nspname = 'public' AND c.contype IN ('p', 'f', 'u') AND c.conrelid::regclass::text <> 'schema_migrations'
                    """).collect()
                for row in constraints {
                    let (table, type, referenced, columns) = try row.decode((String, String, String, String).self)
                    switch type {
                    case "p": tables[table, default: Table()].primaryKey = columns.components(separatedBy: ",")
                    case "f": tables[table, default: Table()].foreignKeys.insert("\(columns) → \(referenced)")
                    default: tables[table, default: Table()].unique.insert(columns)
                    }
                }
                // Unique indexes on plain columns count as unique constraints, as SQLite lists them.
                let indexes = try await client.query("""
                    SELECT i.indrelid::regclass::text,
                           array_to_string(ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n), ',')
                    FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
                    WHERE s.nspname = 'public' AND i.indisunique AND NOT i.indisprimary AND i.indexprs IS NULL
                      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
                    """).collect()
                for row in indexes {
                    let (table, columns) = try row.decode((String, String).self)
                    tables[table, default: Table()].unique.insert(columns)
                }
                return tables
            }
        }
    }
}
