/// A check's result.
public enum Verdict: String, Sendable, CaseIterable, Codable {
    case pass, fail, blocked, skipped

    /// "passed", "failed", "blocked", "skipped": how a count of results reads.
    public var pastTense: String {
        switch self {
        case .pass: return "passed"
        case .fail: return "failed"
        case .blocked: return "blocked"
        case .skipped: return "skipped"
        }
    }
}

/// One expected outcome's result.
public enum OutcomeVerdict: String, Sendable, CaseIterable, Codable {
    case pass, fail
    case notApplicable = "na"

    /// The word a tester reads: "not applicable" rather than "na".
    public var spoken: String {
        switch self {
        case .pass: return "pass"
        case .fail: return "fail"
        case .notApplicable: return "not applicable"
        }
    }
}
