#if PostgreSQL
import CLibPQ
import CheckrunModel
import Foundation

/// One connection to a PostgreSQL server through libpq, for the team store: parameters are
/// always bound (`PQexecParams`), and every error names the server by its address with any
/// password masked. Connection settings (TLS, `.pgpass`, `PG*` variables) are libpq's own.
package final class PostgresConnection {
    var handle: OpaquePointer?
    /// The address as messages show it: no password.
    package let name: String
    var transactionDepth = 0
    private var spellings: [String: String] = [:]
    /// Statements prepared on this connection, by text: the server parses and plans each once.
    private var prepared: [String: String] = [:]
    /// A write transaction's statements whose results nobody reads, not sent yet (`hold`).
    var held: [HeldStatement] = []
    /// The size of the values held, to send them before they grow large.
    var heldBytes = 0
    /// How long a write waits for another writer's lock (`waitWhenBusy`), when not the
    /// connection's own `lock_timeout`: set for each write transaction with its BEGIN, in the
    /// same trip, so a walk's short wait costs no round trip of its own.
    var lockWaitSeconds = Database.busySeconds

    package init(uri: String) throws(StoreError) {
        name = ServerAddressText.masked(uri)
        if ServerAddressText.isMisread(uri) {
            throw StoreError("\(name) holds an @, / or ? as it is in its password or database name, which libpq would read as part of the host or port; "
                + "percent-encode it there (%40 for @, %2F for /, %3F for ?), or leave the password out of the address and set PGPASSWORD")
        }
        let connection = Self.connect(uri)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            throw StoreError(Self.explainConnectionFailure(ServerAddressText.scrubbed(message, passwordsOf: [uri]), name: ServerAddressText.masked(uri)))
        }
        handle = connection
        // libpq would print the server's notices ("WARNING: terminating connection…") raw on
        // standard error; what matters reaches the user as checkrun's own words instead.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try applySettings()
    }

    /// Connects with checkrun's defaults for a network that goes away (give up connecting after
    /// 10 s; call a silent connection dead after about 30 s), so a walk waiting on a dead link
    /// says so instead of hanging for the system's quarter of an hour. The address comes last:
    /// anything it sets itself wins. The server's notices are asked for from warnings up from
    /// the start (after PGOPTIONS, kept): those sent while connecting, before the notice
    /// processor is set, reached the terminal raw ("DEBUG: CommitTransaction…").
    private static func connect(_ uri: String) -> OpaquePointer? {
        let options = [ProcessInfo.processInfo.environment["PGOPTIONS"], "-c client_min_messages=warning"].compactMap { $0 }.joined(separator: " ")
        let settings = [("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "15"), ("keepalives_interval", "5"),
                        ("keepalives_count", "3"), ("tcp_user_timeout", "30000"), ("options", options),
                        ("dbname", ServerAddressText.withLowercaseScheme(uri))]
        let keys = settings.map { strdup($0.0) }, values = settings.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) } + [nil], valuePointers = values.map { UnsafePointer($0) } + [nil]
        return PQconnectdbParams(keyPointers, valuePointers, 1)
    }

    /// Settings that make every server read and write exactly what checkrun means, whatever
    /// its administrator chose: every double's digits (hashes and verification compare values
    /// that must round-trip exactly), text in UTF-8, bytes as hex; a writer waits for
    /// another's lock as long as an SQLite writer waits for the file's; and a write sees what
    /// the writer before it committed (read committed): a database defaulting to repeatable
    /// read gave two `record`s of one check the same attempt number, and failed amendments.
    static let sessionSettings = """
        SET extra_float_digits = 3; SET client_encoding = 'UTF8'; SET bytea_output = 'hex'; \
        SET lock_timeout = '\(Database.busySeconds)s'; SET client_min_messages = warning; \
        SET default_transaction_isolation = 'read committed'
        """

    /// `sessionSettings`, then no JIT compiling where the server has it (11 and later; on by
    /// default from 12): it compiles every query estimated past a cost threshold, and the one of
    /// checkrun's that passes it (the history of a report covering fifty builds) spent 35 ms
    /// compiling, on every report, expressions too simple to gain from it. Sent on its own and
    /// allowed to fail: it only saves time, and a server that refuses it is still a store.
    private func applySettings() throws(StoreError) {
        try exec(Self.sessionSettings)
        if PQserverVersion(handle) >= 110_000 { try? exec("SET jit = off") }
    }

    deinit { PQfinish(handle) }

    /// Connects again with the same settings (libpq's PQreset); throws while the server is away.
    func reconnect() throws {
        transactionDepth = 0
        dropHeld()
        spellings.removeAll()
        prepared.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError("the PostgreSQL server \(name) is not back yet", connectionLost: true)
        }
        try applySettings()
    }

    func close() {
        dropHeld()
        PQfinish(handle)
        handle = nil
    }

    /// The server's version as a number, e.g. 150018 for 15.18.
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// Runs one statement with text parameters ($1, $2 …; nil is NULL) and returns its rows,
    /// each column as text or nil.
    @discardableResult
    package func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        let result = try execute(sql, parameters)
        defer { PQclear(result) }
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
    }

    /// Runs SQL text without parameters (several statements may be given), after any
    /// statements held.
    func exec(_ sql: String) throws(StoreError) {
        if !held.isEmpty { try sendHeld() }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement (already in PostgreSQL's spelling) and returns its result, which the
    /// caller clears. The statement is prepared the first time this connection runs its text;
    /// statements held go with it, in one trip.
    func execute(_ sql: String, _ parameters: [String?]) throws(StoreError) -> OpaquePointer {
        if !held.isEmpty { return try sendHeld(then: HeldStatement(sql: sql, parameters: parameters)) }
        let statement = try preparedName(sql)
        let result = Self.withCStrings(parameters) { pointers in
            PQexecPrepared(handle, statement, Int32(pointers.count), pointers, nil, nil, 0)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw StoreError("the PostgreSQL server \(name) gave no answer", sql: sql) }
        return result
    }

    func preparedName(_ sql: String) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        let name = "checkrun\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// The statement in PostgreSQL's spelling, translated once per text.
    func spelled(_ sql: String) throws(StoreError) -> String {
        if let known = spellings[sql] { return known }
        let translated = PostgresSpelling.translate(sql)
        spellings[sql] = translated
        return translated
    }

    func check(_ result: OpaquePointer?, sql: String) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK else { return }
        let message = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        // Every error the server itself reports carries an SQLSTATE; one without came from the
        // link (a server killed, a backend ended by a crash), whatever PQstatus still says.
        let lost = PQstatus(handle) != CONNECTION_OK || state == nil || ["57P01", "57P02", "57P03"].contains(state ?? "")
        throw PostgresFailure.error(message.isEmpty ? String(cString: PQerrorMessage(handle)) : message, state: state,
                                    server: name, lost: lost, sql: sql)
    }

    static func withCStrings<T>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = values.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// One line a user can act on, for the failures people meet.
    static func explainConnectionFailure(_ message: String, name: String) -> String {
        let lowered = message.lowercased()
        if lowered.contains("password authentication failed") || lowered.contains("no password supplied") {
            return "cannot sign in to the PostgreSQL server \(name): the user name or password is wrong (check the address, PGPASSWORD or ~/.pgpass)"
        }
        if lowered.contains("invalid connection option") || lowered.contains("invalid integer value") || lowered.contains("invalid uri query parameter") {
            return "cannot read the address of the PostgreSQL server \(name): \(DisplayText.neutralised(message.trimmingCharacters(in: .whitespacesAndNewlines))); check its options (libpq's connection parameters, in lower case)"
        }
        if lowered.contains("percent-encod") || lowered.contains("unexpected spaces") || lowered.contains("invalid uri") {
            return "cannot read the address of the PostgreSQL server \(name): percent-encode any %, @, :, / or space in the user name and password (%25 for %, %40 for @, %20 for a space), or give the password in PGPASSWORD or ~/.pgpass"
        }
        if lowered.contains("does not exist") && lowered.contains("database") {
            return "the PostgreSQL server \(name) has no such database; create it first (createdb), or check the address"
        }
        if lowered.contains("could not translate host name") || lowered.contains("connection refused") || lowered.contains("no such file or directory")
            || lowered.contains("timeout expired") || lowered.contains("could not connect") {
            return "cannot reach the PostgreSQL server \(name): is it running, and is the host and port right?"
        }
        return "cannot connect to the PostgreSQL server \(name): \(DisplayText.neutralised(message.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }
}
#endif
