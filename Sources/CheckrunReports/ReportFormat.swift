/// The formats `checkrun report` writes.
public enum ReportFormat: String, Sendable, CaseIterable {
    case markdown, html, json, csv, junit, openacr

    /// Only the HTML report charts every build; the others show the last step.
    public var history: ReleaseReport.History {
        self == .html ? .allBuilds : .lastTwoBuilds
    }

    public func render(_ report: ReleaseReport) -> String {
        switch self {
        case .markdown: return MarkdownReport.render(report)
        case .html: return HTMLReport.render(report)
        case .json: return JSONReport.render(report)
        case .csv: return CSVReport.render(report)
        case .junit: return JUnitReport.render(report)
        case .openacr: return OpenACRReport.render(report)
        }
    }
}
