import CheckrunModel
import Foundation

/// Each session with how far it got, for `sessions` and for `run`'s offer to resume.
extension ResultStore {
    /// The sessions of this release, build and device whose plan is not done yet, oldest first.
    package func unfinishedSessions(release: String, build: String, device: String) throws -> [SessionSummary] {
        var found: [SessionSummary] = []
        try forEachSessionSummary(release: release) { summary in
            if summary.session.build == build && summary.session.device == device && !summary.isComplete { found.append(summary) }
        }
        return found
    }

    /// A session with how far it got, every verdict counted (of each check's latest attempt in
    /// the session). Whether it is complete is derived from its results, which `verify`
    /// compares with the records, not read from a column anyone could edit.
    package struct SessionSummary: Sendable {
        package var session: Session
        package var completed: Int
        package var passed = 0
        /// Passed with every answered outcome not applicable: counted apart, as reports do.
        package var notApplicable = 0
        package var failed: Int
        package var blocked = 0
        package var skipped = 0
        /// When the last result of a complete session was answered.
        package var lastAnswer: Date?

        package var isComplete: Bool { !session.plan.isEmpty && completed >= session.plan.count }

        /// Counts a result skipped or blocked as failed: it holds a count over its ceiling,
        /// which the protocol judges (see `setAsideCounts`).
        mutating func countAsFailed(_ verdict: Verdict) {
            if verdict == .skipped && skipped > 0 {
                skipped -= 1
                failed += 1
            } else if verdict == .blocked && blocked > 0 {
                blocked -= 1
                failed += 1
            }
        }
    }

    package func sessionSummaries(release: String? = nil) throws -> [SessionSummary] {
        var summaries: [SessionSummary] = []
        try forEachSessionSummary(release: release) { summaries.append($0) }
        return summaries
    }

    /// Sessions with their progress, oldest first, one at a time: memory stays flat.
    /// `failedSetAside` names, by session, the verdicts of skipped or blocked results the
    /// caller judged failed by their protocols (a count over its ceiling): they count as failed.
    package func forEachSessionSummary(release: String? = nil, failedSetAside: [UUID: [Verdict]] = [:],
                                       _ body: (SessionSummary) throws -> Void) throws {
        // Each check's latest attempt in a session: SQLite takes a row's other columns from the
        // row holding max(); PostgreSQL picks that row with DISTINCT ON. Only the release's.
        let scope = "verdict IS NOT NULL AND (?1 IS NULL OR session_id IN (SELECT id FROM sessions WHERE release = ?1))"
        let latest = database.engine == .sqlite
            ? "SELECT session_id, id, verdict, updated_at, max(attempt) FROM results WHERE \(scope) GROUP BY session_id, check_name"
            : "SELECT DISTINCT ON (session_id, check_name) session_id, id, verdict, updated_at FROM results WHERE \(scope) ORDER BY session_id, check_name, attempt DESC"
        // Each counted once, as reports count it: a pass made only of outcomes answered not
        // applicable (`passedOnlyAsNotApplicable`), a skip or block holding an outcome answered
        // fail as failed (a count over its ceiling is the protocol's to judge: `failedSetAside`).
        // One release's results are probed one by one (MATERIALIZED, or the probes ran once per
        // count); for every release the outcomes are read once, grouped: probes took `sessions`
        // at a million results on a server from 2 s to 6.5, grouping to 4.
        let probed = """
            CASE WHEN verdict = 'pass' AND NOT EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = latest.id AND o.verdict <> 'na')
                    AND EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = latest.id) THEN 'na'
                WHEN verdict IN ('skipped', 'blocked') AND EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = latest.id AND o.verdict = 'fail') THEN 'fail'
                ELSE verdict END
            """
        let grouped = """
            CASE WHEN verdict = 'pass' AND flagged.only_na = 1 THEN 'na' WHEN verdict IN ('skipped', 'blocked') AND flagged.failed = 1 THEN 'fail' ELSE verdict END
            """
        let counted = release != nil
            ? "WITH counted AS MATERIALIZED (SELECT session_id, updated_at, \(probed) AS counted FROM (\(latest)) AS latest)"
            : """
            WITH flagged AS (
                SELECT result_id, min(CASE WHEN verdict = 'na' THEN 1 ELSE 0 END) AS only_na, max(CASE WHEN verdict = 'fail' THEN 1 ELSE 0 END) AS failed
                FROM outcome_answers GROUP BY result_id
                HAVING min(CASE WHEN verdict = 'na' THEN 1 ELSE 0 END) = 1 OR max(CASE WHEN verdict = 'fail' THEN 1 ELSE 0 END) = 1),
            counted AS (SELECT latest.session_id, latest.updated_at, \(grouped) AS counted FROM (\(latest)) AS latest LEFT JOIN flagged ON flagged.result_id = latest.id)
            """
        let sql = """
            \(counted)
            SELECT \(Self.sessionColumns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                v.done, v.passed, v.failed, v.blocked, v.skipped, v.last, v.not_applicable
            FROM sessions s LEFT JOIN (
                SELECT session_id, count(*) AS done, count(CASE WHEN counted = 'pass' THEN 1 END) AS passed,
                    count(CASE WHEN counted = 'fail' THEN 1 END) AS failed, count(CASE WHEN counted = 'blocked' THEN 1 END) AS blocked,
                    count(CASE WHEN counted = 'skipped' THEN 1 END) AS skipped, max(updated_at) AS last,
                    count(CASE WHEN counted = 'na' THEN 1 END) AS not_applicable
                FROM counted GROUP BY session_id
            ) v ON v.session_id = s.id
            WHERE (?1 IS NULL OR s.release = ?1) ORDER BY s.started_at
            """
        try database.forEach(sql, [SQLValue(release)]) { row in
            if let session = Self.readSession(row) {
                var summary = SessionSummary(session: session, completed: row.int(9) ?? 0, passed: row.int(10) ?? 0, notApplicable: row.int(15) ?? 0,
                                             failed: row.int(11) ?? 0, blocked: row.int(12) ?? 0, skipped: row.int(13) ?? 0, lastAnswer: row.date(14))
                for verdict in failedSetAside[session.id] ?? [] { summary.countAsFailed(verdict) }
                try body(summary)
            }
        }
    }
}
