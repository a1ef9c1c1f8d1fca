#if PostgreSQL
import CheckrunModel
import Foundation

/// What opening a PostgreSQL store does before it is used: refuse another application's
/// database and a newer checkrun's, create the tables in an empty one, and bring an older
/// layout up to date, in one transaction under the writers' lock, so two checkruns opening a
/// new store at once cannot both create it.
enum PostgresSetup {
    /// Returns whether this opening set the store up in a database that held none.
    @discardableResult
    static func prepare(_ connection: PostgresConnection, access: ResultStore.Access, upgrading: ((Int, Int) -> Void)?) throws -> Bool {
        let current = try version(connection)
        if access != .readOnly { try requireUTF8(connection) }
        if current != nil { try refuseHandAddedRules(connection) }
        if let current, current < PostgresSchema.latestVersion, !PostgresSchema.steps.contains(where: { $0.version == current }) {
            // No step of checkrun's leaves this number: the table was edited by hand.
            throw StoreError("\(connection.name) has a checkrun_schema table at version \(current), which no checkrun writes; it was edited behind checkrun's back and was left untouched")
        }
        if let current, current >= PostgresSchema.latestVersion {
            guard current == PostgresSchema.latestVersion else { throw newer(connection, current) }
            return false
        }
        // A command that only reads leaves a store it reads as it is to the next writer: a role
        // that may only read, or a replica, cannot take a step, and the reading needs none.
        if let current, current >= Schema.oldestReadableAsItIs, access == .readOnly { return false }
        if current == nil && !access.createsFile {
            if try foreignTables(connection) > 0 { throw foreign(connection) }
            throw StoreError("\(connection.name) holds no checkrun results yet; record a result or merge a database into it first")
        }
        return try connection.transaction {
            // Looked at again under the lock: another checkrun may have set the store up
            // meanwhile, and its new tables are not another application's.
            guard let now = try version(connection) ?? (try foreignTables(connection) > 0 ? nil : 0) else { throw foreign(connection) }
            if now > PostgresSchema.latestVersion { throw newer(connection, now) }
            if now > 0 && now < PostgresSchema.latestVersion { upgrading?(now, PostgresSchema.latestVersion) }
            for step in PostgresSchema.steps where step.version > now {
                try connection.execute(step.sql)
                try connection.run("UPDATE checkrun_schema SET version = ?", [.integer(Int64(step.version))])
            }
            return now == 0
        }
    }

    /// The recorded schema version; nil when the database has no checkrun schema table.
    private static func version(_ connection: PostgresConnection) throws -> Int? {
        let places = try connection.query(
            "SELECT schemaname, schemaname = current_schema() FROM pg_tables WHERE tablename = 'checkrun_schema'") { ($0.string(0) ?? "", $0.int(1) == 1) }
        guard places.contains(where: \.1) else {
            // One database, one team store: a second one beside it (another user's schema
            // first in the search path) would split the team's results without a word.
            if let other = places.first {
                throw StoreError("\(connection.name) holds a checkrun store in the schema \(DisplayText.preview(other.0, limit: 60)), not in this connection's; connect to it there (options=-csearch_path%3D\(DisplayText.preview(other.0, limit: 60)) in the address), not beside it")
            }
            return nil
        }
        let notOurs = StoreError("\(connection.name) has a checkrun_schema table that checkrun did not write; it was left untouched")
        // Another application's table of that name may lack the columns: asked first, so the
        // refusal is this line rather than the server's complaint about a column.
        // From the catalog, which shows every column: information_schema hides those a role
        // may not read, and a role without rights was told the table was not checkrun's.
        let columns = try connection.query(
            "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(quote_ident(current_schema()) || '.checkrun_schema') AND attnum > 0 AND NOT attisdropped") { $0.string(0) ?? "" }
        guard Set(columns) == ["application", "version"] else { throw notOurs }
        let rows = try connection.query("SELECT application, version FROM checkrun_schema") { ($0.string(0) ?? "", $0.int(1) ?? 0) }
        guard rows.count == 1, let row = rows.first, row.0 == "checkrun" else { throw notOurs }
        return row.1
    }

    /// Another application's objects: anything in a schema but the system's (tables, views,
    /// sequences, types, functions, operators and their families and classes, collations,
    /// conversions, text search configurations, dictionaries, parsers and templates), access
    /// methods and event triggers (which belong to no schema), a
    /// schema of its own (not `public`, nor the empty one made for checkrun and first in the
    /// search path), large objects, foreign servers, publications. An extension's own
    /// objects and the schema it was installed in (pgcrypto installed by the administrator)
    /// are not an application's: a database with nothing else is checkrun's to set up.
    private static func foreignTables(_ connection: PostgresConnection) throws -> Int {
        try connection.scalarInt(foreignObjects) ?? 0
    }

    /// The catalogs of objects that live in a schema and need no other condition, each with
    /// the column that names its schema.
    private static let schemaObjects = [
        ("pg_proc", "pronamespace"), ("pg_operator", "oprnamespace"), ("pg_opfamily", "opfnamespace"), ("pg_opclass", "opcnamespace"),
        ("pg_collation", "collnamespace"), ("pg_conversion", "connamespace"), ("pg_ts_config", "cfgnamespace"), ("pg_ts_dict", "dictnamespace"),
        ("pg_ts_parser", "prsnamespace"), ("pg_ts_template", "tmplnamespace"),
    ]

    static let foreignObjects = """
        WITH own AS (SELECT oid FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'),
        member AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
        SELECT (SELECT count(*) FROM pg_class c WHERE c.relnamespace IN (SELECT oid FROM own)
                AND ('pg_class'::regclass, c.oid) NOT IN (SELECT classid, objid FROM member) AND c.relkind NOT IN ('i', 'I', 't'))
             + (SELECT count(*) FROM pg_type t WHERE t.typnamespace IN (SELECT oid FROM own) AND t.typrelid = 0
                AND NOT (t.typcategory = 'A' AND t.typelem <> 0) AND ('pg_type'::regclass, t.oid) NOT IN (SELECT classid, objid FROM member))
        \(schemaObjects.map { catalog, schema in
            "     + (SELECT count(*) FROM \(catalog) o WHERE o.\(schema) IN (SELECT oid FROM own) AND ('\(catalog)'::regclass, o.oid) NOT IN (SELECT classid, objid FROM member))\n"
        }.joined())\
             + (SELECT count(*) FROM pg_namespace n WHERE n.oid IN (SELECT oid FROM own) AND n.nspname NOT IN ('public', coalesce(current_schema(), 'public'))
                AND n.oid NOT IN (SELECT extnamespace FROM pg_extension) AND ('pg_namespace'::regclass, n.oid) NOT IN (SELECT classid, objid FROM member))
             + (SELECT count(*) FROM pg_largeobject_metadata)
             + (SELECT count(*) FROM pg_foreign_server o WHERE ('pg_foreign_server'::regclass, o.oid) NOT IN (SELECT classid, objid FROM member))
             + (SELECT count(*) FROM pg_publication)
             + (SELECT count(*) FROM pg_am o WHERE o.oid >= 16384 AND ('pg_am'::regclass, o.oid) NOT IN (SELECT classid, objid FROM member))
             + (SELECT count(*) FROM pg_event_trigger o WHERE ('pg_event_trigger'::regclass, o.oid) NOT IN (SELECT classid, objid FROM member))
        """

    /// Refuses to write to a database whose encoding cannot hold every character: in LATIN1 a
    /// walk ended on a note with an emoji, its answer unsaved.
    private static func requireUTF8(_ connection: PostgresConnection) throws {
        let encoding = try connection.query("SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database()") { $0.string(0) ?? "" }.first ?? ""
        guard encoding == "UTF8" else {
            throw StoreError("\(connection.name) stores text in the encoding \(DisplayText.preview(encoding, limit: 20)), which cannot hold every character a tester may type; nothing was written. Create the database in UTF-8 (createdb --encoding=UTF8 --template=template0 checkrun)")
        }
    }

    /// Refuses a store holding a trigger or rule checkrun never creates, as a file holding a
    /// trigger is refused: it runs inside checkrun's own writes (a verdict of fail saved as
    /// pass while the walk said "Recorded … fail").
    private static func refuseHandAddedRules(_ connection: PostgresConnection) throws {
        let added = try connection.query(handAddedRules) { ($0.string(0) ?? "", $0.string(1) ?? "", $0.string(2) ?? "") }
        guard let first = added.first else { return }
        throw StoreError("\(connection.name) holds a \(first.0) checkrun never creates (\(DisplayText.preview(first.1, limit: 80)), on \(DisplayText.preview(first.2, limit: 80))): it would run inside checkrun's own writes, so nothing was read or written. Look at it with psql's \\d \(DisplayText.preview(first.2, limit: 80)); once you know what it does, remove it (DROP \(first.0.uppercased()) … ON …), then run `checkrun verify`")
    }

    /// Triggers (not the server's own, which keep foreign keys) and rewrite rules on the
    /// tables of the store's schema.
    static let handAddedRules = """
        SELECT 'trigger', t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE c.relnamespace = to_regnamespace(current_schema()) AND NOT t.tgisinternal
        UNION ALL
        SELECT 'rule', r.rulename, c.relname FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
        WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind = 'r'
        ORDER BY 2 LIMIT 1
        """

    private static func foreign(_ connection: PostgresConnection) -> StoreError {
        StoreError("\(connection.name) holds tables or other objects of another application, not checkrun's; it was left untouched. Create an empty database for checkrun (createdb checkrun)")
    }

    private static func newer(_ connection: PostgresConnection, _ version: Int) -> StoreError {
        StoreError("\(connection.name) was set up by a newer checkrun (schema version \(version); this checkrun knows up to \(PostgresSchema.latestVersion)); upgrade checkrun to use it")
    }
}
#endif
