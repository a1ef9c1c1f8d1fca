import CheckrunModel
import Foundation

extension ResultStore {
    /// Ids checkrun did not write: every id checkrun stores is 36 characters in upper case, so
    /// another spelling of an id (a lower-case copy of a session, say) was added by hand, and
    /// would slip past checks that read ids as UUIDs, which ignore case.
    static let idColumns: [(table: String, column: String)] = [
        ("sessions", "id"), ("results", "id"), ("results", "session_id"), ("records", "session_id"), ("records", "result_id"),
        ("outcome_answers", "result_id"), ("counter_values", "result_id"), ("stopwatch_events", "result_id"), ("result_attachments", "result_id"),
    ]

    /// Problems for every id not in checkrun's own form, in the whole database or one release.
    func idFormProblems(release: String? = nil) throws -> [String] {
        var problems: [String] = []
        func note(_ place: String, _ value: String?) {
            problems.append("\(place) holds \(DisplayText.preview(value ?? "", limit: 40)), an id checkrun did not write: it was added behind checkrun's back")
        }
        guard let release else {
            for (table, column) in Self.idColumns {
                try database.forEach("SELECT \(column) FROM \(table) WHERE \(column) <> upper(\(column)) OR length(\(column)) <> 36 LIMIT 5") {
                    note("\(table).\(column)", $0.string(0))
                }
            }
            return problems
        }
        // For one release (a report's check): its sessions and their results, found through the
        // indexes, since a report must stay fast on a large database.
        try database.forEach("SELECT id FROM sessions WHERE release = ?1 AND (id <> upper(id) OR length(id) <> 36) LIMIT 5", [.text(release)]) {
            note("sessions.id", $0.string(0))
        }
        let results = database.engine == .sqlite
            ? """
            SELECT r.id FROM sessions s JOIN results r ON r.session_id = s.id
            WHERE s.release = ?1 AND (r.id <> upper(r.id) OR length(r.id) <> 36 OR r.session_id <> upper(r.session_id)) LIMIT 5
            """
            : PostgresStatements.releaseResultIdForms
        try database.forEach(results, [.text(release)]) { note("results.id", $0.string(0)) }
        return problems
    }
}
