import CheckrunModel
import Foundation

/// A server's refusal in words a tester can act on, its SQLSTATE kept in the error.
enum PostgresFailure {
    static func error(_ message: String, state: String?, server: String, lost: Bool, sql: String?) -> StoreError {
        let said = DisplayText.neutralised(message.trimmingCharacters(in: .whitespacesAndNewlines))
        var error: StoreError
        if lost || state?.hasPrefix("08") == true {
            // A commit whose reply was lost may have landed: say so, so nobody runs it twice blind.
            error = StoreError("the connection to the PostgreSQL server \(server) was lost (\(said)); what was being written is either all there or not at all, so check (checkrun sessions) before running it again")
        } else if state == "55P03" || state == "40P01" {
            error = StoreError("the PostgreSQL store \(server) is busy: another checkrun is writing to it and did not finish in time; try again")
        } else if state == "53100" {
            error = StoreError("the PostgreSQL server \(server) has no room left on its disk; nothing was half-written")
        } else {
            error = StoreError("the PostgreSQL server \(server) refused a statement: \(said)")
        }
        error.sql = sql
        error.sqlState = state
        error.connectionLost = lost || state?.hasPrefix("08") == true
        error.serverSaid = said
        return error
    }
}
