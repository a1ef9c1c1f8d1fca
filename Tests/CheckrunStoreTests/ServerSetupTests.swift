#if PostgreSQL
import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// What opening a server store refuses: a schema table edited by hand, another application's
/// database of any kind of object. Refused before anything is written, readers and writers alike.
@Suite(.enabled(if: TestEngine.server != nil, "needs CHECKRUN_TEST_POSTGRES (see .ci/run)"))
struct ServerSetupTests {
    @Test func aSchemaVersionNoCheckrunWritesIsRefusedWithoutAnUpgrade() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        try ResultStore(path: database.address).close()
        for version in [4, -1] {
            let editor = try PostgresConnection(uri: database.address)
            try editor.run("UPDATE checkrun_schema SET version = ?", [.integer(Int64(version))])
            for access in [ResultStore.Access.readOnly, .createIfMissing] {
                var upgraded = false
                #expect { try ResultStore(path: database.address, access: access) { _, _ in upgraded = true } } throws: {
                    "\($0)".contains("has a checkrun_schema table at version \(version), which no checkrun writes")
                }
                #expect(!upgraded)
            }
        }
    }

    /// A store at version 5 (before the index of step 6) is read as it is by a command that
    /// only reads, and brought up to date by one that writes, said once, with its results kept
    /// and the index in place.
    @Test func aVersionFiveStoreIsUpgradedToTheLatestStep() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        let store = try ResultStore(path: database.address)
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try store.insert(session)
        store.close()
        let editor = try PostgresConnection(uri: database.address)
        try editor.execute("DROP INDEX results_set_aside; UPDATE checkrun_schema SET version = 5")
        // A command that only reads (a role that may only read) reads it as it is.
        var announced: [Int] = []
        let reader = try ResultStore(path: database.address + "&options=-cdefault_transaction_read_only%3Don", access: .readOnly) { announced = [$0, $1] }
        #expect(try reader.sessionSummaries().count == 1 && announced.isEmpty)
        #expect(try reader.database.scalarInt("SELECT version FROM checkrun_schema") == 5)
        reader.close()
        let upgraded = try ResultStore(path: database.address, access: .existingOnly) { announced = [$0, $1] }
        #expect(announced == [5, 6])
        #expect(try upgraded.database.scalarInt("SELECT version FROM checkrun_schema") == 6)
        #expect(try upgraded.database.scalarInt("SELECT count(*) FROM pg_indexes WHERE indexname = 'results_set_aside'") == 1)
        #expect(try upgraded.database.scalarInt("SELECT count(*) FROM sessions") == 1)
    }

    /// Another application's table of the name checkrun keeps its version in, whatever its
    /// columns, is refused in one line, not with the server's complaint about a column.
    @Test func anotherApplicationsTableOfTheSchemaTablesNameIsRefusedInOneLine() throws {
        for table in ["CREATE TABLE checkrun_schema (version int)", "CREATE TABLE checkrun_schema (application text, version int, extra int)"] {
            let database = try TestDatabase(.postgresql)
            defer { database.remove() }
            try PostgresConnection(uri: database.address).execute(table)
            for access in [ResultStore.Access.readOnly, .createIfMissing] {
                #expect { try ResultStore(path: database.address, access: access) } throws: {
                    "\($0)".contains("has a checkrun_schema table that checkrun did not write; it was left untouched")
                }
            }
        }
    }

    /// A database holding another application's views, sequences, types or functions, and no
    /// table, is still another application's: refused and left untouched. An extension's own
    /// objects are not an application's.
    @Test func anotherApplicationsObjectsOfAnyKindAreRefused() throws {
        for objects in ["CREATE VIEW app_view AS SELECT 1 AS x", "CREATE SEQUENCE app_seq", "CREATE TYPE results AS (x int)",
                        "CREATE TYPE mood AS ENUM ('ok')", "CREATE FUNCTION app_fn() RETURNS int LANGUAGE sql AS 'SELECT 1'",
                        "CREATE TYPE app_shell", "CREATE OPERATOR === (LEFTARG = int4, RIGHTARG = int4, FUNCTION = int4eq)",
                        "CREATE COLLATION app_collation FROM \"C\"", "CREATE TEXT SEARCH CONFIGURATION app_search (COPY = simple)",
                        "CREATE SCHEMA app_schema", "SELECT lo_from_bytea(0, 'x')", "CREATE FOREIGN DATA WRAPPER app_wrapper; CREATE SERVER app_server FOREIGN DATA WRAPPER app_wrapper",
                        "CREATE PUBLICATION app_publication", "CREATE OPERATOR FAMILY app_family USING btree",
                        "CREATE ACCESS METHOD app_am TYPE TABLE HANDLER heap_tableam_handler",
                        "CREATE CONVERSION app_conversion FOR 'LATIN1' TO 'UTF8' FROM iso8859_1_to_utf8",
                        "CREATE TEXT SEARCH TEMPLATE app_template (LEXIZE = dsimple_lexize)"] {
            let database = try TestDatabase(.postgresql)
            defer { database.remove() }
            try PostgresConnection(uri: database.address).execute(objects)
            #expect(throws: StoreError.self, "\(objects)") { try ResultStore(path: database.address) }
            #expect { try ResultStore(path: database.address) } throws: { "\($0)".contains("holds tables or other objects of another application") }
            let checkruns = try PostgresConnection(uri: database.address).query("SELECT count(*) FROM pg_tables WHERE tablename = 'checkrun_schema'")
            #expect(checkruns.first?.first??.description == "0", "\(objects): nothing of checkrun's was created")
        }
    }

    /// A database holding only extensions the administrator installed is checkrun's to set up.
    @Test func extensionsAloneAreNoOtherApplication() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        try PostgresConnection(uri: database.address).execute("CREATE EXTENSION pgcrypto; CREATE SCHEMA extensions; CREATE EXTENSION citext SCHEMA extensions")
        let store = try ResultStore(path: database.address)
        #expect(try store.database.scalarInt("SELECT version FROM checkrun_schema") == PostgresSchema.latestVersion)
    }

    /// An empty schema made for checkrun, first in the search path (only the database's owner
    /// may create in `public` since PostgreSQL 15), is where the store is set up.
    @Test func anEmptySchemaMadeForCheckrunIsUsed() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        let name = try #require(URLComponents(string: database.address)?.path.dropFirst())
        try PostgresConnection(uri: database.address).execute("CREATE SCHEMA checkrun; ALTER DATABASE \"\(name)\" SET search_path = checkrun")
        let store = try ResultStore(path: database.address)
        #expect(try store.database.scalarInt("SELECT count(*) FROM pg_tables WHERE schemaname = 'checkrun' AND tablename = 'checkrun_schema'") == 1)
    }

    /// A database in another encoding than UTF-8 is refused before anything is written: in
    /// LATIN1 a walk ended on a note with an emoji, its answer unsaved.
    @Test func aDatabaseThatCannotHoldEveryCharacterIsRefusedUntouched() throws {
        let server = try #require(TestEngine.server)
        var parts = try #require(URLComponents(string: server))
        let name = "checkrun_latin1_\(UUID().uuidString.prefix(8).lowercased())"
        try PostgresConnection(uri: server).execute("CREATE DATABASE \"\(name)\" TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'")
        defer { try? ResultStore.dropServerDatabase(name, administering: server) }
        parts.path = "/" + name
        let address = try #require(parts.string)
        #expect { try ResultStore(path: address) } throws: { "\($0)".contains("stores text in the encoding LATIN1, which cannot hold every character") }
        #expect(try PostgresConnection(uri: address).scalarInt("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0)
    }

    /// A trigger or rule added to a store runs inside checkrun's own writes (a failure saved
    /// as a pass): refused before anything is read or written, as on a file.
    @Test func aTriggerOrRuleAddedToTheStoreIsRefused() throws {
        let database = try TestDatabase(.postgresql)
        defer { database.remove() }
        try ResultStore(path: database.address).close()
        let connection = try PostgresConnection(uri: database.address)
        try connection.execute("""
            CREATE FUNCTION pass_all() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE results SET verdict = 'pass' WHERE verdict = 'fail'; RETURN NULL; END $$;
            CREATE TRIGGER forge AFTER INSERT ON records FOR EACH ROW EXECUTE FUNCTION pass_all()
            """)
        for access in [ResultStore.Access.createIfMissing, .readOnly] {
            #expect { try ResultStore(path: database.address, access: access) } throws: { "\($0)".contains("holds a trigger checkrun never creates (forge, on records)") }
        }
        try connection.execute("DROP TRIGGER forge ON records; CREATE RULE keep AS ON INSERT TO results DO ALSO NOTIFY checkrun")
        #expect { try ResultStore(path: database.address) } throws: { "\($0)".contains("holds a rule checkrun never creates (keep, on results)") }
    }

    /// A role without rights on the store is told so, not that the store is another's.
    @Test func aRoleWithoutRightsIsToldSo() throws {
        let database = try TestDatabase(.postgresql)
        let role = "checkrun_norights_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try PostgresConnection(uri: database.address)
        defer {
            database.remove()
            try? admin.execute("DROP ROLE IF EXISTS \(role)")
        }
        try ResultStore(path: database.address).close()
        try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD 'NoRights123'")
        var parts = try #require(URLComponents(string: database.address))
        parts.user = role
        parts.password = "NoRights123"
        let address = try #require(parts.string)
        #expect { try ResultStore(path: address, access: .readOnly) } throws: { "\($0)".contains("permission denied for table checkrun_schema") }
    }

    /// A file holding a NUL in its text (the walk refuses one now; older files may hold one)
    /// is refused before the merge writes anything, the session named, the store unchanged:
    /// not stopped half way with a promise that running it again completes it.
    @Test func aSessionHoldingANulIsRefusedBeforeTheMergeWrites() throws {
        let file = try TestDatabase(.sqlite)
        defer { file.remove() }
        let source = try ResultStore(path: file.address)
        let session = Session(release: "2.4", build: "311", plan: ["p/c"])
        try source.insert(session)
        var result = CheckResult(sessionID: session.id, check: "p/c", protocolHash: "h", attempt: 1, outcomeCount: 1, startedAt: Date())
        result.outcomes[0] = OutcomeAnswer(.fail, answeredAt: Date())
        result.verdict = .fail
        result.notes = "pasted a\u{0}b"
        try source.save(result)
        let server = try TestDatabase(.postgresql)
        defer { server.remove() }
        let store = try ResultStore(path: server.address)
        #expect { try store.merge(from: try DatabaseSource(store: source, name: "ana.sqlite")) } throws: {
            "\($0)".contains("ana.sqlite: session \(session.shortID) holds a NUL character (a zero byte) in its text, which PostgreSQL cannot keep; nothing was merged")
        }
        #expect(try store.database.scalarInt("SELECT count(*) FROM sessions") == 0)
        // A kept protocol text holding one is refused the same way, before anything is written.
        try source.database.execute("DELETE FROM outcome_answers; DELETE FROM records; DELETE FROM results; DELETE FROM sessions")
        let text = "{\"id\": \"x\u{0}\"}"
        try source.database.run("INSERT INTO protocol_versions (hash, protocol_id, content) VALUES (?, 'x', ?)", [.text(SHA256.hex(text)), .text(text)])
        #expect { try store.merge(from: try DatabaseSource(store: source, name: "ana.sqlite")) } throws: {
            "\($0)".contains("the kept text of protocol x (version") && "\($0)".contains("holds a NUL character (a zero byte), which PostgreSQL cannot keep; nothing was merged")
        }
        #expect(!ResultStore.escapesNUL(#"{"notes":"a\\u0000"}"#) && ResultStore.escapesNUL(#"{"notes":"a\\\u0000"}"#))
    }
}
#endif
