import CheckrunModel
import Foundation

extension ResultStore {
    /// Ids checkrun did not write: every id checkrun stores is 36 characters in upper case, so
    /// another spelling of an id (a lower-case copy of a session, say) was added by hand, and
    /// would slip past checks that read ids as UUIDs, which ignore case.
    static let idColumns: [(table: String, column: String)] = [
        ("sessions", "id"), ("results", "id"), ("results", "session_id"), ("records", "session_id"), ("records", "result_id"),
        ("outcome_answers", "result_id"), ("counter_values", "result_id"), ("stopwatch_events", "result_id"),
    ]

    /// Problems for every id not in checkrun's own form, in the whole database or one release.
    func idFormProblems(release: String? = nil) throws -> [String] {
        var problems: [String] = []
        // For one release (a report's check), the rows a report reads: its sessions and results.
        let columns = release == nil ? Self.idColumns : [("sessions", "id"), ("results", "id"), ("results", "session_id")]
        for (table, column) in columns {
            let scope = release == nil ? "" : Self.releaseScope(table)
            let sql = "SELECT \(column) FROM \(table) WHERE (\(column) <> upper(\(column)) OR length(\(column)) <> 36)\(scope) LIMIT 5"
            try database.forEach(sql, release.map { [.text($0)] } ?? []) { row in
                problems.append("\(table).\(column) holds \(DisplayText.preview(row.string(0) ?? "", limit: 40)), an id checkrun did not write: it was added behind checkrun's back")
            }
        }
        return problems
    }

    private static func releaseScope(_ table: String) -> String {
        switch table {
        case "sessions": return " AND release = ?1"
        default: return " AND session_id IN (SELECT id FROM sessions WHERE release = ?1)"
        }
    }
}
