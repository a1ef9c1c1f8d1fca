import CheckrunModel
import Foundation

/// Something changed or deleted behind checkrun's back.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    public var session: UUID
    public var sequence: Int?
    public var message: String

    public var description: String {
        "session \(session.lowercasedText.prefix(8))\(sequence.map { ", record \($0)" } ?? ""): \(message)"
    }
}

/// The outcome of `verify`.
public struct VerificationReport: Sendable {
    public var sessions = 0
    public var records = 0
    public var problems: [VerificationProblem] = []
    /// Problems of the file itself, from SQLite's own check.
    public var fileProblems: [String] = []

    /// Whether nothing at all was found.
    public var isClean: Bool { problems.isEmpty && fileProblems.isEmpty }
}

extension ResultStore {
    /// Asks SQLite whether the file is sound, recomputes every session's chain and compares
    /// every stored value of the results tables with the records. Reads session by session,
    /// so memory stays flat.
    public func verify(progress: ((Int) -> Void)? = nil) throws -> VerificationReport {
        var report = VerificationReport()
        // The file itself first: a damaged index can hide a result from one query and show it
        // to another, whatever the chains say.
        let soundness = try database.query("PRAGMA quick_check") { $0.string(0) ?? "" }
        if soundness != ["ok"] {
            report.fileProblems = soundness.prefix(5).map { "the file is damaged (SQLite: \($0))" }
        }
        let sessions = try database.query("SELECT id FROM sessions ORDER BY started_at") { $0.string(0).flatMap(UUID.init(uuidString:)) }
        for case let sessionID? in sessions {
            report.sessions += 1
            guard let session = try session(id: sessionID) else { continue }
            try verifySession(session, into: &report, progress: progress)
        }
        let orphans = try database.query("SELECT DISTINCT session_id FROM records WHERE session_id NOT IN (SELECT id FROM sessions)") { $0.string(0) }
        for case let orphan? in orphans {
            report.problems.append(VerificationProblem(session: UUID(uuidString: orphan) ?? UUID(), sequence: nil, message: "the session was deleted, but its records remain"))
        }
        report.problems.sort { ($0.session.storageText, $0.sequence ?? 0) < ($1.session.storageText, $1.sequence ?? 0) }
        return report
    }

    /// Verifies only the sessions given (those a report shows).
    public func verify(sessions ids: [UUID]) throws -> VerificationReport {
        var report = VerificationReport()
        for id in ids {
            report.sessions += 1
            guard let session = try session(id: id) else {
                report.problems.append(VerificationProblem(session: id, sequence: nil, message: "the session is gone"))
                continue
            }
            try verifySession(session, into: &report, progress: nil)
        }
        return report
    }

    private func verifySession(_ session: Session, into report: inout VerificationReport, progress: ((Int) -> Void)?) throws {
        var chain = ChainCheck(session: session)
        try forEachRecord(inSession: session.id) { record in
            report.records += 1
            if report.records % 10_000 == 0 { progress?(report.records) }
            chain.add(record)
        }
        report.problems += chain.problems
        if chain.count == 0 && session.finishedAt != nil {
            // A walk that has had no answer yet has no records, and is unfinished; a finished
            // session without one was added, or emptied, behind checkrun's back.
            report.problems.append(VerificationProblem(session: session.id, sequence: nil,
                message: "the session is marked finished but has no records: it was added or emptied behind checkrun's back"))
        }
        report.problems += try tableProblems(session.id, chain)
    }

    /// Compares what the results tables hold for a session with what its records say.
    private func tableProblems(_ sessionID: UUID, _ chain: ChainCheck) throws -> [VerificationProblem] {
        var problems: [VerificationProblem] = []
        func add(_ sequence: Int?, _ message: String) {
            problems.append(VerificationProblem(session: sessionID, sequence: sequence, message: message))
        }
        let edited = "it was edited behind checkrun's back"
        let stored = try storedColumns(sessionID)
        let tables = try results(inSession: sessionID)
        for result in tables {
            guard let record = chain.latest[result.id] else {
                add(nil, "result \(result.id.lowercasedText.prefix(8)) (\(result.check)) is in the results table but was never recorded")
                continue
            }
            if let difference = Self.difference(between: result, and: record, sessionID: sessionID) {
                add(record.sequence, "\(result.check): the results table differs from the record (\(difference)); \(edited)")
            }
            let columns = stored[result.id]
            let amended = chain.amendments[result.id] ?? (0, nil)
            if columns?.activeSeconds != result.activeSeconds {
                add(record.sequence, "\(result.check): the results table differs from the record (the active time differs); \(edited)")
            }
            if columns?.amendments != amended.count || columns?.amendReason != amended.reason {
                add(record.sequence, "\(result.check): the results table shows \(columns?.amendments ?? 0) amendments, the records \(amended.count); \(edited)")
            }
        }
        let present = Set(tables.map(\.id))
        for (id, record) in chain.latest where !present.contains(id) {
            add(record.sequence, "\(Self.checkName(record)): the result was deleted from the results table")
        }
        return problems
    }

    private struct StoredColumns {
        var activeSeconds: Double?
        var amendments: Int
        var amendReason: String?
    }

    /// The columns kept beside a result that its parts do not carry.
    private func storedColumns(_ sessionID: UUID) throws -> [UUID: StoredColumns] {
        var columns: [UUID: StoredColumns] = [:]
        try database.forEach("SELECT id, active_seconds, amendments, amend_reason FROM results WHERE session_id = ?", [.text(sessionID.storageText)]) { row in
            guard let id = row.string(0).flatMap(UUID.init(uuidString:)) else { return }
            columns[id] = StoredColumns(activeSeconds: row.double(1), amendments: row.int(2) ?? 0, amendReason: row.string(3))
        }
        return columns
    }

    /// Nil when the table's result gives exactly the record's payload; else what differs. The
    /// payload holds every field and time, so comparing its text compares all of them at once.
    static func difference(between shown: CheckResult, and record: Record, sessionID: UUID) -> String? {
        if shown.payload == record.payload { return nil }
        guard let recorded = CheckResult.decoding(payload: record.payload, sessionID: sessionID) else { return "the record cannot be read" }
        var padded = shown
        // Unanswered outcomes are not rows in the table: the record's count of them stands.
        while padded.outcomes.count < recorded.outcomes.count { padded.outcomes.append(nil) }
        // Equal in every field though not in text: written by another version of the writer.
        if padded.payload == record.payload || padded == recorded { return nil }
        if recorded.verdict != shown.verdict { return "verdict \(recorded.verdict?.rawValue ?? "none") recorded, \(shown.verdict?.rawValue ?? "none") in the table" }
        if recorded.notes != shown.notes { return "the notes differ" }
        if recorded.outcomes.map({ $0?.verdict }) != padded.outcomes.map({ $0?.verdict }) { return "an expected outcome differs" }
        if recorded.counters.mapValues(\.value) != shown.counters.mapValues(\.value) { return "a counter differs" }
        if recorded.activeSeconds != shown.activeSeconds { return "the time differs" }
        if recorded.updatedAt != shown.updatedAt { return "the time it was last answered differs, which decides the latest attempt" }
        if recorded.attempt != shown.attempt || recorded.check != shown.check { return "the check or attempt differs" }
        return "a field or the time of an answer differs"
    }

    static func checkName(_ record: Record) -> String {
        (try? JSONParser.parse(record.payload))?["check"]?.stringValue ?? "a result"
    }
}
