#if PostgreSQL
import CLibPQ
import CheckrunModel

/// A statement held back to be sent with the next one that must wait for the server.
struct HeldStatement {
    /// In PostgreSQL's spelling.
    let sql: String
    let parameters: [String?]
}

/// Inside a write transaction, statements whose results nobody reads (BEGIN and the locks, the
/// inserts and deletes of a save) are held and sent with the next statement that must wait for
/// the server, a read or the COMMIT, in one pipeline: an answer saved is two trips to the server,
/// not six. Every statement still runs, in order, and is answered before anything is said about
/// it: a failure among them is thrown where they were sent, naming its own statement, and the
/// transaction rolls back as a whole (the server runs nothing more of a transaction that failed,
/// and `commit` refuses a COMMIT the server turned into a ROLLBACK).
extension PostgresConnection {
    /// Holds a statement until the next one is sent; sends what is held at once when it has
    /// grown past a megabyte of values (an attachment's pieces), so memory stays flat and the
    /// server is never left idle in the transaction while a large file is read.
    func hold(_ sql: String, _ parameters: [String?]) throws(StoreError) {
        held.append(HeldStatement(sql: sql, parameters: parameters))
        heldBytes += parameters.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        if heldBytes >= Self.heldBytesLimit { try sendHeld() }
    }

    static let heldBytesLimit = 1 << 20

    /// Forgets the statements held (the transaction they belong to is given up).
    func dropHeld() {
        held.removeAll()
        heldBytes = 0
    }

    /// Sends the statements held, in one trip; throws the first failure.
    func sendHeld() throws(StoreError) {
        if let result = try pipeline(nil) { PQclear(result) }
    }

    /// Sends the statements held and then `last`, in one trip; returns `last`'s result, which the
    /// caller clears.
    func sendHeld(then last: HeldStatement) throws(StoreError) -> OpaquePointer {
        guard let result = try pipeline(last) else { throw StoreError("the PostgreSQL server \(name) gave no answer", sql: last.sql) }
        return result
    }

    /// Commits, with the statements held, and makes sure the server did: a COMMIT of a
    /// transaction that had failed is answered "ROLLBACK" without an error, and one with no
    /// transaction open (its BEGIN never reached the server) "COMMIT" with a warning.
    func commit() throws(StoreError) {
        let rolledBack = StoreError("the PostgreSQL server \(name) rolled the transaction back instead of committing it, after a statement of it failed; nothing of it was saved", sql: "COMMIT")
        guard PQstatus(handle) == CONNECTION_OK else { throw linkFailure(sql: "COMMIT") }
        guard held.contains(where: { $0.sql == "BEGIN" }) || PQtransactionStatus(handle) == PQTRANS_INTRANS else { throw rolledBack }
        let result = try execute("COMMIT", [])
        defer { PQclear(result) }
        guard String(cString: PQcmdStatus(result)) == "COMMIT" else { throw rolledBack }
    }

    /// The held statements and `last` through one pipeline. They stay held until they can all
    /// be sent (prepared, the pipeline entered); every result is then read, and the pipeline
    /// left, whatever happens. A failure of the link itself (a send, the sync, leaving the
    /// pipeline) is a lost connection: `reconnect` starts afresh.
    private func pipeline(_ last: HeldStatement?) throws(StoreError) -> OpaquePointer? {
        let statements = held + (last.map { [$0] } ?? [])
        var names: [String] = []
        for statement in statements { names.append(try preparedName(statement.sql)) }
        guard PQenterPipelineMode(handle) == 1 else { throw linkFailure(sql: statements.first?.sql ?? "") }
        dropHeld()
        var sent = 0
        while sent < statements.count, sendPrepared(names[sent], statements[sent].parameters) { sent += 1 }
        var firstFailure: StoreError? = sent < statements.count ? linkFailure(sql: statements[sent].sql) : nil
        // Without the sync the server would keep its answers back: nothing to wait for then.
        guard PQpipelineSync(handle) == 1 else {
            PQexitPipelineMode(handle)
            throw firstFailure ?? linkFailure(sql: statements.last?.sql ?? "")
        }
        var kept: OpaquePointer?
        for index in 0..<sent {
            while let result = PQgetResult(handle) {
                do throws(StoreError) { try check(result, sql: statements[index].sql) } catch { firstFailure = firstFailure ?? error }
                if index == statements.count - 1 && last != nil && kept == nil { kept = result } else { PQclear(result) }
            }
        }
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if PQexitPipelineMode(handle) != 1 { firstFailure = firstFailure ?? linkFailure(sql: statements.last?.sql ?? "") }
        if let firstFailure {
            PQclear(kept)
            throw firstFailure
        }
        return kept
    }

    private func sendPrepared(_ name: String, _ parameters: [String?]) -> Bool {
        Self.withCStrings(parameters) { pointers in
            PQsendQueryPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0) == 1
        }
    }

    /// What libpq says went wrong with the link itself, as a lost connection.
    private func linkFailure(sql: String) -> StoreError {
        PostgresFailure.error(String(cString: PQerrorMessage(handle)), state: nil, server: name, lost: true, sql: sql)
    }
}
#endif
