import CheckrunModel
import CheckrunStore
import Foundation

/// The report as one self-contained, accessible HTML page: no scripts, real headings, tables with
/// captions and header scopes, verdicts in words, every value escaped, an SVG chart per timed check.
enum HTMLReport {
    static func render(_ report: ReleaseReport) -> String {
        var out = header(report)
        out += attentionSection(report.attention)
        out += protocolsSection(report)
        out += criteriaSection(report)
        out += profilesSection(report)
        out += byProtocolSection(report)
        out += evidenceSection(report)
        out += ["</main>", "</body>", "</html>"]
        return out.joined(separator: "\n") + "\n"
    }

    /// The page's head, its style, and the report's header.
    private static func header(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        let title = report.title
        return [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<title>\(h(title))</title>",
            "<style>",
            "body{font-family:system-ui,sans-serif;line-height:1.5;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1a1a1a}",
            "table{border-collapse:collapse;margin:1rem 0;width:100%}caption{text-align:left;font-weight:600;padding:.25rem 0}",
            "th,td{border:1px solid #888;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#eee}",
            ".fail,.failed,.does-not-support{color:#a00000;font-weight:600}.pass,.passed,.supports{color:#005a00}",
            ".gap,.blocked,.partially-supports{color:#7a4a00;font-weight:600}code{word-break:break-all}",
            "svg{max-width:100%;height:auto}svg text{font-size:12px;fill:#1a1a1a}",
            // Evidence: a picture never wider than the page, its caption beneath it.
            "img{max-width:100%;height:auto;border:1px solid #888}figure{margin:.5rem 0}.evidence li{margin:.5rem 0}",
            // Reflow at 320 CSS px (WCAG 1.4.10): the page never scrolls sideways; a wide table
            // scrolls inside its own labelled, focusable region, and long words break.
            ".scroll{overflow-x:auto;max-width:100%}.scroll:focus{outline:3px solid #005fcc}td,th,li,p,h1,h2,h3,h4,caption,dt,dd,figcaption{overflow-wrap:anywhere}",
            "@media (max-width:40rem){body{margin:1rem auto;padding:0 .5rem}}",
            // Printed: rows stay whole, header rows repeat, a caption stays with its table.
            "@media print{.scroll{overflow:visible}tr,figure{break-inside:avoid}thead{display:table-header-group}caption,h2,h3{break-after:avoid}}",
            "</style>",
            "</head>",
            "<body>",
            "<main>",
            "<h1>\(h(title))</h1>",
            report.unverifiedBanner.map { "<p role=\"alert\"><strong>\(h($0)).</strong></p>" } ?? "",
            "<ul>",
            "<li>Builds: \(h(ReportPhrases.list(report.builds)))</li>",
            "<li>Devices: \(h(ReportPhrases.list(report.devices.map { $0.isEmpty ? "unnamed" : $0 })))</li>",
            "<li>Testers: \(h(ReportPhrases.list(report.testers)))</li>",
            "<li>Results from \(ReportPhrases.date(report.firstResult)) to \(ReportPhrases.date(report.lastResult)); generated \(ReportPhrases.timestamp(report.generatedAt))</li>",
            "<li>Summary: \(h(ReportPhrases.summary(report)))</li>",
            "<li>Evidence digest: <code>\(report.evidenceDigest)</code> (\(report.chains.count) session chains, listed under Evidence)</li>",
            "</ul>",
        ]
    }

    /// Each protocol with the SHA-256 of its content.
    private static func protocolsSection(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        var out: [String] = []
        out.append("<h2>Protocols</h2>")
        out.append("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"Protocols and the SHA-256 of their content\"><table><caption>Protocols and the SHA-256 of their content</caption>")
        out.append("<thead><tr><th scope=\"col\">Protocol</th><th scope=\"col\">Title</th><th scope=\"col\">Status</th><th scope=\"col\">Content hash</th><th scope=\"col\">Results from another version</th></tr></thead><tbody>")
        for entry in report.protocols {
            out.append("<tr><th scope=\"row\">\(h(entry.id))</th><td>\(h(entry.title))</td><td>\(h(entry.status))</td><td><code>\(entry.contentHash)</code></td><td>\(entry.resultsWithOtherHash)\(entry.changedChecks.isEmpty ? "" : "; changed since testing: " + h(entry.changedChecks.joined(separator: ", ")))</td></tr>")
        }
        out.append("</tbody></table></div>")
        return out
    }

    /// The WCAG table, criteria with evidence first.
    private static func criteriaSection(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        var out: [String] = []
        out.append("<h2>WCAG 2.2 conformance</h2>")
        out.append("<p>Level A and AA criteria, and the AAA criteria a protocol maps. A criterion Supports only when every check mapped to it passed or did not apply; it is Not Applicable when none applied; with passes and checks not run, skipped or blocked it is Incomplete; each row says how much evidence it rests on. \"Not evaluated\" on an A or AA criterion is a gap in test coverage, not a conformance term.</p>")
        out.append("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"Conformance by success criterion\"><table><caption>Conformance by success criterion</caption>")
        out.append("<thead><tr><th scope=\"col\">Criterion</th><th scope=\"col\">Level</th><th scope=\"col\">Conformance</th><th scope=\"col\">Checks</th><th scope=\"col\">Remarks</th></tr></thead><tbody>")
        for row in report.criteriaEvaluatedFirst {
            let term = row.isCoverageGap ? "Not Evaluated (gap in coverage)" : row.conformance.rawValue
            let css = row.isCoverageGap ? "gap" : row.conformance.openACRLevel
            out.append("<tr><th scope=\"row\">\(h(row.criterion.title))</th><td>\(row.criterion.level.rawValue)</td><td class=\"\(css)\">\(h(term))</td><td>\(h(row.checks.joined(separator: ", ")))</td><td>\(h(row.remarks))</td></tr>")
        }
        out.append("</tbody></table></div>")
        return out
    }

    /// Checks counted by assistive technology.
    private static func profilesSection(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        var out: [String] = []
        out.append("<h2>By assistive technology</h2>")
        out.append("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"Checks by profile\"><table><caption>Checks by profile</caption>")
        out.append("<thead><tr><th scope=\"col\">Profile</th><th scope=\"col\">Passed</th><th scope=\"col\">Failed</th><th scope=\"col\">Blocked</th><th scope=\"col\">Skipped</th><th scope=\"col\">Not applicable</th><th scope=\"col\">Not run</th></tr></thead><tbody>")
        for row in report.profiles {
            let cells = [CheckStatus.passed, .failed, .blocked, .skipped, .notApplicable, .notRun].map { "<td>\(row.counts[$0] ?? 0)</td>" }.joined()
            out.append("<tr><th scope=\"row\">\(h(row.profile))</th>\(cells)</tr>")
        }
        out.append("</tbody></table></div>")
        return out
    }

    /// Every check's latest result per device, with its chart, and results of removed checks.
    private static func byProtocolSection(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        var out: [String] = []
        out.append("<h2>By protocol</h2>")
        // Each check's history found by name, and the build labels made once, not per chart.
        // Per check, the device with the most results charts its history (builds are compared
        // per device: a median across devices would be neither device's figure).
        let evidence = { (row: CheckComparison) in row.builds.reduce(0) { $0 + ($1?.results ?? 0) } }
        let histories = Dictionary((report.history?.checks ?? []).map { ($0.check, $0) }, uniquingKeysWith: { first, second in
            evidence(second) > evidence(first) ? second : first
        })
        let axis = ChartAxis(labels: report.history?.labels ?? [])
        for document in report.protocols {
            out.append("<h3>\(h(document.title)) (\(h(document.id)))</h3>")
            for entry in report.checks where entry.reference.document.id == document.id {
                out.append("<h4>\(h(entry.reference.name)): <span class=\"\(entry.status == .notRun ? "gap" : entry.status.rawValue.replacingOccurrences(of: " ", with: "-"))\">\(entry.status.rawValue)</span></h4>")
                out.append("<p>Profile: \(h(entry.reference.check.profile)). Task: \(h(entry.reference.check.task)).</p>")
                if entry.results.isEmpty { out.append("<p>Not run in this release.</p>") } else { out += resultTable(entry.results, entry.reference.check) }
                out += evidenceList(report, entry.results, title: "Attachments: " + entry.reference.name, headingLevel: 5)
                if let history = histories[entry.reference.name], let chart = chart(for: entry.reference.name, history, axis: axis) {
                    out.append(chart)
                }
            }
        }
        if !report.removed.isEmpty {
            out.append("<h2>Results for checks no longer in the protocols</h2>")
            out += resultTable(report.removed, nil)
            out += evidenceList(report, report.removed, title: "Attachments of checks no longer in the protocols", headingLevel: 3)
        }
        return out
    }

    /// The session chains the report rests on, and what changed since the previous build.
    private static func evidenceSection(_ report: ReleaseReport) -> [String] {
        let h = Escaping.html
        var out: [String] = []
        out.append("<h2>Evidence</h2>")
        out.append("<p>Each session's answers form a chain of SHA-256 hashes; <code>checkrun verify</code> recomputes them.</p>")
        out.append("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"Session chains\"><table><caption>Session chains</caption><thead><tr><th scope=\"col\">Session</th><th scope=\"col\">Records</th><th scope=\"col\">Chain head</th></tr></thead><tbody>")
        for chain in report.chains {
            out.append("<tr><th scope=\"row\">\(chain.session.lowercasedText)</th><td>\(chain.records)</td><td><code>\(chain.head)</code></td></tr>")
        }
        out.append("</tbody></table></div>")
        if let changes = report.changes {
            out.append("<h2>Changes since build \(h(changes.labels.first ?? ""))</h2><ul>")
            for check in changes.checks {
                for change in check.changes {
                    out.append("<li\(change.flags.isEmpty ? "" : " class=\"fail\"")>\(h(check.label)): \(h(ReportPhrases.change(change, changes.labels)))</li>")
                }
            }
            out.append("</ul>")
        }
        return out
    }

    /// Failures and gaps first, each failure linked to its result further down.
    private static func attentionSection(_ attention: Attention) -> [String] {
        let h = Escaping.html
        var out = ["<section aria-labelledby=\"attention\">", "<h2 id=\"attention\">Needs attention</h2>", "<p>\(h(attention.failureHeadline))</p>"]
        if !attention.failures.isEmpty {
            out.append("<ul>")
            out += attention.failures.map { "<li dir=\"auto\"><a href=\"#\(resultAnchor($0.result))\">\(h(Attention.describe($0.check, $0.result)))</a></li>" }
            out.append("</ul>")
        }
        if let headline = attention.unfinishedHeadline {
            out.append("<p>\(h(headline))</p>")
            out.append("<ul>")
            out += attention.unfinished.map { "<li dir=\"auto\">\(h($0))</li>" }
            out.append("</ul>")
        }
        out.append("<p>\(h(attention.gapSentence))</p>")
        out.append("<p>\(h(attention.unansweredSentence))</p>")
        out.append("</section>")
        return out
    }

    /// The id of a result's row, which the failures at the top link to.
    static func resultAnchor(_ reported: ReportedResult) -> String {
        "result-" + reported.result.id.lowercasedText
    }

    private static func resultTable(_ results: [ReportedResult], _ check: Check?) -> [String] {
        let h = Escaping.html
        // Each region's name is unique on the page (axe: landmark-unique): it names its check.
        let label = h("Latest result per device and OS version: " + (results.first?.result.check ?? check?.id ?? ""))
        var out = ["<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"\(label)\"><table><caption>Latest result per device and OS version</caption>",
                   "<thead><tr><th scope=\"col\">Device</th><th scope=\"col\">Build</th><th scope=\"col\">Tester</th><th scope=\"col\">Verdict</th><th scope=\"col\">Attempts</th><th scope=\"col\">Active time</th><th scope=\"col\">Counters</th><th scope=\"col\">Expected outcomes</th><th scope=\"col\">Notes</th></tr></thead><tbody>"]
        for reported in results {
            let result = reported.result
            let check = reported.answeredCheck ?? check
            let earlier = ReportPhrases.answeredVersion(reported).map { "<li>\(h($0))</li>" } ?? ""
            let outcomes = earlier + ReportPhrases.answers(result, check).enumerated().map { index, answer -> String in
                let expected = check?.expected.indices.contains(index) == true ? check?.expected[index] : nil
                return "<li>\(h(expected?.text ?? "outcome \(index + 1)")): \(h(ReportPhrases.outcome(answer, expected)))</li>"
            }.joined()
            out.append("<tr id=\"\(resultAnchor(reported))\"><th scope=\"row\">\(h(reported.testedOn.isEmpty ? "unnamed" : reported.testedOn))</th><td>\(h(reported.build))</td><td>\(h(reported.tester))</td>"
                + "<td class=\"\(CheckStatus.countedAs(reported).replacingOccurrences(of: " ", with: "-"))\">\(h(ReportPhrases.verdict(reported)))</td><td>\(h(ReportPhrases.attempt(reported)))</td>"
                + "<td>\(h(ReportPhrases.activeTime(result, check)))</td><td>\(h(ReportPhrases.counters(result, check)))</td>"
                + "<td><ul>\(outcomes)</ul></td><td dir=\"auto\">\(h(result.notes ?? ""))</td></tr>")
        }
        out.append("</tbody></table></div>")
        return out
    }
}
