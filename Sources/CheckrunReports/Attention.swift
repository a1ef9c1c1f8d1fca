import CheckrunModel
import CheckrunStore

/// What a lead reads first: every failure, and where the release has no evidence. The HTML and
/// Markdown reports open with it, above the full tables.
package struct Attention: Sendable {
    /// Each failing result, with its check.
    package var failures: [(check: String, result: ReportedResult)]
    /// A and AA criteria with no pass and no fail behind them.
    package var gaps: [WCAGCriterion]
    /// Checks without a pass or fail, by status (not run, blocked, skipped).
    package var unanswered: [(status: CheckStatus, checks: Int)]
    /// Unfinished attempts holding a failed answer, in words (see `ReleaseReport.unfinishedFailures`).
    package var unfinished: [String]

    init(_ report: ReleaseReport) {
        unfinished = Self.unfinishedLines(report)
        failures = report.checks.flatMap { entry in
            entry.results.filter { $0.standing == .fail }.map { (entry.reference.name, $0) }
        }
        // A failure of a check since removed from the protocols is still a failure of this release.
        failures += report.removed.filter { $0.standing == .fail }.map { ("\($0.result.check) (no longer in the protocols)", $0) }
        gaps = report.criteria.filter(\.isCoverageGap).map(\.criterion)
        unanswered = [CheckStatus.notRun, .blocked, .skipped].map { status in
            (status, report.checks.filter { $0.status == status }.count)
        }
    }

    /// "1 check failed", "No check failed".
    var failureHeadline: String {
        let checks = Set(failures.map(\.check)).count
        return checks == 0 ? "No check failed." : "\(checks) check\(checks == 1 ? "" : "s") failed:"
    }

    /// One failure in words: where it failed, and the start of what the tester wrote.
    static func describe(_ check: String, _ reported: ReportedResult, notesInFull: Bool = false) -> String {
        // Remarks join failures with semicolons: a device named with one is quoted.
        let device = reported.testedOn.isEmpty ? "an unnamed device" : ReportPhrases.name(reported.testedOn)
        let limit = notesInFull ? Int.max : 160
        if let earlier = reported.failedEarlier {
            let since = reported.result.verdict == .blocked ? "blocked" : "skipped"
            let text = earlier.isThisResult
                ? "\(check) failed on \(device) in build \(reported.build) before it was \(since), so it is not shown fixed"
                : earlier.elsewhere.map { "\(check) failed on \($0) in build \(earlier.build), not shown fixed there, and was \(since) on \(device) in build \(reported.build), so it is not shown fixed" }
                    ?? "\(check) failed on \(device) in build \(earlier.build) and was \(since) in build \(reported.build) since, so it is not shown fixed"
            guard let notes = earlier.notes, !notes.isEmpty else { return text }
            return text + ": " + cut(notes, limit: limit)
        }
        let text = "\(check) fails on \(device) (build \(reported.build))"
        return notesPreview(reported.result, limit: limit).map { text + ": " + $0 } ?? text
    }

    /// The tester's notes on a result and its outcomes, cut short when long: the full text is
    /// shown once, with the result, not in every row that cites it.
    static func notesPreview(_ result: CheckResult, limit: Int = 160) -> String? {
        let notes = ([result.notes] + result.outcomes.map { $0?.note }).compactMap { $0 }.filter { !$0.isEmpty }
        guard !notes.isEmpty else { return nil }
        return cut(notes.joined(separator: "; "), limit: limit)
    }

    /// Notes cut to `limit` characters, saying where the rest is. A web address the cut would
    /// split is left out whole: its start became a link to a place no one typed
    /// ("https://example…").
    static func cut(_ notes: String, limit: Int) -> String {
        guard notes.count > limit else { return notes }
        var kept = notes.prefix(limit)
        let word = String(kept.reversed().prefix { !$0.isWhitespace }.reversed())
        if let next = notes.dropFirst(limit).first, !next.isWhitespace, word.contains("://") || word.lowercased().hasPrefix("www.") {
            kept = kept.dropLast(word.count)
        }
        return String(kept) + "… (the full notes are with the result)"
    }

    /// "45 A and AA criteria have no evidence (Not Evaluated): 1.1.1, 1.2.1, …".
    var gapSentence: String {
        guard !gaps.isEmpty else { return "Every A and AA criterion has evidence." }
        let count = gaps.count
        return "\(count) A and AA criteri\(count == 1 ? "on has" : "a have") no pass or fail behind \(count == 1 ? "it" : "them") (Not Evaluated, a gap in coverage): "
            + gaps.map(\.number).joined(separator: ", ") + "."
    }

    /// Each unfinished attempt holding a failed answer, one line each; empty when there is none.
    static func unfinishedLines(_ report: ReleaseReport) -> [String] {
        report.unfinishedFailures.map { failure in
            "\(failure.check) on \(failure.testedOn.isEmpty ? "an unnamed device" : failure.testedOn) (build \(failure.build)): attempt \(failure.attempt) holds a failed answer but is not finished; resume session \(failure.session.lowercasedText.prefix(8)) to give its result"
        }
    }

    /// "1 unfinished attempt holds a failed answer:", or nil when none does.
    var unfinishedHeadline: String? {
        guard !unfinished.isEmpty else { return nil }
        return unfinished.count == 1 ? "1 unfinished attempt holds a failed answer that no finished result shows yet:"
            : "\(unfinished.count) unfinished attempts hold a failed answer that no finished result shows yet:"
    }

    /// "19 checks not run, 1 blocked, 0 skipped."
    var unansweredSentence: String {
        let parts = unanswered.map { "\($0.checks) \($0.status.rawValue)" }
        return "Checks without a pass or fail: " + parts.joined(separator: ", ") + "."
    }
}

extension ReleaseReport {
    package var attention: Attention { Attention(self) }

    /// The criteria with evidence first, then those without, each group in WCAG order: a
    /// lead reads what was evaluated before the gaps.
    package var criteriaEvaluatedFirst: [CriterionRow] {
        let evaluated = { (row: CriterionRow) in row.coverage.passed + row.coverage.failed + row.coverage.partlyPassed > 0 }
        return criteria.filter(evaluated) + criteria.filter { !evaluated($0) }
    }
}
