import Foundation

/// A file a tester attached to a result as evidence: a screenshot, a recording, a log. The
/// result names it by the SHA-256 of its bytes, which the database keeps once however often
/// the file is attached, so the record chain covers exactly these bytes.
package struct Attachment: Sendable, Equatable {
    /// SHA-256 of the bytes, lower-case hex.
    package var hash: String
    /// The file's name when it was attached (its last path component), for people and for
    /// the names files are extracted under.
    package var name: String
    /// What the bytes are, sniffed from the bytes themselves (see `MediaType`).
    package var mediaType: String
    package var size: Int
    /// What it shows, in the tester's words: an image's text alternative in the HTML report.
    package var description: String
    /// The expected outcome it belongs to, numbered from 1 as testers see them; nil when it
    /// belongs to the check as a whole.
    package var outcome: Int?
    package var attachedAt: Date

    package init(hash: String, name: String, mediaType: String, size: Int, description: String, outcome: Int?, attachedAt: Date) {
        self.hash = hash
        self.name = name
        self.mediaType = mediaType
        self.size = size
        self.description = description
        self.outcome = outcome
        self.attachedAt = attachedAt
    }

    /// Whether the file is a picture a browser shows inline.
    package var isImage: Bool { ["image/png", "image/jpeg", "image/gif"].contains(mediaType) }

    /// The size in words: "1.2 MB", "340 KB", "12 bytes".
    package var sizeText: String { Self.sizeText(size) }

    package static func sizeText(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        func rounded(_ value: Double) -> Double { value < 10 ? (value * 10).rounded() / 10 : value.rounded() }
        // The unit steps up on the rounded figure: 999,950 bytes is "1 MB", not "1000 KB".
        while rounded(value) >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let rounded = rounded(value)
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }
}
