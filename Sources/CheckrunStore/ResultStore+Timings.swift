import CheckrunModel
import Foundation

/// The rows behind comparisons: every finished result of the builds compared, streamed.
extension ResultStore {
    /// Of the given result rows, those passed with every answered outcome not applicable: no
    /// evidence of a fix, so a comparison does not call a failure before them fixed. Asked only
    /// of the few results that would otherwise be called so. Their outcomes are read here and
    /// nowhere else in a comparison, which the verification beside it does not compare: so the
    /// results are read whole and compared with their latest records, in one snapshot, and
    /// what differs is returned with them for the comparison to state.
    package func passedOnlyAsNotApplicable(rows: [Int64]) throws -> (rows: Set<Int64>, problems: [VerificationProblem]) {
        guard !rows.isEmpty else { return ([], []) }
        let list = "[" + rows.map(String.init).joined(separator: ",") + "]"
        try database.beginSnapshot()
        do {
            var results: [CheckResult] = []
            var rowOf: [UUID: Int64] = [:]
            try database.forEach(
                "SELECT \(Self.resultColumns), r.rowid FROM results r WHERE r.rowid IN (SELECT CAST(value AS BIGINT) FROM json_each(?))",
                [.text(list)]) { row in
                guard let result = Self.readResult(row), let rowid = row.int(12) else { return }
                results.append(result)
                rowOf[result.id] = Int64(rowid)
            }
            try loadParts(of: &results)
            let problems = try shownResultProblems(results)
            try database.execute("COMMIT")
            return (Set(results.filter(\.passedOnlyAsNotApplicable).compactMap { rowOf[$0.id] }), problems)
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// A result's verdict as a comparison reads it: a skip or block holding an outcome answered
    /// fail is a failure, as the report counts it (a count over its ceiling is the protocol's to
    /// judge, which the store does not read). The probe runs for skipped and blocked rows only.
    static let standingVerdict = """
        CASE WHEN r.verdict IN ('skipped', 'blocked') AND EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = r.id AND o.verdict = 'fail')
        THEN 'fail' ELSE r.verdict END
        """

    /// A release and build, the unit a comparison compares.
    package struct BuildScope: Sendable, Hashable {
        package var release: String
        package var build: String

        package init(release: String, build: String) {
            self.release = release
            self.build = build
        }
    }

    /// One finished result for comparisons: which scope it belongs to, its verdict, active time,
    /// protocol hash and counters.
    package struct TimingRow: Sendable {
        package var check: String
        package var scope: Int
        package var device: String
        package var osVersion: String = ""
        package var verdict: Verdict
        package var activeSeconds: Double?
        package var protocolHash: String
        /// When the result was last answered (amendments aside), which decides the latest attempt.
        package var answeredAt: Double
        package var counters: [String: Int]
        /// The result's row, to ask more of the few results a comparison needs more of.
        package var row: Int64 = 0
        /// Recorded as skipped or blocked (whatever `verdict` stands for): its time and counts
        /// are those until it was set aside, no measure of the task.
        package var setAside = false
    }

    /// Streams the finished results of the given builds, ordered by check, then the time each
    /// was last answered.
    package func forEachTimingRow(scopes: [BuildScope], _ body: (TimingRow) throws -> Void) throws {
        guard !scopes.isEmpty else { return }
        // The scopes arrive as one JSON parameter and join through the sessions index; a CASE
        // with a branch per build cost more than the rest of the query at 50 builds.
        let sql = """
            WITH scopes (release, build, scope) AS (
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), key FROM json_each(?1))
            SELECT r.check_name, scopes.scope, \(Self.standingVerdict), r.active_seconds, r.protocol_hash, r.updated_at,
                (SELECT group_concat(c.counter || '=' || c.value, ',') FROM counter_values c WHERE c.result_id = r.id), s.device, r.rowid, s.os_version,
                r.verdict
            FROM scopes JOIN sessions s ON s.release = scopes.release AND s.build = scopes.build
            JOIN results r ON r.session_id = s.id
            WHERE r.verdict IS NOT NULL
            ORDER BY r.check_name, r.updated_at, r.attempt
            """
        let pairs = scopes.map { JSONValue.array([JSONNode(.string($0.release)), JSONNode(.string($0.build))]) }
        let values = [SQLValue.text(JSONWriter.compact(.array(pairs.map { JSONNode($0) })))]
        try database.forEach(database.engine == .sqlite ? sql : PostgresStatements.timingQuery, values) { row in
            guard let verdict = row.string(2).flatMap(Verdict.init(rawValue:)), let scope = row.int(1) else { return }
            var counters: [String: Int] = [:]
            for pair in (row.string(6) ?? "").split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let value = Int(parts[1]) { counters[String(parts[0])] = value }
            }
            try body(TimingRow(
                check: row.string(0) ?? "", scope: scope, device: row.string(7) ?? "", osVersion: row.string(9) ?? "", verdict: verdict,
                activeSeconds: row.double(3), protocolHash: row.string(4) ?? "", answeredAt: row.double(5) ?? 0, counters: counters,
                row: Int64(row.int(8) ?? 0), setAside: Verdict(rawValue: row.string(10) ?? "")?.isSetAside ?? false))
        }
    }
}
