import CheckrunModel
import Foundation

/// Sessions and results in one SQLite file. Every write is its own transaction, committed
/// before the call returns, so a crash loses nothing that was saved.
package final class ResultStore {
    /// The connection: the store's own, so SQL stays beside the code that runs it. Tests reach it
    /// through `@testable import` to tamper with the file as an attacker would.
    let database: any StoreConnection
    /// The SQLite connection, for what only SQLite does (its file, blobs, pragmas); nil on a server.
    var sqlite: Database? { database as? Database }
    /// The engine holding the results.
    package var engine: StoreEngine { database.engine }
    /// How to reach the same server again, for a store on one (nil for SQLite).
    let serverOpener: StoreOpener?
    /// Whether opening this team store set it up, its database having held none: a merge
    /// refused afterwards leaves the empty tables, and says so rather than "unchanged".
    package private(set) var setUpOnOpening = false
    /// Protocol versions read so far, by hash (see `keptVersion`): a version is its hash, so
    /// one read serves every result recorded against it. Emptied whenever versions are kept.
    var keptVersions: [String: ProtocolLibrary?] = [:]
    /// The result this store's walk saved last, with its payload: the walk saves its next
    /// answer over that payload, so what the tables hold is known without parsing it again.
    /// Trusted only once the database says the session's last record holds that payload.
    var lastSaved: (payload: String, result: CheckResult)?

    /// The database file used when neither `--db` nor `CHECKRUN_DB` names one.
    package static let defaultPath = "checkrun.sqlite"

    /// Whether opening may create the file. Commands that only read never create a database,
    /// so a mistyped `--db` is an error instead of an empty database that "verifies".
    package enum Access: Sendable {
        case createIfMissing
        case existingOnly
        /// For commands that only read (`verify`, `report`, `sessions` …): an existing file, and
        /// one this user may not write (a colleague's, a read-only share) is read as it stands,
        /// leaving nothing beside it. Opened as an ordinary connection, a reader that may write
        /// the folder but not the file left `-wal` and `-shm` files of its own there, which
        /// locked the file's owner out of it.
        case readOnly

        var createsFile: Bool { self == .createIfMissing }
    }

    /// Opens the file, refusing anything that is not a checkrun database or is newer than this
    /// checkrun, then brings its schema up to date. `upgrading` hears of an upgrade of a file
    /// that already holds data (from version, to version) before it starts: on a large database
    /// one step can take minutes, and a tester should know why the command waits.
    package init(path: String, access: Access = .createIfMissing, upgrading: ((Int, Int) -> Void)? = nil) throws(StoreError) {
        if ServerAddressText.isServer(path) {
            (database, serverOpener, setUpOnOpening) = try Self.openServer(path, access: access, upgrading: upgrading)
            return
        }
        try Self.refuseMisnamedServer(path)
        let file = try DatabaseFile.inspect(path)
        if !file.exists && !access.createsFile {
            throw StoreError("no checkrun database at \(path); check the path, or name one with --db PATH")
        }
        if file.exists && file.size > 0 { try file.refuseForeign() }
        if access == .readOnly && !file.isWritableHere {
            database = try file.openAsItStands()
            serverOpener = nil
            return
        }
        if let reason = file.cannotWrite { throw StoreError(reason) }
        let connection = try Database(path: path, create: access.createsFile)
        database = connection
        serverOpener = nil
        // Several processes may open a new file at once: setting it up is retried while
        // another one holds the lock, instead of failing with "busy".
        let deadline = Date().addingTimeInterval(TimeInterval(Database.busySeconds))
        while true {
            do {
                try SQLiteSetup.configure(connection)
                try SQLiteSetup.migrate(connection, announce: upgrading)
                return
            } catch let error as StoreError where error.isBusy && Date() < deadline {
                usleep(5_000)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError("cannot prepare the database \(path): \(error)")
            }
        }
    }

    /// Whether the file at `path` starts as every SQLite database does; nil when it cannot be
    /// read. The one place that looks: merge tells databases from exports by it, and an output
    /// file never replaces a database.
    package static func isSQLiteFile(_ path: String) -> Bool? {
        guard let header = try? DatabaseFile(path: path, exists: true, size: 0).header() else { return nil }
        return Array(header.prefix(16)) == DatabaseFile.magic
    }

    /// How long a write waits for another writer's lock (a merge waits longer than a walk).
    package func waitWhenBusy(seconds: Int) {
        database.waitWhenBusy(seconds: seconds)
    }

    /// Whether this store's file was read as it stands (a database this user may not write)
    /// and written to by someone else meanwhile: what was read may not be one consistent state.
    package var changedWhileRead: Bool { sqlite?.changedWhileReadAsItStands ?? false }

    /// Whether the database holds no session at all (a target a failed merge just created).
    package func holdsNoSession() throws -> Bool {
        try database.scalarInt("SELECT count(*) FROM sessions") == 0
    }

    /// Refreshes the query planner's statistics when this connection wrote, then closes it.
    package func close() {
        database.finish()
    }

    /// A store over a connection opened elsewhere, for reading only (merge sources, verification lanes).
    init(readingDatabase database: any StoreConnection, serverOpener: StoreOpener? = nil) {
        self.database = database
        self.serverOpener = serverOpener
    }

    /// Opens another checkrun database to read from (a merge source) through SQLite itself, so
    /// answers still in its write-ahead log are read too, leaving nothing beside it. One
    /// written by an older checkrun is copied (through SQLite) and brought up to date in
    /// `scratch`; a newer one is refused. Messages name `path`, never the scratch copy.
    package static func openForReading(path: String, scratch: String) throws(StoreError) -> ResultStore {
        let file = try DatabaseFile.inspect(path)
        guard file.exists else { throw StoreError("\(path): no such file; check the path") }
        try file.refuseForeign()
        let version = try file.userVersion()
        if version > Schema.latestVersion {
            throw StoreError("\(path) was written by a newer checkrun (schema version \(version); this checkrun knows up to \(Schema.latestVersion)); upgrade checkrun to merge it")
        }
        let source = try file.openWithoutWriting()
        let store: ResultStore
        if version < Schema.oldestReadableAsItIs {
            try source.copy(to: scratch)
            source.close()
            do {
                store = try ResultStore(path: scratch)
            } catch {
                throw StoreError(error.message.replacingOccurrences(of: scratch, with: path), code: error.code)
            }
        } else {
            store = ResultStore(readingDatabase: source)
        }
        do {
            let check = try store.database.query("PRAGMA quick_check") { $0.string(0) ?? "" }
            guard check == ["ok"] else {
                throw StoreError("\(path) is damaged (SQLite: \(check.prefix(3).joined(separator: "; "))); it was not merged")
            }
        } catch let error as StoreError {
            throw StoreError(error.message.contains(path) ? error.message : "\(path) is damaged or truncated (\(error.message)); it was not merged")
        } catch {
            throw StoreError("\(path) cannot be read: \(error)")
        }
        return store
    }

    /// Runs several writes as one transaction (imports, merges, benchmarks): one commit, not one per row.
    package func batch<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    // MARK: - Sessions

    package func insert(_ session: Session) throws {
        try database.transaction {
            try database.run(
                "INSERT INTO sessions (id, release, build, device, os_version, tester, plan, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(session.id.storageText), .text(session.release), .text(session.build), .text(session.device),
                 .text(session.osVersion), .text(session.tester), .text(Self.encodePlan(session.plan)),
                 SQLValue(session.startedAt), SQLValue(session.finishedAt)])
        }
    }

    package func finish(sessionID: UUID, at date: Date) throws {
        try database.transaction {
            try database.run("UPDATE sessions SET finished_at = ? WHERE id = ?", [SQLValue(date), .text(sessionID.storageText)])
        }
    }

    static let sessionColumns = "id, release, build, device, os_version, tester, plan, started_at, finished_at"

    static func readSession(_ row: Row) -> Session? {
        guard let idText = row.string(0), let id = UUID(text: idText) else { return nil }
        return Session(
            id: id, release: row.string(1) ?? "", build: row.string(2) ?? "", device: row.string(3) ?? "",
            osVersion: row.string(4) ?? "", tester: row.string(5) ?? "", plan: decodePlan(row.string(6) ?? ""),
            startedAt: row.date(7) ?? Date(timeIntervalSince1970: 0), finishedAt: row.date(8))
    }

    /// The session whose id starts with `prefix` (the short id a tester types).
    package func session(matching prefix: String) throws -> Session? {
        let pattern = prefix.lowercased()
        guard !pattern.isEmpty, pattern.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        let matches = try database.query(
            "SELECT \(Self.sessionColumns) FROM sessions WHERE lower(id) LIKE ? ORDER BY started_at DESC LIMIT 6",
            [.text(pattern + "%")], Self.readSession).compactMap { $0 }
        if matches.count > 1 {
            // Each named by enough of its id to tell them apart, with what the tester knows it by.
            let length = max(8, pattern.count + 4)
            let named = matches.prefix(5).map { session in
                "\(session.id.storageText.lowercased().prefix(length)) (release \(DisplayText.preview(session.release, limit: 30)), build \(DisplayText.preview(session.build, limit: 30))"
                    + (session.device.isEmpty ? "" : ", \(DisplayText.preview(session.device, limit: 30))") + ")"
            }
            let more = matches.count > 5 ? " and more" : ""
            throw StoreError("the session id \"\(prefix)\" is ambiguous: it begins \(named.joined(separator: ", "))\(more); type more of it (see `checkrun sessions`)")
        }
        return matches.first
    }

    /// Who or what a session names, for offering the last one used.
    package enum SessionField: String, Sendable {
        case device, tester
    }

    /// The device or tester of the newest session that names one.
    package func lastUsed(_ field: SessionField) throws -> String? {
        try database.query("SELECT \(field.rawValue) FROM sessions WHERE \(field.rawValue) <> '' ORDER BY started_at DESC LIMIT 1") { $0.string(0) }.first ?? nil
    }

    /// The newest session not marked finished. Only a walk that asked every check of the plan
    /// marks one (a resume that left checks out does not), so this is one indexed query, not a
    /// count of every session's answers (3 s instead of 0.1 s at a million results on a server).
    package func latestUnfinishedSession() throws -> Session? {
        try database.query(
            "SELECT \(Self.sessionColumns) FROM sessions WHERE finished_at IS NULL ORDER BY started_at DESC LIMIT 1",
            [], Self.readSession).compactMap { $0 }.first
    }

    private static func encodePlan(_ plan: [String]) -> String { Session.storedPlan(plan) }

    private static func decodePlan(_ text: String) -> [String] { Session.plan(stored: text) }
}
