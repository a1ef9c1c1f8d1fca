/// VPAT / OpenACR conformance terms.
package enum Conformance: String, Sendable {
    case supports = "Supports"
    case partiallySupports = "Partially Supports"
    case doesNotSupport = "Does Not Support"
    /// Every mapped check was answered not applicable on every device.
    case notApplicable = "Not Applicable"
    /// Some mapped checks passed, none failed, and the rest were not run, skipped or blocked:
    /// not enough evidence for Supports, and no evidence against it.
    case incomplete = "Incomplete"
    case notEvaluated = "Not Evaluated"

    /// The OpenACR catalog's term id.
    package var openACRLevel: String {
        switch self {
        case .supports: return "supports"
        case .partiallySupports: return "partially-supports"
        case .doesNotSupport: return "does-not-support"
        case .notApplicable: return "not-applicable"
        // OpenACR has no term for partial evidence: the level is left for the lead to decide.
        case .incomplete: return ""
        case .notEvaluated: return "not-evaluated"
        }
    }
}
