import CheckrunModel
import Foundation

/// What opening an SQLite file does before the store uses it: refuse another program's file or
/// a newer checkrun's, set the journal, and bring the schema up to date in one transaction.
enum SQLiteSetup {
    static func configure(_ database: Database) throws {
        let hasTables = try database.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
        let applicationID = try database.scalarInt("PRAGMA application_id") ?? 0
        if hasTables > 0 && applicationID != Int(Schema.applicationID) {
            throw StoreError("\(database.path) is an SQLite database of another program, not checkrun's; it was left untouched. Choose another file with --db PATH")
        }
        // checkrun creates no trigger: one added behind its back runs inside checkrun's own
        // writes, and could delete a failure the moment it was announced as saved.
        if let trigger = try database.query("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' OR lower(ltrim(sql)) LIKE 'create%trigger%' ORDER BY name LIMIT 1", [], { ($0.string(0) ?? "", $0.string(1) ?? "") }).first {
            throw StoreError("\(database.path) holds a trigger checkrun never creates (\(DisplayText.preview(trigger.0, limit: 80)), on \(DisplayText.preview(trigger.1, limit: 80))): it would run inside checkrun's own writes, so nothing was read or written. Look at it with the sqlite3 shell's .schema; once you know what it does, remove it with DROP TRIGGER, then run `checkrun verify`")
        }
        let version = try database.userVersion
        if version > Schema.latestVersion {
            throw StoreError("\(database.path) was written by a newer checkrun (schema version \(version); this checkrun knows up to \(Schema.latestVersion)); upgrade checkrun to use it")
        }
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = FULL")
        try database.execute("PRAGMA foreign_keys = ON")
    }

    static func migrate(_ database: Database, announce: ((Int, Int) -> Void)?) throws {
        // Only a database that needs a migration takes the write lock, so readers never wait
        // behind a long merge just to find the schema current.
        guard try database.userVersion < Schema.latestVersion else { return }
        // A step that rebuilds a table (copy, drop, rename) cannot run while foreign keys are
        // enforced: dropping a table others refer to would fail or cascade. They are off for
        // the steps (SQLite ignores the switch inside a transaction), and references are
        // checked before the commit instead, so a step can never leave one dangling. A broken
        // reference the file already had (a row deleted by hand) does not block the upgrade.
        try database.execute("PRAGMA foreign_keys = OFF")
        defer { try? database.execute("PRAGMA foreign_keys = ON") }
        try database.transaction {
            let brokenBefore = try brokenReferences(database)
            let current = try database.userVersion
            guard current < Schema.latestVersion else { return }
            if current > 0 { announce?(current, Schema.latestVersion) }
            if current == 0 { try database.execute("PRAGMA application_id = \(Schema.applicationID)") }
            for version in current..<Schema.latestVersion {
                try database.execute(Schema.migrations[version].sql)
                try Schema.migrations[version].backfill?(database)
            }
            // Counted by kind, not matched by row: rows of WITHOUT ROWID tables have no rowid.
            var allowed = Dictionary(brokenBefore.map { ($0, 1) }, uniquingKeysWith: +)
            let dangling = try brokenReferences(database).filter { reference in
                guard let left = allowed[reference], left > 0 else { return true }
                allowed[reference] = left - 1
                return false
            }
            if let first = dangling.first {
                throw StoreError("upgrading \(database.name) would leave \(dangling.count) broken reference\(dangling.count == 1 ? "" : "s") (\(first)); nothing was changed")
            }
            try database.execute("PRAGMA user_version = \(Schema.latestVersion)")
        }
    }

    /// Every reference to a missing row, in words ("counter_values refers to a missing results").
    private static func brokenReferences(_ database: Database) throws -> [String] {
        try database.query("PRAGMA foreign_key_check") { "\($0.string(0) ?? "?") refers to a missing \($0.string(2) ?? "?")" }
    }

}
