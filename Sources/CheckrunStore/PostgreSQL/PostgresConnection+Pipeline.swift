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
    /// Holds a statement until the next one is sent.
    func hold(_ sql: String, _ parameters: [String?]) {
        held.append(HeldStatement(sql: sql, parameters: parameters))
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
    /// transaction that had failed is answered "ROLLBACK" without an error.
    func commit() throws(StoreError) {
        let result = try execute("COMMIT", [])
        defer { PQclear(result) }
        guard String(cString: PQcmdStatus(result)) == "COMMIT" else {
            throw StoreError("the PostgreSQL server \(name) rolled the transaction back instead of committing it, after a statement of it failed; nothing of it was saved", sql: "COMMIT")
        }
    }

    /// The held statements and `last` through one pipeline. Every result is read (and the
    /// pipeline left) whatever happens, so the connection is ready for the next statement.
    private func pipeline(_ last: HeldStatement?) throws(StoreError) -> OpaquePointer? {
        let statements = held + (last.map { [$0] } ?? [])
        held.removeAll()
        var names: [String] = []
        for statement in statements { names.append(try preparedName(statement.sql)) }
        guard PQenterPipelineMode(handle) == 1 else { throw failure(sql: statements.first?.sql ?? "") }
        var sent = 0
        while sent < statements.count {
            let accepted = Self.withCStrings(statements[sent].parameters) { pointers in
                PQsendQueryPrepared(handle, names[sent], Int32(pointers.count), pointers, nil, nil, 0)
            }
            guard accepted == 1 else { break }
            sent += 1
        }
        var firstFailure: StoreError? = sent < statements.count ? failure(sql: statements[sent].sql) : nil
        let synced = PQpipelineSync(handle) == 1
        var kept: OpaquePointer?
        for index in 0..<sent {
            while let result = PQgetResult(handle) {
                do throws(StoreError) { try check(result, sql: statements[index].sql) } catch { firstFailure = firstFailure ?? error }
                if index == statements.count - 1 && last != nil && kept == nil { kept = result } else { PQclear(result) }
            }
        }
        while synced, let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        PQexitPipelineMode(handle)
        if let firstFailure {
            PQclear(kept)
            throw firstFailure
        }
        return kept
    }

    /// What libpq says went wrong with the connection itself.
    private func failure(sql: String) -> StoreError {
        PostgresFailure.error(String(cString: PQerrorMessage(handle)), state: nil, server: name, lost: PQstatus(handle) != CONNECTION_OK, sql: sql)
    }
}
#endif
