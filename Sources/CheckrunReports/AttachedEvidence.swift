import CheckrunModel
import CheckrunStore

/// How every report format names a result's attachments: one wording, and one place that
/// knows where each file was written (`report --attachments DIR`), so no format can link a
/// file that is not there or name one differently from the others.
package enum AttachedEvidence {
    /// The key of one attachment of one result, for `ReleaseReport.attachmentPaths`.
    package static func key(_ reported: ReportedResult, _ position: Int) -> String {
        reported.result.id.lowercasedText + "#\(position)"
    }

    /// Where the file was written (as a link from the report), when it was.
    static func path(_ report: ReleaseReport, _ reported: ReportedResult, _ position: Int) -> String? {
        report.attachmentPaths[key(reported, position)]
    }

    /// "shot.png (PNG image, 1.2 MB), expected outcome 2: The Pay button. SHA-256 2cb9…"
    static func sentence(_ attachment: Attachment, named: Bool = true) -> String {
        let place = attachment.outcome.map { ", expected outcome \($0)" } ?? ""
        let description = attachment.description.isEmpty ? "no description given" : attachment.description
        return (named ? attachment.name + " " : "") + "(\(MediaType.words(attachment.mediaType)), \(attachment.sizeText))\(place): \(description). SHA-256 \(attachment.hash)"
    }

    /// An image's text alternative: its description, or what is known of it without one.
    static func alternative(_ attachment: Attachment) -> String {
        attachment.description.isEmpty ? "Screenshot \(attachment.name), attached without a description" : attachment.description
    }

    /// The evidence of a failure in a sentence, for OpenACR's remarks: " Evidence: a.png (…); b.log (…)."
    static func remark(_ reported: ReportedResult) -> String {
        let attachments = reported.result.attachments
        guard !attachments.isEmpty else { return "" }
        return " Evidence: " + attachments.map { "\($0.name) (SHA-256 \($0.hash.prefix(16))…)" + ($0.description.isEmpty ? "" : ", \($0.description)") }.joined(separator: "; ") + "."
    }
}
