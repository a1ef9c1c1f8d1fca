/// The formats `checkrun report` writes.
package enum ReportFormat: String, Sendable, CaseIterable {
    case markdown, html, json, csv, junit, openacr

    /// Only the HTML report charts every build; the others show the last step.
    package var history: ReleaseReport.History {
        self == .html ? .allBuilds : .lastTwoBuilds
    }

    /// The report in this format. A report written despite verification problems says so on
    /// its first lines in every format (JSON in its `verification` member, HTML as an alert).
    package func render(_ report: ReleaseReport) -> String {
        let banner = report.unverifiedBanner
        switch self {
        case .markdown: return (banner.map { "**\($0).**\n\n" } ?? "") + MarkdownReport.render(report)
        case .html: return HTMLReport.render(report)
        case .json: return JSONReport.render(report)
        case .csv: return (banner.map { "\"\($0)\"\r\n" } ?? "") + CSVReport.render(report)
        case .junit:
            let xml = JUnitReport.render(report)
            guard let banner, let end = xml.firstIndex(of: "\n") else { return xml }
            return xml[..<end] + "\n<!-- \(banner) -->" + xml[end...]
        case .openacr: return (banner.map { "# \($0)\n" } ?? "") + OpenACRReport.render(report)
        }
    }
}
