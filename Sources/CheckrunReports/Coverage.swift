import CheckrunModel

/// How much evidence a criterion's term rests on: of the checks mapped to it, how many passed,
/// failed, were blocked, skipped or not run, and how many of the counted results come from a
/// draft protocol or a check still marked for review.
package struct Coverage: Sendable, Equatable {
    package var mapped = 0
    package var passed = 0
    package var failed = 0
    package var blocked = 0
    package var skipped = 0
    /// Checks answered not applicable on every device they were tested on.
    package var notApplicable = 0
    package var notRun = 0
    /// Skipped or blocked checks that passed on another device: some evidence of support,
    /// not none (without them a criterion read "no pass or fail behind it").
    package var partlyPassed = 0
    /// Passed or failed checks whose protocol is a draft or whose check awaits review.
    package var provisional = 0

    init(_ entries: [ReleaseReport.CheckEntry]) {
        mapped = entries.count
        for entry in entries {
            switch entry.status {
            case .passed: passed += 1
            case .failed: failed += 1
            case .blocked: blocked += 1
            case .skipped: skipped += 1
            case .notApplicable: notApplicable += 1
            case .notRun: notRun += 1
            }
            if entry.passedOnSomeDevices { partlyPassed += 1 }
            if (entry.status == .passed || entry.status == .failed) && !entry.isRemoved && !entry.mappedAsAnswered && !Self.caveat(entry).isEmpty { provisional += 1 }
        }
    }

    /// The term the evidence supports.
    package var conformance: Conformance {
        // A check that passed on one device and was set aside on another is evidence of support
        // beside a failure too: Partially Supports, never Does Not Support.
        if failed > 0 { return passed == 0 && partlyPassed == 0 ? .doesNotSupport : .partiallySupports }
        if passed == 0 && partlyPassed == 0 { return notApplicable > 0 && notApplicable == mapped ? .notApplicable : .notEvaluated }
        // A check that does not apply takes nothing from the evidence of those that passed.
        return passed + notApplicable == mapped ? .supports : .incomplete
    }

    /// "1 of 7 mapped checks passed; 6 not run."
    package var sentence: String {
        guard mapped > 0 else { return "No mapped checks." }
        var parts = ["\(passed) of \(mapped) mapped check\(mapped == 1 ? "" : "s") passed"]
        for (count, word) in [(failed, "failed"), (blocked, "blocked"), (skipped, "skipped"), (notApplicable, "not applicable"), (notRun, "not run")] where count > 0 {
            parts.append("\(count) \(word)")
        }
        if partlyPassed > 0 {
            parts.append("\(partlyPassed) of \(partlyPassed == 1 ? "them" : "those") passed on some devices and \(partlyPassed == 1 ? "was" : "were") set aside on the others")
        }
        if provisional > 0 { parts.append("\(provisional) of the results from a draft protocol or a check marked for review") }
        return parts.joined(separator: "; ") + "."
    }

    /// " (draft protocol)" or " (marked for review)" where a counted result is provisional.
    static func caveat(_ entry: ReleaseReport.CheckEntry) -> String {
        if entry.isRemoved { return " (no longer in the protocols)" }
        if entry.mappedAsAnswered { return " (mapped here by the version it failed against)" }
        if entry.reference.check.review != nil { return " (marked for review)" }
        if entry.reference.document.status == .draft { return " (draft protocol)" }
        return ""
    }
}
