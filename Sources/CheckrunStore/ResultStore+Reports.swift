import CheckrunModel
import Foundation

/// One result as reports see it: the result with its session's context.
package struct ReportedResult: Sendable, Equatable {
    package var result: CheckResult
    package var release: String
    package var build: String
    package var device: String
    /// The OS version its session named ("" when none). A device on two OS versions is two
    /// places a check is tested: a pass on one says nothing of the other, so neither hides
    /// the other's result.
    package var osVersion: String = ""
    package var tester: String
    /// How many finished results this check has on this device in this result's build:
    /// attempts are numbered per build, so the count is too.
    package var attempts: Int
    /// How many times the result was corrected with `amend`, and the latest reason.
    package var amendments: Int = 0
    package var amendReason: String?
    /// The check as the result was answered, when its protocol has changed since: answers to
    /// expected outcomes are kept by position, so they read against the text they were given to.
    /// Nil when the current text is that text (or the database keeps no other).
    package var answeredCheck: Check?
    /// Answered against another version of its protocol that the database does not keep: the
    /// current text is shown, and may not be the text the answers were given to.
    package var answeredUnkeptVersion = false
    /// For a result skipped or blocked: the failure before it that no pass has followed, in
    /// its build or an earlier one, or in the result itself. A skip is no evidence of a fix,
    /// so the failure stands.
    package var failedEarlier: EarlierFailure?

    /// The verdict the result stands for in the release: fail while a failure stands behind a
    /// skip or block, else its own.
    package var standing: Verdict? { failedEarlier == nil ? result.verdict : .fail }

    /// Where the result was tested, as reports name it: the device, then its OS version when
    /// the session named one ("iPhone 15, OS 18.2"); "" when neither is known.
    package var testedOn: String { TestedOn.name(device: device, osVersion: osVersion) }

    /// The check, device and OS version: what a latest result is the latest of.
    package var place: TestedOn.Place { TestedOn.Place(check: result.check, device: device, osVersion: osVersion) }

    /// A failure that a later skip or block has not shown fixed: in an earlier result, or in
    /// the skipped or blocked result itself (an expected outcome answered fail, or a count over
    /// its ceiling, before it was set aside).
    package struct EarlierFailure: Sendable, Equatable {
        package var build: String
        package var attempt: Int
        package var notes: String?
        /// The failure is in the shown result itself.
        package var isThisResult = false
        /// Where it failed, when that is another OS version of the device than the shown
        /// result's (see `noteEarlierFailures`); nil on the same one.
        package var elsewhere: String?
        /// The protocol version the failure was answered against: its WCAG criteria are the
        /// ones the failure counts against (see `ReleaseReport.entriesAsAnswered`).
        package var protocolHash: String?

        package init(build: String, attempt: Int, notes: String?, isThisResult: Bool = false, elsewhere: String? = nil, protocolHash: String? = nil) {
            self.build = build
            self.attempt = attempt
            self.notes = notes
            self.isThisResult = isThisResult
            self.elsewhere = elsewhere
            self.protocolHash = protocolHash
        }
    }

    package init(result: CheckResult, release: String, build: String, device: String, osVersion: String = "", tester: String, attempts: Int,
                amendments: Int = 0, amendReason: String? = nil) {
        self.result = result
        self.release = release
        self.build = build
        self.device = device
        self.osVersion = osVersion
        self.tester = tester
        self.attempts = attempts
        self.amendments = amendments
        self.amendReason = amendReason
    }
}

/// The queries behind reports and comparisons. Aggregation happens in SQL and rows stream
/// out one at a time, so memory stays flat however large the database grows.
extension ResultStore {
    /// The releases in the database, oldest first, ordered by their labels as builds are
    /// (`BuildOrder`): the newest is last whichever was tested last (a hotfix of 2.9.1 begun
    /// after 2.10 is still older).
    package func releases() throws -> [String] {
        BuildOrder.sorted(try database.query("SELECT release, min(started_at) FROM sessions GROUP BY release") {
            (label: $0.string(0) ?? "", firstSeen: $0.double(1) ?? 0)
        })
    }

    /// Refuses a release the database does not know, naming the closest and the known ones.
    package func requireRelease(_ release: String) throws(StoreError) {
        // The usual case is one index lookup; listing every release reads every session.
        let exists: Bool
        do { exists = try database.scalarInt("SELECT 1 FROM sessions WHERE release = ? LIMIT 1", [.text(release)]) != nil } catch {
            throw StoreError("cannot read the releases: \(error)")
        }
        if exists { return }
        let known: [String]
        do { known = try releases() } catch { throw StoreError("cannot read the releases: \(error)") }
        guard known.contains(release) else {
            let hint = Suggestions.closest(to: release, among: known).first.map { " Did you mean \"\($0)\"?" } ?? ""
            throw StoreError("no release \"\(release)\" in the database.\(hint) Known releases: \(known.isEmpty ? "none yet" : known.joined(separator: ", "))")
        }
    }

    /// The checks the release has results for, sorted.
    package func checkNames(release: String) throws -> [String] {
        try database.query(
            "SELECT DISTINCT r.check_name FROM results r JOIN sessions s ON s.id = r.session_id WHERE s.release = ? ORDER BY r.check_name",
            [.text(release)]) { $0.string(0) ?? "" }
    }

    /// Refuses a build the release does not have, listing its builds.
    package func requireBuild(_ build: String, of release: String) throws(StoreError) {
        let known: [String]
        do { known = try builds(release: release) } catch { throw StoreError("cannot read the builds: \(error)") }
        guard known.contains(build) else {
            throw StoreError("release \(release) has no build \"\(build)\". Its builds: \(known.joined(separator: ", "))")
        }
    }

    /// The builds of a release in build order (see `BuildOrder`), oldest first.
    package func builds(release: String) throws -> [String] {
        let seen = try database.query("SELECT build, min(started_at) FROM sessions WHERE release = ? GROUP BY build", [.text(release)]) {
            (label: $0.string(0) ?? "", firstSeen: $0.double(1) ?? 0)
        }
        return BuildOrder.sorted(seen)
    }

    /// The distinct testers and devices of a release (or one build), sorted: only of sessions
    /// with at least one record, so a session row added by hand names no one in a report.
    package func participants(release: String, build: String?) throws -> (testers: [String], devices: [String]) {
        let testers = try database.query(
            "SELECT DISTINCT tester FROM sessions s WHERE release = ?1 AND (?2 IS NULL OR build = ?2) AND tester <> '' AND EXISTS (SELECT 1 FROM records r WHERE r.session_id = s.id) ORDER BY tester",
            [.text(release), SQLValue(build)]) { $0.string(0) ?? "" }
        let devices = try database.query(
            "SELECT DISTINCT device FROM sessions s WHERE release = ?1 AND (?2 IS NULL OR build = ?2) AND EXISTS (SELECT 1 FROM records r WHERE r.session_id = s.id) ORDER BY device",
            [.text(release), SQLValue(build)]) { $0.string(0) ?? "" }
        return (testers, devices)
    }

    /// The query behind every report: for each check, device and OS version (see `TestedOn`),
    /// the latest finished result of release ?1 (and build ?2, or every build when NULL), with
    /// how many results it had. The latest is the latest attempt in the newest build: ?3 ranks the builds in build order
    /// (a JSON list of labels, oldest first), so a build tested late never counts as newer.
    /// Public so the benchmark can time exactly this statement in the sqlite3 shell.
    ///
    /// Two passes of GROUP BY, not a window: SQLite takes the row's other columns from the row
    /// holding the max(), and windows sorted the whole release three to four times slower.
    /// Within the newest build the key orders by the time each attempt was last answered, to the
    /// microsecond, then by attempt: the latest observation counts (a tester who began first and
    /// answered a failure last is not outdone by a pass begun later). An amendment is not an
    /// answer and leaves that time as it was, so correcting an older attempt never makes it
    /// the latest.
    package static let latestResultQuery = latestResultStatement(among: .finished)

    /// Which results the latest is chosen among: every finished one (the report's), or only
    /// those that passed or failed (the result a skip or block stands in front of).
    enum LatestAmong: String {
        case finished = "r.verdict IS NOT NULL"
        /// Passed or failed, or finished as skipped or blocked holding a failure: an outcome
        /// answered fail, or a count over its ceiling (the results ?4 lists, a JSON list of ids
        /// the caller judged: see `CountFailures`). For the failure behind a skip. An unfinished
        /// attempt is never among them.
        case passedOrFailed = "(r.verdict IN ('pass', 'fail') OR r.verdict IN ('skipped', 'blocked') AND (EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = r.id AND o.verdict = 'fail') OR r.id IN (SELECT value FROM json_each(?4))))"
    }

    /// `latestResultQuery`, the latest chosen among `among`.
    static func latestResultStatement(among: LatestAmong) -> String {
        """
        WITH ranks (build, rank) AS (SELECT value, key FROM json_each(?3)),
        scoped AS (
            SELECT r.rowid AS row, r.check_name AS check_name, s.device AS device, s.os_version AS os, ranks.rank AS rank,
                CAST(r.updated_at * 1000000 AS INTEGER) * 1024 + min(r.attempt, 1023) AS key
            FROM results r JOIN sessions s ON s.id = r.session_id JOIN ranks ON ranks.build = s.build
            WHERE s.release = ?1 AND (?2 IS NULL OR s.build = ?2) AND \(among.rawValue)
        ),
        newest AS (SELECT check_name, device, os, max(rank) AS rank FROM scoped GROUP BY check_name, device, os),
        latest AS (
            SELECT scoped.row AS row, max(scoped.key), count(*) AS attempts
            FROM scoped JOIN newest ON newest.check_name = scoped.check_name AND newest.device = scoped.device AND newest.os = scoped.os
                AND newest.rank = scoped.rank
            GROUP BY scoped.check_name, scoped.device, scoped.os
        )
        SELECT \(resultColumns), s.release, s.build, s.device, s.tester, latest.attempts, r.amendments, r.amend_reason, s.os_version
        FROM latest JOIN results r ON r.rowid = latest.row JOIN sessions s ON s.id = r.session_id
        ORDER BY r.check_name, s.device, s.os_version
        """
    }

    /// The latest-result statement in this store's engine's spelling.
    func latestResultStatement(among: LatestAmong) -> String {
        database.engine == .sqlite ? Self.latestResultStatement(among: among) : PostgresStatements.latestResultQuery(Self.resultColumns, among: among.rawValue)
    }

    /// `latestResultQuery` as a server runs it ($1, $2, $3), for the benchmark's psql floor.
    package static var serverLatestResultQuery: String {
        PostgresSpelling.translate(PostgresStatements.latestResultQuery(resultColumns, among: LatestAmong.finished.rawValue))
    }

    /// Refreshes the planner's statistics (a server's ANALYZE; SQLite's are kept at close).
    package func analyse() throws {
        if database.engine == .postgresql { try database.execute("ANALYZE") }
    }

    /// For each check and device, the latest finished result in the release (or in one build),
    /// with the number of finished attempts in its build (attempts are numbered per build),
    /// handed to `body` one at a time. Returns what differs between those results, parts and
    /// all, and their latest records (see `shownResultProblems`); a report states it beside
    /// what its cited verification finds.
    @discardableResult
    package func forEachLatestResult(release: String, build: String?, countFailures: () throws -> CountFailures,
                                     _ body: (ReportedResult) throws -> Void) throws -> [VerificationProblem] {
        // The latest set is bounded by the release's checks and devices, not by the database:
        // gather it, then load every part in a query per table instead of one per result.
        var latest: [ReportedResult] = []
        let ordered = try builds(release: release)
        let ranks = SQLValue.textList(ordered)
        // One snapshot for the choice, the parts and the records they are compared with.
        try database.beginSnapshot()
        var results: [CheckResult] = []
        let problems: [VerificationProblem]
        do {
            try database.forEach(latestResultStatement(among: .finished), [.text(release), SQLValue(build), ranks]) { row in
                if let reported = Self.readReported(row) { latest.append(reported) }
            }
            // Every build up to the one reported on: a failure in an earlier build stands
            // behind a skip in this one, and where this one did not test at all.
            let earlier = SQLValue.textList(BuildOrder.through(build, in: ordered))
            // Carried first: a skip beside a failure the report shows on a row of its own,
            // carried from an earlier build too, does not count that failure again.
            if build != nil {
                try carryEarlierFailures(into: &latest, release: release, through: earlier, countFailures: countFailures, buildOrder: ordered)
            }
            if latest.contains(where: { $0.result.verdict?.isSetAside == true }) {
                try noteEarlierFailures(of: &latest, [.text(release), .null, earlier, try countFailures().list], buildOrder: ordered)
            }
            results = latest.map(\.result)
            try loadParts(of: &results)
            problems = try shownResultProblems(results)
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        for (position, result) in results.enumerated() {
            latest[position].result = result
            try body(latest[position])
        }
        return problems
    }
}
