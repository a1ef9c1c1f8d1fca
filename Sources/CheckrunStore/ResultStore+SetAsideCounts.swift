import CheckrunModel
import Foundation

/// The skipped and blocked results whose counts only a protocol can judge, for `sessions`.
extension ResultStore {
    /// A check's latest attempt in a session, skipped or blocked, holding counts and no outcome
    /// answered fail: a count over its ceiling makes it a failure, as reports count it, and the
    /// ceiling is the protocol's, which the store does not read.
    package struct SetAsideCounts: Sendable, Equatable {
        package var session: UUID
        package var check: String
        package var protocolHash: String
        package var verdict: Verdict
        package var counts: [String: Int]
    }

    /// The set-aside latest attempts holding counts, of one release or of all. A result is the
    /// latest of its check in its session when no finished attempt came after it: the same
    /// choice as `forEachSessionSummary`. Few results are skipped or blocked, so they are found
    /// first and each probed for a later attempt through the unique index.
    package func setAsideCounts(release: String?) throws -> [SetAsideCounts] {
        var found: [SetAsideCounts] = []
        // Rows come a counter at a time, each result's together.
        var lastResult: String?
        try database.forEach(
            """
            SELECT r.id, r.session_id, r.check_name, r.protocol_hash, r.verdict, c.counter, c.value
            FROM results r JOIN counter_values c ON c.result_id = r.id
            WHERE r.verdict IN ('skipped', 'blocked') AND (?1 IS NULL OR r.session_id IN (SELECT id FROM sessions WHERE release = ?1))
            AND NOT EXISTS (SELECT 1 FROM results x WHERE x.session_id = r.session_id AND x.check_name = r.check_name AND x.attempt > r.attempt AND x.verdict IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = r.id AND o.verdict = 'fail')
            ORDER BY r.id
            """, [SQLValue(release)]
        ) { row in
            // A value read only when stored as a number, as `loadParts` reads it.
            guard let session = row.string(1).flatMap(UUID.init(text:)), let verdict = row.string(4).flatMap(Verdict.init(rawValue:)),
                  let counter = row.string(5), let value = row.storedInteger(6) else { return }
            let result = row.string(0)
            if !found.isEmpty, lastResult == result {
                found[found.count - 1].counts[counter] = value
            } else {
                found.append(SetAsideCounts(session: session, check: row.string(2) ?? "", protocolHash: row.string(3) ?? "", verdict: verdict,
                                            counts: [counter: value]))
            }
            lastResult = result
        }
        return found
    }
}
