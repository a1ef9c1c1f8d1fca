@testable import CheckrunStore
import CheckrunTestSupport

extension TestDatabase {
    /// Runs `sql` as someone holding the database would, on another connection: SQLite
    /// without checkrun's foreign-key checks (its default), PostgreSQL as a superuser with the
    /// constraint triggers switched off (the replica role).
    func tamper(_ sql: String) throws {
        switch engine {
        case .sqlite:
            let raw = try Database(path: address)
            try raw.execute(sql)
            raw.close()
        case .postgresql:
            let other = try ResultStore(path: address)
            try other.database.execute("SET session_replication_role = replica; " + sql)
            other.close()
        }
    }
}
