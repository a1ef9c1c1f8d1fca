import CheckrunModel
import Foundation

extension ResultStore {
    /// Writes `result` over the tables' `previous` state of it: its row, and of its parts only
    /// the rows that differ. An answer changes one outcome or adds a stopwatch event; clearing
    /// and rewriting every part was most of what a server did for each answer.
    ///
    /// Only for a `previous` the tables are known to hold: the session's last record is this
    /// result with `previous`'s payload, checked in this transaction under the session's lock,
    /// and checkrun writes a record and its tables in one transaction.
    func writeProjection(_ result: CheckResult, over previous: CheckResult) throws {
        let id = SQLValue.text(result.id.storageText)
        try writeResultRow(result, id: id)
        for (now, before) in zip(PartRows.all(of: result, id: id), PartRows.all(of: previous, id: id)) {
            let (gone, fresh) = now.changes(since: before)
            if !gone.isEmpty && gone.count == before.rows.count {
                try database.run("DELETE FROM \(now.table) WHERE result_id = ?", [id])
            } else {
                for key in gone { try database.run("DELETE FROM \(now.table) WHERE result_id = ? AND \(now.keyColumn) = ?", [id, key]) }
            }
            try insertRows(now.table, now.columns, fresh, then: now.upsertClause)
        }
    }
}
