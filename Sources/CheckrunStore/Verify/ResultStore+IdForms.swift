import CheckrunModel
import Foundation

extension ResultStore {
    /// Ids checkrun did not write: every id checkrun stores is 36 characters in upper case, so
    /// another spelling of an id (a lower-case copy of a session, say) was added by hand, and
    /// would slip past checks that read ids as UUIDs, which ignore case. The ids of results and
    /// records are looked at where `verify` reads them, and their session ids are found with the
    /// deleted sessions' leftovers (no session has another spelling); these are the rest. The
    /// parts' places are looked at on the same pass: one that is not a whole number from 0 (or
    /// an outcome's beyond what a protocol can have) was written by hand, and reading leaves
    /// its row out.
    static let idChecks: [IdCheck] = [
        IdCheck("sessions", "id"),
        IdCheck("outcome_answers", "result_id", place: "position", below: outcomePositions),
        IdCheck("counter_values", "result_id"),
        IdCheck("stopwatch_events", "result_id", place: "sequence"),
        IdCheck("result_attachments", "result_id", place: "position"),
    ]

    struct IdCheck {
        var table: String
        var column: String
        var place: String?
        var below: Int?

        init(_ table: String, _ column: String, place: String? = nil, below: Int? = nil) {
            self.table = table
            self.column = column
            self.place = place
            self.below = below
        }

        /// Rows this check finds wrong, five at most. A server's columns are typed; SQLite's
        /// hold whatever was written, so there the place's type is asked too, and the id's
        /// spelling is checked by checkrun's own function (see `Database.defineFunctions`).
        func query(engine: StoreEngine) -> String {
            var wrong = engine == .sqlite
                ? ["NOT checkrun_is_id(\(column))"]
                : ["\(column) IS NULL", "\(column) <> upper(\(column))", "length(\(column)) <> 36"]
            if let place {
                if engine == .sqlite { wrong.append("typeof(\(place)) <> 'integer'") }
                wrong.append("\(place) < 0")
                if let below { wrong.append("\(place) >= \(below)") }
            }
            return "SELECT \(column), \(place ?? "NULL") FROM \(table) WHERE \(wrong.joined(separator: " OR ")) LIMIT 5"
        }
    }

    /// Problems for every id not in checkrun's own form: in the whole database, or among one
    /// release's sessions.
    func idFormProblems(release: String? = nil) throws -> [String] {
        var problems: [String] = []
        func note(_ place: String, _ value: String?) {
            problems.append("\(place) holds \(DisplayText.preview(value ?? "NULL", limit: 40)), an id checkrun did not write: it was added behind checkrun's back")
        }
        guard let release else {
            for check in Self.idChecks {
                try database.forEach(check.query(engine: database.engine)) { row in
                    let id = row.string(0)
                    if row.isStorageID(0) {
                        problems.append("\(check.table) holds a row of result \(DisplayText.preview(id ?? "", limit: 40)) at \(check.place ?? "") \(DisplayText.preview(row.string(1) ?? "NULL", limit: 40)), which checkrun never writes: it was added or changed behind checkrun's back")
                    } else {
                        note("\(check.table).\(check.column)", id)
                    }
                }
            }
            return problems
        }
        // For one release (a report's check), its sessions, found through the index: the
        // results of the sessions a report cites are read, and their ids checked, by the
        // verification beside it (see `verifyGroup`), so they are not read a second time here.
        try database.forEach("SELECT id FROM sessions WHERE release = ?1 AND (id <> upper(id) OR length(id) <> 36) LIMIT 5", [.text(release)]) {
            note("sessions.id", $0.string(0))
        }
        return problems
    }
}
