/// The formats `checkrun report` writes.
public enum ReportFormat: String, Sendable, CaseIterable {
    case markdown, html, json, csv, junit, openacr

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
