import CheckrunModel
import Foundation

/// Something changed or deleted behind checkrun's back.
package struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    package var session: UUID
    package var sequence: Int?
    package var message: String

    /// One line: a check name or label edited to hold a line break cannot begin another.
    package var description: String {
        "session \(session.lowercasedText.prefix(8))\(sequence.map { ", record \($0)" } ?? ""): \(DisplayText.neutralised(message))"
    }

    /// The order problems are listed in, whichever lane or check found them: by session, then
    /// record (a problem of no record first), so a run's output is the same every time.
    package static func listed(_ a: Self, before b: Self) -> Bool {
        (a.session.storageText, a.sequence ?? 0) < (b.session.storageText, b.sequence ?? 0)
    }

    /// A result in the results table with no record at all: added by hand.
    static func neverRecorded(_ result: CheckResult) -> String {
        "result \(result.id.lowercasedText.prefix(8)) (\(result.check)) is in the results table but was never recorded"
    }

    /// A record holding a result that contradicts itself or its check, which checkrun never writes.
    static func contradicts(_ check: String, _ contradictions: [String]) -> String {
        "\(check): the record contradicts itself or its check (\(contradictions.joined(separator: "; "))); checkrun never writes such a record, so it was forged"
    }

    /// A result whose table rows say something other than its latest record.
    static func tableDiffers(_ check: String, _ difference: String) -> String {
        "\(check): the results table differs from the record (\(difference)); it was edited behind checkrun's back"
    }
}

/// The outcome of `verify`.
package struct VerificationReport: Sendable {
    package var sessions = 0
    package var records = 0
    /// Stored attachments whose bytes were rehashed, and their total size.
    package var attachments = 0
    package var attachmentBytes = 0
    package var problems: [VerificationProblem] = []
    /// Every attachment a record names (gathered by the lanes, checked once at the end).
    var namedAttachments: [NamedAttachment] = []
    /// Problems of the file itself, from SQLite's own check.
    package var fileProblems: [String] = []

    /// Whether nothing at all was found.
    package var isClean: Bool { problems.isEmpty && fileProblems.isEmpty }
}

extension ResultStore {
    /// Asks SQLite whether the file is sound, recomputes every session's chain and compares
    /// every stored value of the results tables with the records. Reads session by session,
    /// so memory stays flat.
    package func verify(progress: ((Int) -> Void)? = nil) throws -> VerificationReport {
        var report = VerificationReport()
        // The file itself too: a damaged index can hide a result from one query and show it
        // to another, whatever the chains say. SQLite checks it on a connection of its own
        // while the chains are verified.
        let soundness = FileCheck.start(opener: opener)
        let sessions = try database.query("SELECT id FROM sessions ORDER BY started_at") { $0.string(0).flatMap(UUID.init(text:)) }.compactMap { $0 }
        let verified = try ParallelVerification.run(sessions, groupSize: 64, opener: opener, progress: progress) { store, group, report in
            try store.verifyGroup(group, into: &report)
        }
        report.sessions = verified.sessions
        report.records = verified.records
        report.problems = verified.problems
        let files = try soundness.value()
        report.fileProblems = files.problems
        report.attachments = files.attachments.count
        report.attachmentBytes = files.attachments.reduce(0) { $0 + $1.size }
        var whole = Dictionary(files.attachments.map { ($0.hash, $0.size) }, uniquingKeysWith: { first, _ in first })
        whole.merge(try rehashedNow(Set(verified.namedAttachments.map(\.hash)).subtracting(whole.keys).subtracting(files.changed))) { first, _ in first }
        report.problems += Self.missingAttachments(verified.namedAttachments, stored: whole)
        try forEachProtocolVersion { version in
            if let problem = Self.keptTextProblem(version.content, hash: version.hash, protocolID: version.protocolID) {
                report.fileProblems.append(problem)
            }
        }
        report.problems += files.deletedSessions
        report.problems.sort(by: VerificationProblem.listed)
        return report
    }

    /// Records and results whose session is gone: whole sessions deleted behind checkrun's back,
    /// or a session id written in another spelling (no session has one: see `idFormProblems`).
    /// A session row with a NULL id, added by hand, is left out of the list: it would make every
    /// `NOT IN` unknown and hide them all.
    func deletedSessionProblems() throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        func add(_ orphan: String, rows: String, deleted: String) {
            let id = UUID(text: orphan)
            let message = id?.storageText == orphan
                ? deleted
                : "\(rows) name the session \(DisplayText.preview(orphan, limit: 40)), an id checkrun did not write: they were added behind checkrun's back"
            problems.append(VerificationProblem(session: id ?? UUID(), sequence: nil, message: message))
        }
        // Each session id once (the key's index gives them in order), then looked up: not a
        // lookup per record.
        let server = database.engine == .postgresql
        let orphans = try database.query(server ? PostgresStatements.sessionsGone(of: "records") : Self.sessionsGone(of: "records")) { $0.string(0) }
        for case let orphan? in orphans {
            add(orphan, rows: "records", deleted: "the session was deleted, but its records remain")
        }
        // Results of a session that is gone: the session (and perhaps its records) was deleted.
        let leftBehind = try database.query(server ? PostgresStatements.sessionsGone(of: "results") : Self.sessionsGone(of: "results")) { $0.string(0) }
        for case let orphan? in leftBehind where !orphans.contains(orphan) {
            add(orphan, rows: "results", deleted: "the session was deleted behind checkrun's back, but its results remain")
        }
        return problems
    }

    /// The session ids of a table's rows (`records` or `results`, each keyed by its session
    /// first) that name no session.
    static func sessionsGone(of table: String) -> String {
        "SELECT session_id FROM (SELECT DISTINCT session_id FROM \(table)) AS d WHERE session_id NOT IN (SELECT id FROM sessions WHERE id IS NOT NULL)"
    }

    /// Verifies only the sessions given (those a report shows).
    package func verify(sessions ids: [UUID]) throws -> VerificationReport {
        try verifier().verify(sessions: ids)
    }

    /// A verifier that opens connections of its own, so it can run while this store is in use.
    package func verifier() -> SessionVerifier {
        SessionVerifier(opener: opener)
    }
}

/// Verifies sessions through connections of its own: safe to use on another thread.
package struct SessionVerifier: Sendable {
    let opener: StoreOpener

    /// `release` limits the check of id spellings to that release's rows; `depth` says how
    /// much of each result is compared with its record.
    package func verify(sessions ids: [UUID], release: String? = nil, depth: VerificationDepth = .everything) throws -> VerificationReport {
        // A session named twice (a comparison of a build with itself) is verified once: read
        // twice in a row, its chain would seem to start again.
        var seen = Set<UUID>()
        let ids = ids.filter { seen.insert($0).inserted }
        // Beside the chains: the ids of the release, and the sessions not cited (none moved
        // out of the scope or deleted from under its results).
        let cited = Set(ids)
        let beside = WorkBeside(opener: opener) { store in
            (forms: try store.idFormProblems(release: release), outside: try store.outsideSessionProblems(cited: cited))
        }
        // And records or results whose session was deleted from under them, on a server too:
        // its foreign keys can be dropped and put back NOT VALID, or passed by a superuser's
        // replication role. On a connection of its own, while the server has a core to spare.
        let gone = WorkBeside(opener: opener) { try $0.deletedSessionProblems() }
        let verified = Result {
            try ParallelVerification.run(ids, groupSize: 16, opener: opener, progress: nil) { store, group, report in
                try store.verifyGroup(group, depth: depth, into: &report)
            }
        }
        // Waited for whatever the chains gave: no thread is left talking to a server.
        let found = Result { try beside.value() }
        let deleted = Result { try gone.value() }
        var report = try verified.get()
        report.fileProblems += try found.get().forms
        report.problems += try found.get().outside + deleted.get()
        if !report.namedAttachments.isEmpty {
            let store = try opener.open()
            defer { store.database.finish() }
            // Every attachment the records name is there at its recorded size; its bytes are
            // rehashed by `verify` and whenever a file is written out, not here, so a report
            // stays fast however large the recordings.
            report.problems += ResultStore.missingAttachments(report.namedAttachments, stored: try store.storedSizes(of: report.namedAttachments))
        }
        report.problems.sort(by: VerificationProblem.listed)
        return report
    }
}

extension ResultStore {

    /// Compares what the results tables hold for a session with what its records say.
    func tableProblems(of chain: ChainCheck) -> [VerificationProblem] {
        let sessionID = chain.session.id
        let tables = chain.tables
        var problems: [VerificationProblem] = []
        func add(_ sequence: Int?, _ message: String) {
            problems.append(VerificationProblem(session: sessionID, sequence: sequence, message: message))
        }
        let edited = "it was edited behind checkrun's back"
        for (place, (result, columns)) in zip(tables.results, tables.stored).enumerated() {
            guard let latest = tables.latest[place] else {
                add(nil, VerificationProblem.neverRecorded(result))
                continue
            }
            var recordedActiveSeconds = latest.recordedActiveSeconds
            var recorded: CheckResult?
            if let payload = latest.differing {
                recorded = CheckResult.decoding(payload: payload, sessionID: sessionID)
                recordedActiveSeconds = recorded?.activeSeconds
                if let difference = Self.difference(between: result, andRecorded: payload, sessionID: sessionID, depth: tables.depth,
                                                    outcomesRead: columns.outcomesRead) {
                    add(latest.sequence, VerificationProblem.tableDiffers(result.check, difference))
                }
            }
            // The judge `merge` applies: a result that contradicts itself or its check is never
            // written, so its record was forged, hash and all. In full, the tables' result is the
            // record's. A kept text changed behind checkrun's back is named on its own.
            if let whole = recorded ?? (tables.depth == .everything ? result : nil) {
                let check = (try? keptCheck(named: whole.check, version: whole.protocolHash)) ?? nil
                let contradictions = Judgement.impossibilities(of: whole, against: check?.check)
                if !contradictions.isEmpty { add(latest.sequence, VerificationProblem.contradicts(whole.check, contradictions)) }
            }
            let amended = chain.amendments[result.id] ?? (0, nil)
            // In full, the tables' events (the same bytes as the record's); cited, the record's own.
            let activeSeconds = tables.depth == .everything ? result.activeSeconds : recordedActiveSeconds
            if columns.activeSeconds != activeSeconds {
                add(latest.sequence, VerificationProblem.tableDiffers(result.check, "the active time differs"))
            }
            if columns.amendments != amended.count {
                let shown = "\(columns.amendments) amendment\(columns.amendments == 1 ? "" : "s")"
                add(latest.sequence, "\(result.check): the results table shows \(shown), the records \(amended.count); \(edited)")
            } else if !Self.sameBytes(columns.amendReason, amended.reason) {
                add(latest.sequence, "\(result.check): the results table shows another reason for its amendment than the records; \(edited)")
            }
        }
        for only in tables.recordedOnly.values {
            add(only.sequence, "\(ChainCheck.checkName(only.payload)): the result was deleted from the results table")
        }
        return problems
    }

    /// Text compared byte for byte, as `difference` compares payloads.
    static func sameBytes(_ stored: String?, _ recorded: String?) -> Bool {
        switch (stored, recorded) {
        case (nil, nil): true
        case let (stored?, recorded?): stored.hasSameBytes(as: recorded)
        default: false
        }
    }

    struct StoredColumns {
        var activeSeconds: Double?
        var amendments: Int
        var amendReason: String?
        /// At `.cited` depth, whether the result's outcomes were read (a skip or block's), and
        /// so are compared with its record.
        var outcomesRead = false
    }

    /// What differs between the table's result and a record whose payload is not, byte for
    /// byte, the one the tables give (`SessionTables` compares the bytes, since Swift's `==`
    /// on strings would take "é" and "e" with a combining accent for the same text); nil when
    /// the two hold the same fields all the same (a shorter list of outcomes in the tables, or
    /// another version of the writer).
    static func difference(between shown: CheckResult, andRecorded payload: String, sessionID: UUID,
                           depth: VerificationDepth = .everything, outcomesRead: Bool = false) -> String? {
        let recorded: CheckResult
        do { recorded = try CheckResult.decode(payload: payload, sessionID: sessionID) } catch { return "the record cannot be read: \(error)" }
        var padded = shown
        // Unanswered outcomes are not rows in the table: the record's count of them stands.
        while padded.outcomes.count < recorded.outcomes.count { padded.outcomes.append(nil) }
        if depth == .cited {
            // The parts not read at this depth are taken as the record has them.
            if !outcomesRead { padded.outcomes = recorded.outcomes }
            padded.stopwatch = recorded.stopwatch
            padded.attachments = recorded.attachments
        }
        // Equal in every field though not in text: written by another version of the writer.
        if padded.payload.hasSameBytes(as: payload) || padded.payload.hasSameBytes(as: recorded.payload) { return nil }
        if recorded.verdict != shown.verdict { return "verdict \(recorded.verdict?.rawValue ?? "none") recorded, \(shown.verdict?.rawValue ?? "none") in the table" }
        if recorded.notes != shown.notes { return "the notes differ" }
        if recorded.outcomes.map({ $0?.verdict }) != padded.outcomes.map({ $0?.verdict }) { return "an expected outcome differs" }
        if recorded.counters.mapValues(\.value) != shown.counters.mapValues(\.value) { return "a counter differs" }
        if recorded.activeSeconds != padded.activeSeconds { return "the time differs" }
        if recorded.updatedAt != shown.updatedAt { return "the time it was last answered differs, which decides the latest attempt" }
        if recorded.attempt != shown.attempt || recorded.check != shown.check { return "the check or attempt differs" }
        return "a field or the time of an answer differs (perhaps the same letters written with other bytes)"
    }
}
