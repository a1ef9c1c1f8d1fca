/// A check's result.
package enum Verdict: String, Sendable, CaseIterable, Codable {
    case pass, fail, blocked, skipped

    /// Skipped or blocked: no answer on the app either way, so a failure before it stands.
    package var isSetAside: Bool { self == .skipped || self == .blocked }

    /// "passed", "failed", "blocked", "skipped": how a count of results reads.
    package var pastTense: String {
        switch self {
        case .pass: return "passed"
        case .fail: return "failed"
        case .blocked: return "blocked"
        case .skipped: return "skipped"
        }
    }
}

/// One expected outcome's result.
package enum OutcomeVerdict: String, Sendable, CaseIterable, Codable {
    case pass, fail
    case notApplicable = "na"

    /// The word a tester reads: "not applicable" rather than "na".
    package var spoken: String {
        switch self {
        case .pass: return "pass"
        case .fail: return "fail"
        case .notApplicable: return "not applicable"
        }
    }
}
