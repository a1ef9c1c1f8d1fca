import CheckrunModel
import CheckrunStore

/// The compliance report as Markdown: what a lead reads, signs and pastes into a ticket.
enum MarkdownReport {
    static func render(_ report: ReleaseReport) -> String {
        var out = header(report)
        out += attentionLines(report.attention, Escaping.markdown)
        out += protocolsSection(report)
        out += criteriaSection(report)
        out += profilesSection(report)
        out += byProtocolSection(report)
        out += evidenceSection(report)
        return out.joined(separator: "\n") + "\n"
    }

    /// The title and what the report covers.
    private static func header(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("# \(e(report.title))")
        out.append("")
        out.append("- Builds: \(e(ReportPhrases.list(report.builds)))")
        out.append("- Devices: \(e(ReportPhrases.list(report.devices.map { $0.isEmpty ? "unnamed" : $0 })))")
        out.append("- Testers: \(e(ReportPhrases.list(report.testers)))")
        out.append("- Results from \(ReportPhrases.date(report.firstResult)) to \(ReportPhrases.date(report.lastResult)); generated \(ReportPhrases.timestamp(report.generatedAt))")
        out.append("- Summary: \(ReportPhrases.summary(report))")
        out.append("- Evidence digest: `\(report.evidenceDigest)` (\(report.chains.count) session chain\(report.chains.count == 1 ? "" : "s"), listed under Evidence)")
        out.append("")
        return out
    }

    /// Each protocol with the SHA-256 of its content.
    private static func protocolsSection(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("## Protocols")
        out.append("")
        out.append("| Protocol | Title | Status | Content hash (SHA-256) | Results from another version |")
        out.append("| --- | --- | --- | --- | --- |")
        for entry in report.protocols {
            out.append("| \(e(entry.id)) | \(e(entry.title)) | \(entry.status) | `\(entry.contentHash)` | \(entry.resultsWithOtherHash)\(entry.changedChecks.isEmpty ? "" : "; changed since testing: " + e(entry.changedChecks.joined(separator: ", "))) |")
        }
        out.append("")
        return out
    }

    /// The WCAG table, criteria with evidence first.
    private static func criteriaSection(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("## WCAG 2.2 conformance")
        out.append("")
        out.append("Level A and AA criteria, and the AAA criteria a protocol maps. A criterion Supports only when every check mapped to it passed; with passes and checks not run, skipped or blocked it is Incomplete; each row says how much evidence it rests on. \"Not evaluated\" on an A or AA criterion is a gap in test coverage, not a conformance term.")
        out.append("")
        out.append("| Criterion | Level | Conformance | Checks | Remarks |")
        out.append("| --- | --- | --- | --- | --- |")
        for row in report.criteriaEvaluatedFirst {
            let term = row.isCoverageGap ? "Not Evaluated (gap in coverage)" : row.conformance.rawValue
            out.append("| \(e(row.criterion.title)) | \(row.criterion.level.rawValue) | \(term) | \(e(row.checks.joined(separator: ", "))) | \(e(row.remarks)) |")
        }
        out.append("")
        return out
    }

    /// Checks counted by assistive technology.
    private static func profilesSection(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("## By assistive technology")
        out.append("")
        out.append("| Profile | Passed | Failed | Blocked | Skipped | Not applicable | Not run |")
        out.append("| --- | --- | --- | --- | --- | --- | --- |")
        for row in report.profiles {
            let counts = [CheckStatus.passed, .failed, .blocked, .skipped, .notApplicable, .notRun].map { String(row.counts[$0] ?? 0) }
            out.append("| \(e(row.profile)) | " + counts.joined(separator: " | ") + " |")
        }
        out.append("")
        return out
    }

    /// Every check's latest result per device, and results of removed checks.
    private static func byProtocolSection(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("## By protocol")
        for document in report.protocols {
            out.append("")
            out.append("### \(e(document.title)) (\(e(document.id)))")
            for entry in report.checks where entry.reference.document.id == document.id {
                out.append("")
                out.append("#### \(e(entry.reference.name)): \(entry.status.rawValue)")
                out.append("")
                out.append("Profile: \(e(entry.reference.check.profile)). Task: \(e(entry.reference.check.task)).")
                if entry.results.isEmpty {
                    out.append("")
                    out.append("Not run in this release.")
                }
                for reported in entry.results {
                    out.append("")
                    out += resultLines(reported, reported.answeredCheck ?? entry.reference.check, e) + evidenceLines(report, reported)
                }
            }
        }
        if !report.removed.isEmpty {
            out.append("")
            out.append("## Results for checks no longer in the protocols")
            for reported in report.removed {
                out.append("")
                out.append("#### \(e(reported.result.check)): removed")
                out.append("")
                out += resultLines(reported, reported.answeredCheck, e) + evidenceLines(report, reported)
            }
        }
        out.append("")
        return out
    }

    /// The session chains the report rests on, and what changed since the previous build.
    private static func evidenceSection(_ report: ReleaseReport) -> [String] {
        let e = Escaping.markdown
        var out: [String] = []
        out.append("## Evidence")
        out.append("")
        out.append("Evidence digest (SHA-256 over every session's chain head and every result shown): `\(report.evidenceDigest)`. `checkrun verify` recomputes the chains.")
        out.append("")
        out.append("| Session | Records | Chain head (SHA-256) |")
        out.append("| --- | --- | --- |")
        for chain in report.chains {
            out.append("| \(chain.session.lowercasedText) | \(chain.records) | `\(chain.head)` |")
        }
        if let changes = report.changes {
            out.append("")
            out.append("## Changes since build \(e(changes.labels.first ?? ""))")
            out.append("")
            let lines = changes.checks.flatMap { check in check.changes.map { "- \(e(check.label)): \(e(ReportPhrases.change($0, changes.labels)))" } }
            out += lines.isEmpty ? ["No check has results in both builds."] : lines
        }
        return out
    }

    /// Failures and gaps first, before the full tables.
    private static func attentionLines(_ attention: Attention, _ e: (String) -> String) -> [String] {
        var out = ["## Needs attention", "", "- \(attention.failureHeadline)"]
        out += attention.failures.map { "  - \(e(Attention.describe($0.check, $0.result)))" }
        if let headline = attention.unfinishedHeadline {
            out.append("- \(headline)")
            out += attention.unfinished.map { "  - \(e($0))" }
        }
        out.append("- \(e(attention.gapSentence))")
        out.append("- \(e(attention.unansweredSentence))")
        out.append("")
        return out
    }

    private static func resultLines(_ reported: ReportedResult, _ check: Check?, _ e: (String) -> String) -> [String] {
        let result = reported.result
        var lines = [
            "- Device: \(e(reported.testedOn.isEmpty ? "unnamed" : ReportPhrases.name(reported.testedOn))); build \(e(ReportPhrases.name(reported.build))); tester \(e(reported.tester.isEmpty ? "unnamed" : ReportPhrases.name(reported.tester))); \(e(ReportPhrases.attempt(reported)))",
            "- Verdict: \(e(ReportPhrases.verdict(reported)))",
            "- Active time: \(ReportPhrases.activeTime(result, check))",
            "- Counters: \(e(ReportPhrases.counters(result, check)))",
        ]
        if let answered = ReportPhrases.answeredVersion(reported) { lines.append("- \(e(answered))") }
        for (index, answer) in ReportPhrases.answers(result, check).enumerated() {
            let expected = check?.expected.indices.contains(index) == true ? check?.expected[index] : nil
            lines.append("- Expected \(index + 1), \(e(expected?.text ?? "outcome \(index + 1)")): \(e(ReportPhrases.outcome(answer, expected)))")
        }
        if let notes = result.notes, !notes.isEmpty { lines.append("- Notes: \(e(notes))") }
        return lines
    }

    /// A result's attachments: linked (pictures shown) when the files were written beside
    /// the report, else named with their type, size, description and hash.
    private static func evidenceLines(_ report: ReleaseReport, _ reported: ReportedResult) -> [String] {
        let e = Escaping.markdown
        return reported.result.attachments.indices.map { position in
            let attachment = reported.result.attachments[position]
            guard let path = AttachedEvidence.path(report, reported, position) else {
                return "- Attachment: \(e(AttachedEvidence.sentence(attachment)))"
            }
            let target = "<" + path.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E") + ">"
            let shown = attachment.isImage ? "![\(e(AttachedEvidence.alternative(attachment)))](\(target)) " : ""
            return "- Attachment: \(shown)[\(e(attachment.name))](\(target)) \(e(AttachedEvidence.sentence(attachment, named: false)))"
        }
    }
}
