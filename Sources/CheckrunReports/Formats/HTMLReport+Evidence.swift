import CheckrunModel
import CheckrunStore
import Foundation

/// A check's evidence on the HTML page: with the files written beside the report, pictures
/// shown in the page (sized to it, their descriptions as text alternatives) and recordings
/// and logs linked; without them, each file named with its type, size, description and hash.
extension HTMLReport {
    static func evidenceList(_ report: ReleaseReport, _ results: [ReportedResult], title: String, headingLevel: Int) -> [String] {
        let h = Escaping.html
        let items = results.flatMap { reported in reported.result.attachments.indices.map { (reported, $0) } }
        guard !items.isEmpty else { return [] }
        var out = ["<h\(headingLevel)>\(h(title))</h\(headingLevel)>", "<ul class=\"evidence\">"]
        for (reported, position) in items {
            let attachment = reported.result.attachments[position]
            let whose = "\(reported.testedOn.isEmpty ? "unnamed device" : reported.testedOn), build \(reported.build)"
                + (attachment.outcome.map { ", expected outcome \($0)" } ?? "")
            let facts = "\(MediaType.words(attachment.mediaType)), \(attachment.sizeText); \(whose)"
            let hash = "<span class=\"hash\">SHA-256 <code>\(h(attachment.hash))</code></span>"
            let description = attachment.description.isEmpty ? "No description given." : h(attachment.description) + "."
            guard let path = AttachedEvidence.path(report, reported, position).map(link) else {
                out.append("<li dir=\"auto\">\(h(attachment.name)) (\(h(facts))): \(description) \(hash)</li>")
                continue
            }
            if attachment.isImage {
                // The description is the picture's text alternative, and is shown under it too,
                // so a sighted reader sees what the tester claimed it shows.
                out.append("<li dir=\"auto\"><figure><img src=\"\(h(path))\" alt=\"\(h(AttachedEvidence.alternative(attachment)))\">"
                    + "<figcaption dir=\"auto\">\(description) <a href=\"\(h(path))\">\(h(attachment.name))</a> (\(h(facts))). \(hash)</figcaption></figure></li>")
            } else {
                out.append("<li dir=\"auto\"><a href=\"\(h(path))\">\(h(attachment.name))</a> (\(h(facts))): \(description) \(hash)</li>")
            }
        }
        out.append("</ul>")
        return out
    }

    /// A path as a relative URL: each part percent-encoded, the slashes kept.
    private static func link(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0)
        }.joined(separator: "/")
    }
}
