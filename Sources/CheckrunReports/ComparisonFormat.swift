import CheckrunModel

/// The formats `checkrun compare` writes.
package enum ComparisonFormat: String, Sendable, CaseIterable {
    case text, markdown, json, csv

    /// The comparison in this format; one written despite verification problems says so first.
    package func render(_ comparison: Comparison) -> String {
        let banner = comparison.unverifiedBanner
        switch self {
        case .text: return (banner.map { "\($0).\n\n" } ?? "") + ComparisonRenderer.text(comparison)
        case .markdown: return (banner.map { "**\($0).**\n\n" } ?? "") + ComparisonRenderer.markdown(comparison)
        case .json:
            guard case .object(var members) = JSONReport.comparison(comparison) else { return "" }
            members.insert(JSONMember("verification", JSONNode(.object([
                JSONMember("verified", JSONNode(.bool(comparison.unverifiedProblems == nil))),
                JSONMember("message", JSONNode(comparison.unverifiedBanner.map(JSONValue.string) ?? .null)),
                JSONMember("problems", JSONNode(.array((comparison.unverifiedProblems ?? []).map { JSONNode(.string($0)) }))),
            ]))), at: 0)
            return JSONWriter.forReading(JSONWriter.write(.object(members)))
        case .csv: return (banner.map { "\"\($0)\"\r\n" } ?? "") + ComparisonRenderer.csv(comparison)
        }
    }
}

enum ComparisonRenderer {
    /// One build's figures; `inWords` for the terminal's text, where times are said in words.
    static func figures(_ figures: BuildFigures?, inWords: Bool = false) -> String {
        guard let figures else { return "no result" }
        // Under a second, two decimals: 0.04 s is not "0.0 s".
        let time = { (seconds: Double) in inWords ? ReportPhrases.seconds(seconds) : Decimals.fixed(seconds, places: seconds < 1 ? 2 : 1) + " s" }
        var parts = [figures.medianSeconds.map { "median " + time($0) } ?? "not timed"]
        parts += figures.medianCounters.sorted { $0.key < $1.key }.map { "\($0.key) \(Comparison.format($0.value))" }
        parts.append(figures.verdict.rawValue)
        return parts.joined(separator: ", ") + " (\(figures.results) result\(figures.results == 1 ? "" : "s"))"
    }

    static func heading(_ comparison: Comparison) -> String {
        let releases = Set(comparison.scopes.map(\.release))
        let scope = releases.count == 1 ? "release \(comparison.scopes.first?.release ?? ""), builds " : "builds "
        return "Comparing \(scope)\(comparison.labels.joined(separator: " → ")) (time threshold \(Comparison.format(comparison.threshold))%)"
    }

    static func footer(_ comparison: Comparison) -> String {
        let count = comparison.regressions.count
        return count == 0 ? "No regressions." : "\(count) regression\(count == 1 ? "" : "s") flagged."
    }

    /// Plain text, for a terminal or a file read on one: every line is neutralised as it is
    /// written, the heading's build labels as much as the rest, so no label can act on the
    /// terminal or begin a line of its own. Written line by line into one string: at a million
    /// results the comparison is some 300,000 lines, and a list of them, neutralised, then
    /// joined, held three copies at once.
    static func text(_ comparison: Comparison) -> String {
        var text = ""
        func line(_ words: String) {
            text += DisplayText.neutralised(words)
            text += "\n"
        }
        line(heading(comparison))
        line("")
        for check in comparison.checks {
            line(check.label + (check.removed ? " (no longer in the protocols)" : ""))
            for (index, figures) in check.builds.enumerated() {
                line("  \(comparison.labels[index]): \(self.figures(figures, inWords: true))")
            }
            for change in check.changes {
                line("  " + ReportPhrases.change(change, comparison.labels, inWords: true))
            }
        }
        if comparison.checks.isEmpty { line("No results in these builds.") }
        line("")
        line(footer(comparison))
        return text
    }

    static func markdown(_ comparison: Comparison) -> String {
        let e = Escaping.markdown
        var lines = ["## \(e(heading(comparison)))", ""]
        lines.append("| Check and device | " + comparison.labels.map(e).joined(separator: " | ") + " | Changes |")
        lines.append("| --- |" + String(repeating: " --- |", count: comparison.labels.count) + " --- |")
        for check in comparison.checks {
            let cells = check.builds.map { e(figures($0)) }
            let changes = check.changes.map { e(ReportPhrases.change($0, comparison.labels)) }.joined(separator: "<br>")
            lines.append("| \(e(check.label))\(check.removed ? " (removed)" : "") | " + cells.joined(separator: " | ") + " | \(changes) |")
        }
        lines += ["", footer(comparison)]
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ comparison: Comparison) -> String {
        var lines = ["check,device,from,to,from_median_seconds,to_median_seconds,seconds_delta,percent_delta,from_verdict,to_verdict,verdict_change,counter_deltas,protocol_changed,regression,flags"]
        for check in comparison.checks {
            for change in check.changes {
                let before = check.builds[change.from], after = check.builds[change.to]
                let number: (Double?) -> String = { $0.map { Decimals.fixed($0, places: 2) } ?? "" }
                let fields: [(String, Bool)] = [
                    (check.check, false), (check.device, false), (comparison.labels[change.from], false), (comparison.labels[change.to], false),
                    (number(before?.medianSeconds), true), (number(after?.medianSeconds), true),
                    (number(change.secondsDelta), true), (number(change.percentDelta), true),
                    (before?.verdict.rawValue ?? "", false), (after?.verdict.rawValue ?? "", false), (change.verdictChange.rawValue, false),
                    (change.counterDeltas.sorted { $0.key < $1.key }.map { "\($0.key)=\(Comparison.format($0.value))" }.joined(separator: ";"), false),
                    (change.protocolChanged ? "yes" : "no", false), (change.flags.isEmpty ? "no" : "yes", false),
                    (change.flags.joined(separator: "; "), false),
                ]
                lines.append(fields.map { Escaping.csv($0.0, isNumber: $0.1) }.joined(separator: ","))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

import Foundation
