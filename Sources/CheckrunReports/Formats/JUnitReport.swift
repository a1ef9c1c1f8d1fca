import CheckrunModel
import CheckrunStore

/// JUnit XML for CI dashboards (the Jenkins xunit schema, junit-10.xsd): a testsuite per
/// protocol with a testcase per check and device, and a testsuite of the WCAG criteria. A
/// testcase is named by its check and where it was tested ("voice-control-show-numbers on
/// iPhone 15, OS 18.2"): GitLab keeps one testcase per class and name, the later one, so a
/// failure on one device named like a pass on another vanished behind it. What else varies
/// (build, tester, counters) is told in its `system-out`, since the schema allows no properties
/// on a testcase.
enum JUnitReport {
    /// Every text of the report as XML, with any "[[" broken: Jenkins and GitLab attach the file
    /// a `[[ATTACHMENT|path]]` line names, and only checkrun's own lines may name one. Control
    /// characters and the direction controls that reorder text are shown as `\u{…}` marks, as in
    /// Markdown, HTML and CSV: a dashboard shows the text, and a note must not reorder it.
    static func x(_ text: String) -> String {
        Escaping.xml(DisplayText.terminalSafe(text, keepingCarriageReturns: true).replacingOccurrences(of: "[[", with: "[ ["))
    }

    static func render(_ report: ReleaseReport) -> String {
        var out = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        // The totals are the sums of every suite's, the WCAG suite's too: a dashboard reading
        // the top line counts what the suites hold.
        let criteria = criteriaCounts(report)
        let results = report.checks.flatMap(\.results) + report.removed
        let unverified = verificationSuite(report)
        let total = report.checks.reduce(0) { $0 + max(1, $1.results.count) } + report.removed.count + criteria.tests + (unverified.isEmpty ? 0 : 1)
        let failures = results.filter { $0.standing == .fail }.count + criteria.failures + (unverified.isEmpty ? 0 : 1)
        let errors = results.filter { $0.standing == .blocked }.count
        out.append("<testsuites name=\"\(x("checkrun " + (report.product.map { "\($0) " } ?? "") + "release \(report.release)"))\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\">")
        out += unverified
        var names = TestcaseNames()
        for document in report.protocols {
            let entries = report.checks.filter { $0.reference.document.id == document.id }
            let cases = entries.flatMap { entry in entry.results.isEmpty ? [(entry, nil)] : entry.results.map { (entry, Optional($0)) } }
            let failed = cases.filter { $0.1?.standing == .fail }.count
            let errors = cases.filter { $0.1?.standing == .blocked }.count
            let skipped = cases.filter { $0.1 == nil || $0.1?.standing == .skipped || $0.1.map(isNotApplicable) == true }.count
            let time = cases.compactMap { $0.1?.result.activeSeconds }.reduce(0, +)
            out.append("  <testsuite name=\"\(x(document.id))\" tests=\"\(cases.count)\" failures=\"\(failed)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">")
            out.append("    <properties>")
            out.append("      <property name=\"release\" value=\"\(x(report.release))\"/>")
            out.append("      <property name=\"title\" value=\"\(x(document.title))\"/>")
            out.append("      <property name=\"protocol_hash\" value=\"\(document.contentHash)\"/>")
            out.append("    </properties>")
            for (entry, reported) in cases { out += testcase(entry, reported, in: document, of: report, names: &names) }
            out.append("  </testsuite>")
        }
        out += removedSuite(report, names: &names)
        out += criteriaSuite(report)
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }

    /// A report written despite problems (`--unverified`) fails a testcase of its own, first: a
    /// dashboard shows no comment, and every other testcase rests on records that did not verify.
    private static func verificationSuite(_ report: ReleaseReport) -> [String] {
        guard let banner = report.unverifiedBanner else { return [] }
        return ["  <testsuite name=\"checkrun verification\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\">",
                "    <testcase classname=\"checkrun\" name=\"the records this report rests on verify\" time=\"0\">",
                "      <failure message=\"\(x(banner))\"/>",
                "    </testcase>",
                "  </testsuite>"]
    }

    /// The names given so far, by class: a name given twice gets " (2)", " (3)" in the report's
    /// order. Each place has one latest result, but two places can read alike (a device named
    /// "iPhone 15, OS 18.2", and an iPhone 15 on OS 18.2), and a dashboard keeping the later of
    /// two testcases of one name would hide a failure behind a pass.
    struct TestcaseNames {
        private var given: [String: Set<String>] = [:]

        mutating func unique(_ name: String, in classname: String) -> String {
            var candidate = name
            var number = 1
            while given[classname, default: []].contains(candidate) {
                number += 1
                candidate = "\(name) (\(number))"
            }
            given[classname, default: []].insert(candidate)
            return candidate
        }
    }

    /// A testcase's name: the check, and where it was tested when that is known.
    static func testcaseName(_ check: String, _ reported: ReportedResult?) -> String {
        guard let place = reported?.testedOn, !place.isEmpty else { return check }
        return "\(check) on \(place)"
    }

    /// One check's testcase (on one device, or not run at all).
    private static func testcase(_ entry: ReleaseReport.CheckEntry, _ reported: ReportedResult?, in document: ReleaseReport.ProtocolEntry,
                                 of report: ReleaseReport, names: inout TestcaseNames) -> [String] {
        var out: [String] = []
        let time = reported?.result.activeSeconds.map(seconds) ?? "0"
        let name = names.unique(testcaseName(entry.reference.check.id, reported), in: document.id)
        out.append("    <testcase classname=\"\(x(document.id))\" name=\"\(x(name))\" time=\"\(time)\">")
        var properties = [("release", report.release), ("profile", entry.reference.check.profile)]
        if let reported {
            properties += [("build", reported.build), ("device", reported.device)]
            if !reported.osVersion.isEmpty { properties += [("os_version", reported.osVersion)] }
            properties += [("tester", reported.tester), ("attempt", String(reported.result.attempt))]
            if let check = reported.answeredCheck ?? Optional(entry.reference.check), let limit = check.timeLimit {
                properties += [("time_limit", "\(limit) s\(reported.result.isOverTimeLimit(check) ? ", over" : "")")]
            }
            if reported.amendments > 0 { properties += [("amended", reported.amendReason ?? "yes")] }
            properties += reported.result.counters.sorted { $0.key < $1.key }.map { ("counter.\($0.key)", String($0.value.value)) }
        }
        if let reported, let earlier = reported.failedEarlier {
            let message = "\(ReportPhrases.verdict(reported.result)) in build \(reported.build); " + ReportPhrases.failedEarlier(earlier)
            out.append("      <failure message=\"\(x(message))\" type=\"fail\">\(x(earlier.notes ?? ""))</failure>")
        } else {
            let unfinished = reported == nil ? report.unfinishedFailures.first { $0.check == entry.reference.name } : nil
            out += verdictElement(entry, reported, unfinished: unfinished)
        }
        // A line each, every value on its own line: notes of several lines stood in a dashboard
        // as lines of their own ("build: 999", "amended: verified OK by lead").
        var told = properties.map { "\($0.0): \(DisplayText.neutralised($0.1))" }
        if let notes = reported?.result.notes, !notes.isEmpty { told.append("notes: \(DisplayText.neutralised(notes))") }
        var markers: [String] = []
        if let reported {
            told += reported.result.attachments.map { "attachment: " + DisplayText.neutralised(AttachedEvidence.sentence($0)) }
            markers = reported.result.attachments.indices.compactMap { AttachedEvidence.path(report, reported, $0) }.map { "[[ATTACHMENT|\($0)]]" }
        }
        // The lines that name files for CI to attach are checkrun's own, added unbroken.
        let attached = markers.map { "&#10;" + Escaping.xml($0) }.joined()
        out.append("      <system-out>\(x(told.joined(separator: "\n")))\(attached)</system-out>")
        out.append("    </testcase>")
        return out
    }

    /// The element a testcase's own verdict gives: a failure with its failed outcomes and notes,
    /// an error for blocked, skipped for skipped or not run, nothing for a pass.
    /// A check with no result but an unfinished attempt holding a failed answer (`unfinished`)
    /// was "not run in this release": it was run, and failed, and is not finished.
    private static func verdictElement(_ entry: ReleaseReport.CheckEntry, _ reported: ReportedResult?, unfinished: UnfinishedFailure?) -> [String] {
        var out: [String] = []
        switch reported?.result.verdict {
        case .fail?:
            let result = reported?.result
            let check = reported?.answeredCheck ?? entry.reference.check
            let failedOutcomes = (result?.outcomes ?? []).enumerated().filter { $0.element?.verdict == .fail }.map { index, answer in
                "expected \(index + 1) failed: " + (check.expected.indices.contains(index) ? check.expected[index].text : "") + (answer?.note.map { " (\($0))" } ?? "")
            }
            let message = result.map { $0.summary(against: check) } ?? "fail"
            out.append("      <failure message=\"\(x(message))\" type=\"fail\">\(x((failedOutcomes + [result?.notes ?? ""]).filter { !$0.isEmpty }.joined(separator: "\n")))</failure>")
        case .blocked?:
            out.append("      <error message=\"\(x("blocked: " + (reported?.result.blockedReason ?? "")))\" type=\"blocked\"/>")
        case .skipped?:
            out.append("      <skipped message=\"skipped by the tester\"/>")
        case nil:
            let message = unfinished.map { "not finished: attempt \($0.attempt) (build \($0.build)) holds a failed answer; resume session \($0.session.lowercasedText.prefix(8)) to give its result" }
            out.append("      <skipped message=\"\(x(message ?? "not run in this release"))\"/>")
        case .pass?:
            if let reported, isNotApplicable(reported) {
                out.append("      <skipped message=\"\(x("not applicable: " + CheckResult.nothingApplied))\"/>")
            }
        }
        return out
    }

    /// A pass made only of outcomes answered not applicable: no evidence of support, so not a
    /// green testcase (the report counts it as not applicable).
    private static func isNotApplicable(_ reported: ReportedResult) -> Bool {
        reported.standing == .pass && reported.result.passedOnlyAsNotApplicable
    }

    /// Results of checks no longer in the protocols, a testcase each: a failure of one still
    /// fails the run, as it trips the report's gate.
    private static func removedSuite(_ report: ReleaseReport, names: inout TestcaseNames) -> [String] {
        guard !report.removed.isEmpty else { return [] }
        let verdicts = report.removed.map(\.standing)
        var out = ["  <testsuite name=\"no longer in the protocols\" tests=\"\(verdicts.count)\" failures=\"\(verdicts.filter { $0 == .fail }.count)\" "
            + "errors=\"\(verdicts.filter { $0 == .blocked }.count)\" skipped=\"\(verdicts.filter { $0 == .skipped }.count + report.removed.filter(isNotApplicable).count)\" time=\"0\">"]
        for reported in report.removed {
            let name = reported.result.check.split(separator: "/", maxSplits: 1).map(String.init)
            let unique = names.unique(testcaseName(name.last ?? "", reported), in: name.first ?? "")
            out.append("    <testcase classname=\"\(x(name.first ?? ""))\" name=\"\(x(unique))\" time=\"\(reported.result.activeSeconds.map(seconds) ?? "0")\">")
            let earlier = reported.failedEarlier.map { "; " + ReportPhrases.failedEarlier($0) } ?? ""
            let message = x("\(reported.result.verdict?.rawValue ?? "no verdict")\(earlier); the check is no longer in the protocols")
            switch reported.standing {
            case .fail?: out.append("      <failure message=\"\(message)\" type=\"fail\">\(x(reported.failedEarlier.map { $0.notes ?? "" } ?? reported.result.notes ?? ""))</failure>")
            case .blocked?: out.append("      <error message=\"\(message)\" type=\"blocked\"/>")
            case .skipped?, nil: out.append("      <skipped message=\"\(message)\"/>")
            case .pass? where isNotApplicable(reported):
                out.append("      <skipped message=\"\(x("not applicable: " + CheckResult.nothingApplied + "; the check is no longer in the protocols"))\"/>")
            case .pass?: break
            }
            let os = reported.osVersion.isEmpty ? "" : "\nos_version: \(reported.osVersion)"
            out.append("      <system-out>\(x("build: \(reported.build)\ndevice: \(reported.device)\(os)\ntester: \(reported.tester)"))</system-out>")
            out.append("    </testcase>")
        }
        out.append("  </testsuite>")
        return out
    }

    /// A testcase per criterion a check maps, with its term and coverage: failing for Does Not
    /// Support and Partially Supports, skipped for Incomplete and Not Evaluated.
    private static func criteriaSuite(_ report: ReleaseReport) -> [String] {
        let rows = report.criteria.filter { !$0.checks.isEmpty }
        let counts = criteriaCounts(report)
        var out = ["  <testsuite name=\"WCAG 2.2\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" errors=\"0\" skipped=\"\(counts.skipped)\" time=\"0\">"]
        for row in rows {
            out.append("    <testcase classname=\"wcag\" name=\"\(x(row.criterion.title))\" time=\"0\">")
            let message = x("\(row.conformance.rawValue): \(row.coverage.sentence)")
            switch row.conformance {
            case .doesNotSupport, .partiallySupports: out.append("      <failure message=\"\(message)\" type=\"conformance\"/>")
            case .incomplete, .notEvaluated: out.append("      <skipped message=\"\(message)\"/>")
            case .supports: break
            case .notApplicable: out.append("      <skipped message=\"\(message)\"/>")
            }
            out.append("      <system-out>\(x(row.remarks))</system-out>")
            out.append("    </testcase>")
        }
        out.append("  </testsuite>")
        return out
    }

    /// The WCAG suite's testcases: a criterion some check maps, failing for Does Not Support
    /// and Partially Supports, skipped when Incomplete, Not Evaluated or Not Applicable.
    private static func criteriaCounts(_ report: ReleaseReport) -> (tests: Int, failures: Int, skipped: Int) {
        let rows = report.criteria.filter { !$0.checks.isEmpty }
        return (rows.count, rows.filter { $0.conformance == .doesNotSupport || $0.conformance == .partiallySupports }.count,
                rows.filter { [.incomplete, .notEvaluated, .notApplicable].contains($0.conformance) }.count)
    }

    private static func seconds(_ value: Double) -> String {
        Decimals.fixed(value, places: 3)
    }
}

import Foundation
