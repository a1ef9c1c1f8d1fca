import CheckrunModel
import Foundation

/// The skipped and blocked results whose counts only a protocol can judge.
extension ResultStore {
    /// A skipped or blocked result holding counts and no outcome answered fail: a count over its
    /// ceiling makes it a failure, as reports count it, and the ceiling is the protocol's, which
    /// the store does not read.
    package struct SetAsideCounts: Sendable, Equatable {
        package var result: UUID
        package var session: UUID
        package var check: String
        package var protocolHash: String
        package var verdict: Verdict
        package var counts: [String: Int]
    }

    /// The set-aside results holding counts, of one release or of all: every attempt (what a
    /// report judges, see `CountFailures`), or only each check's latest in its session (what
    /// `sessions` shows). A result is the latest of its check in its session when no finished
    /// attempt came after it: the same choice as `forEachSessionSummary`. Few results are
    /// skipped or blocked, so they are found first and each probed for a later attempt through
    /// the unique index.
    package func setAsideCounts(release: String?, latestInSessionOnly: Bool = true) throws -> [SetAsideCounts] {
        var found: [SetAsideCounts] = []
        // Rows come a counter at a time, each result's together.
        var lastResult: String?
        try database.forEach(Self.setAsideCountsStatement, [SQLValue(release), .integer(latestInSessionOnly ? 1 : 0)]) { row in
            // A value read only when stored as a number, as `loadParts` reads it.
            guard let id = row.string(0).flatMap(UUID.init(text:)), let session = row.string(1).flatMap(UUID.init(text:)), let verdict = row.string(4).flatMap(Verdict.init(rawValue:)),
                  let counter = row.string(5), let value = row.storedInteger(6) else { return }
            let result = row.string(0)
            if !found.isEmpty, lastResult == result {
                found[found.count - 1].counts[counter] = value
            } else {
                found.append(SetAsideCounts(result: id, session: session, check: row.string(2) ?? "", protocolHash: row.string(3) ?? "", verdict: verdict,
                                            counts: [counter: value]))
            }
            lastResult = result
        }
        return found
    }

    /// Found through `results_set_aside` (schema step 6), whose condition is this one's first.
    static let setAsideCountsStatement = """
        SELECT r.id, r.session_id, r.check_name, r.protocol_hash, r.verdict, c.counter, c.value
        FROM results r JOIN counter_values c ON c.result_id = r.id
        WHERE r.verdict IN ('skipped', 'blocked') AND (?1 IS NULL OR r.session_id IN (SELECT id FROM sessions WHERE release = ?1))
        AND (?2 = 0 OR NOT EXISTS (SELECT 1 FROM results x WHERE x.session_id = r.session_id AND x.check_name = r.check_name AND x.attempt > r.attempt AND x.verdict IS NOT NULL))
        AND NOT EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = r.id AND o.verdict = 'fail')
        ORDER BY r.id
        """
}

/// The skipped and blocked results that hold a count over its ceiling, as the protocols judge
/// them (from `ResultStore.setAsideCounts(release:latestInSessionOnly: false)`): each query that
/// chooses the failure standing behind a skip takes them beside results with an outcome
/// answered fail. The store cannot judge a ceiling, and without them a skip with 14 stops over
/// a ceiling of 10 stood for a failure in its own report line only: a later skip, or a report
/// of a later build, read it as no failure.
package struct CountFailures: Sendable, Equatable {
    package var results: Set<UUID>

    package init(_ results: Set<UUID>) { self.results = results }

    /// No such result: a release whose set-aside results hold no count over a ceiling.
    package static let none = CountFailures([])

    /// The ids as the statements take them: a JSON list, in order.
    var list: SQLValue {
        .idList(results.sorted { $0.storageText < $1.storageText })
    }
}
