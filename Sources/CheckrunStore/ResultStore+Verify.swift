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

extension CheckResult {
    /// What a result says as evidence, without timestamps (which round through REAL columns):
    /// any edit of a verdict, outcome, count, time or note changes it.
    var evidenceSignature: String {
        var parts = [check, protocolHash, String(attempt), verdict?.rawValue ?? "-", blockedReason ?? "-", String(tally), notes ?? "-"]
        parts += outcomes.map { answer in answer.map { "\($0.verdict.rawValue)/\($0.value.map(String.init) ?? "-")/\($0.note ?? "-")" } ?? "-" }
        parts += counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }
        parts += stopwatch.map { "\($0.kind.rawValue)@\($0.at)/\($0.typedSeconds.map { String($0) } ?? "-")" }
        return parts.joined(separator: "\u{1F}")
    }
}

extension ResultStore {
    /// Recomputes every session's chain and compares the results tables with their records.
    /// Reads session by session, so memory stays flat.
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
            var expected = (sequence: 0, hash: session.digest)
            var latest: [UUID: Record] = [:]
            var recordCount = 0
            try forEachRecord(inSession: sessionID) { record in
                report.records += 1
                recordCount += 1
                if report.records % 10_000 == 0 { progress?(report.records) }
                if !record.isIntact {
                    report.problems.append(VerificationProblem(session: sessionID, sequence: record.sequence,
                        message: "\(checkName(record)): its content was changed after it was recorded"))
                }
                if record.sequence > expected.sequence + 1 {
                    let missing = record.sequence == expected.sequence + 2 ? "record \(expected.sequence + 1) was" : "records \(expected.sequence + 1) to \(record.sequence - 1) were"
                    report.problems.append(VerificationProblem(session: sessionID, sequence: nil, message: "\(missing) deleted"))
                } else if record.previousHash != expected.hash {
                    let what = expected.sequence == 0
                        ? "the session's details (release, build, device, tester or plan) were changed after recording"
                        : "record \(expected.sequence) was changed or replaced after this one was chained to it"
                    report.problems.append(VerificationProblem(session: sessionID, sequence: record.sequence, message: what))
                }
                expected = (record.sequence, record.hash)
                latest[record.resultID] = record
            }
            // A walk that has had no answer yet has no records, and is unfinished; a finished
            // session without one was added, or emptied, behind checkrun's back.
            if recordCount == 0 && session.finishedAt != nil {
                report.problems.append(VerificationProblem(session: sessionID, sequence: nil,
                    message: "the session is marked finished but has no records: it was added or emptied behind checkrun's back"))
            }
            let tables = try results(inSession: sessionID)
            for result in tables {
                guard let record = latest[result.id] else {
                    report.problems.append(VerificationProblem(session: sessionID, sequence: nil,
                        message: "result \(result.id.lowercasedText.prefix(8)) (\(result.check)) is in the results table but was never recorded"))
                    continue
                }
                guard let recorded = CheckResult.decoding(payload: record.payload, sessionID: sessionID) else { continue }
                var shown = result
                while shown.outcomes.count < recorded.outcomes.count { shown.outcomes.append(nil) }
                if shown.evidenceSignature != recorded.evidenceSignature {
                    report.problems.append(VerificationProblem(session: sessionID, sequence: record.sequence,
                        message: "\(result.check): the results table differs from the record (\(difference(recorded, shown))); it was edited behind checkrun's back"))
                }
            }
            let present = Set(tables.map(\.id))
            for (id, record) in latest where !present.contains(id) {
                report.problems.append(VerificationProblem(session: sessionID, sequence: record.sequence,
                    message: "\(checkName(record)): the result was deleted from the results table"))
            }
        }
        let orphans = try database.query("SELECT DISTINCT session_id FROM records WHERE session_id NOT IN (SELECT id FROM sessions)") { $0.string(0) }
        for case let orphan? in orphans {
            report.problems.append(VerificationProblem(session: UUID(uuidString: orphan) ?? UUID(), sequence: nil, message: "the session was deleted, but its records remain"))
        }
        report.problems.sort { ($0.session.storageText, $0.sequence ?? 0) < ($1.session.storageText, $1.sequence ?? 0) }
        return report
    }

    private func checkName(_ record: Record) -> String {
        (try? JSONParser.parse(record.payload))?["check"]?.stringValue ?? "a result"
    }

    private func difference(_ recorded: CheckResult, _ shown: CheckResult) -> String {
        if recorded.verdict != shown.verdict { return "verdict \(recorded.verdict?.rawValue ?? "none") recorded, \(shown.verdict?.rawValue ?? "none") in the table" }
        if recorded.notes != shown.notes { return "the notes differ" }
        if recorded.outcomes != shown.outcomes { return "an expected outcome differs" }
        if recorded.counters.mapValues(\.value) != shown.counters.mapValues(\.value) { return "a counter differs" }
        if recorded.activeSeconds != shown.activeSeconds { return "the time differs" }
        return "a field differs"
    }
}
