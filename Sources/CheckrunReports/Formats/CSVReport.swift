import CheckrunModel
import CheckrunStore

/// One row per result (the latest per check and device), RFC 4180, formula injection neutralised.
enum CSVReport {
    static let header = ["release", "build", "device", "tester", "protocol", "check", "profile", "verdict", "blocked_reason",
                         "attempt", "attempts", "active_seconds", "counters", "outcomes", "notes", "protocol_hash", "protocol_changed", "updated_at", "amendments", "amend_reason",
                         "outcome_notes", "product", "criteria", "attachments", "failed_earlier", "counted_as", "os_version", "over_time_limit"]

    static func render(_ report: ReleaseReport) -> String {
        var lines = [header.joined(separator: ",")]
        let current = Dictionary(report.protocols.map { ($0.id, $0.contentHash) }, uniquingKeysWith: { a, _ in a })
        let terms = Dictionary(report.criteria.map { ($0.criterion.number, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = report.checks.flatMap { entry in entry.results.map { ($0, Optional(entry.reference)) } } + report.removed.map { ($0, nil as CheckReference?) }
        for (reported, reference) in rows {
            let result = reported.result
            let protocolID = String(result.check.split(separator: "/").first ?? "")
            let outcomes = ReportPhrases.answers(result, reported.answeredCheck ?? reference?.check).enumerated().map { "\($0.offset + 1)=\($0.element?.verdict.rawValue ?? "")" }.joined(separator: ";")
            let counters = result.counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }.joined(separator: ";")
            let changed = reference == nil ? "removed" : (current[protocolID] == result.protocolHash ? "no" : "yes")
            let fields: [(String, Bool)] = [
                (reported.release, false), (reported.build, false), (reported.device, false), (reported.tester, false),
                (protocolID, false), (result.check, false), ((reference?.check ?? reported.answeredCheck)?.profile ?? "", false), (result.verdict?.rawValue ?? "", false),
                (result.blockedReason ?? "", false), (String(result.attempt), true), (String(reported.attempts), true),
                (activeSeconds(result, reported.answeredCheck ?? reference?.check), true), (counters, false), (outcomes, false),
                (result.notes ?? "", false), (result.protocolHash, false), (changed, false), (ReportPhrases.timestamp(result.updatedAt), false),
                (String(reported.amendments), true), (reported.amendReason ?? "", false),
                (outcomeNotes(result), false), (report.product ?? "", false), (criteria(reference, terms, asAnswered: report.criteriaAsAnswered[result.id] ?? []), false),
                (attachments(report, reported), false),
                // A skip or block behind which a failure stands: the row's check counts as failed.
                (reported.failedEarlier.map { "build \($0.build), attempt \($0.attempt)" + ($0.elsewhere.map { ", on \($0)" } ?? "") } ?? "", false),
                // How the report counts the row, beside the recorded verdict: failed, not applicable …
                (CheckStatus.countedAs(reported), false),
                // Last, so that the columns before it keep their places: a device on two OS
                // versions has a row for each.
                (reported.osVersion, false),
                // After it, for the same reason: "yes" for a timing over the check's time limit,
                // "no" within it, empty where the check has none.
                (overTimeLimit(result, reported.answeredCheck ?? reference?.check), false),
            ]
            lines.append(fields.map { Escaping.csv($0.0, isNumber: $0.1) }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The active time in tenths of a second; over its check's limit, with the places it takes
    /// to read as over it: 60.04 s read "60.0" beside "yes" under a limit of 60.
    static func activeSeconds(_ result: CheckResult, _ check: Check?) -> String {
        guard let seconds = result.activeSeconds else { return "" }
        guard let limit = check?.timeLimit, seconds > Double(limit) else { return Decimals.fixed(seconds, places: 1) }
        return Decimals.fewestPlaces(seconds, from: 1) { $0 > Double(limit) } ?? String(seconds)
    }

    static func overTimeLimit(_ result: CheckResult, _ check: Check?) -> String {
        guard let check, check.timeLimit != nil else { return "" }
        return result.isOverTimeLimit(check) ? "yes" : "no"
    }

    /// The criteria the row's check maps, each with its term and coverage, as the WCAG table has
    /// them: "2.5.8 Incomplete: 1 of 7 mapped checks passed; 6 not run.", one a line.
    /// A failure counted by the version it was answered against names that version's criteria
    /// too (`asAnswered`), marked, so a spreadsheet filtered by criterion finds it.
    static func criteria(_ reference: CheckReference?, _ terms: [String: ReleaseReport.CriterionRow], asAnswered: [String] = []) -> String {
        let lines = (reference?.criteria ?? []).map { ($0, "") } + asAnswered.map { ($0, " (mapped here by the version it failed against)") }
        return lines.compactMap { number, mark in
            terms[number].map { "\(number) \($0.conformance.rawValue): \($0.coverage.sentence)\(mark)" }
        }.joined(separator: "\n")
    }

    /// Each attachment in a line: its sentence, and where it was written when it was.
    static func attachments(_ report: ReleaseReport, _ reported: ReportedResult) -> String {
        reported.result.attachments.indices.map { position in
            AttachedEvidence.sentence(reported.result.attachments[position]) + (AttachedEvidence.path(report, reported, position).map { " (file: \($0))" } ?? "")
        }.joined(separator: "\n")
    }

    /// Each outcome's note, often the only explanation of a failure: "2: Delete fired", one a line.
    static func outcomeNotes(_ result: CheckResult) -> String {
        result.outcomes.enumerated().compactMap { position, answer in
            guard let note = answer?.note, !note.isEmpty else { return nil }
            return "\(position + 1): \(note)"
        }.joined(separator: "\n")
    }
}

import Foundation
