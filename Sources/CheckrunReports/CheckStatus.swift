import CheckrunModel
import CheckrunStore

/// A check's standing in the release, across devices.
package enum CheckStatus: String, Sendable, CaseIterable {
    case passed, failed, blocked, skipped
    case notApplicable = "not applicable"
    case notRun = "not run"

    /// One status for a check's latest results, one per device. A device where every answered
    /// outcome was not applicable adds nothing; where that is every device, the check is not
    /// applicable.
    static func combining(_ results: [ReportedResult]) -> CheckStatus {
        let applicable = results.filter { !$0.result.passedOnlyAsNotApplicable }
        if applicable.isEmpty && !results.isEmpty { return .notApplicable }
        return combining(applicable.compactMap(\.standing))
    }

    /// How the report counts one result: its standing (a failure behind a skip or block is a
    /// failure), not applicable when no outcome applied, "in progress" when unfinished. The CSV
    /// and JSON give it beside the recorded verdict, so no reader has to work it out again.
    static func countedAs(_ reported: ReportedResult) -> String {
        guard reported.result.verdict != nil else { return "in progress" }
        return combining([reported]).rawValue
    }

    /// One status for several devices: any failure fails the check, then blocked, then
    /// skipped; it passed only when it passed on every device (a pass beside a skip is no
    /// evidence that the check passes everywhere).
    static func combining(_ verdicts: [Verdict]) -> CheckStatus {
        if verdicts.isEmpty { return .notRun }
        if verdicts.contains(.fail) { return .failed }
        if verdicts.contains(.blocked) { return .blocked }
        if verdicts.contains(.skipped) { return .skipped }
        return .passed
    }
}
