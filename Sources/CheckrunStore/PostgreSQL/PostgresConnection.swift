#if PostgreSQL
import CLibPQ
import CheckrunModel
import Foundation

/// One connection to a PostgreSQL server through libpq, for the team store: parameters are
/// always bound (`PQexecParams`), and every error names the server by its address with any
/// password masked. Connection settings (TLS, `.pgpass`, `PG*` variables) are libpq's own.
package final class PostgresConnection {
    private var handle: OpaquePointer?
    /// The address as messages show it: no password.
    package let name: String

    package init(uri: String) throws(StoreError) {
        name = ServerAddressText.masked(uri)
        let connection = PQconnectdb(uri)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            PQfinish(connection)
            throw StoreError(Self.explainConnectionFailure(message, name: ServerAddressText.masked(uri)))
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// The server's version as a number, e.g. 150018 for 15.18.
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// Runs one statement with text parameters ($1, $2 …; nil is NULL) and returns its rows,
    /// each column as text or nil.
    @discardableResult
    package func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        let result = Self.withCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = result.map { String(cString: PQresultErrorMessage($0)) } ?? String(cString: PQerrorMessage(handle))
            throw StoreError("the PostgreSQL server \(name) refused a statement: \(message.trimmingCharacters(in: .whitespacesAndNewlines))", sql: sql)
        }
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
    }

    private static func withCStrings<T>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
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
