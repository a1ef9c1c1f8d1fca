import Foundation

/// Ids for protocols and checks: lower-case ASCII letters and digits joined by single hyphens.
public enum Slug {
    public static let pattern = "^[a-z0-9]+(-[a-z0-9]+)*$"

    /// The slug of a title, e.g. `Voice Control, "Show numbers"` → `voice-control-show-numbers`.
    /// Accents are folded (é → e) so that ids stay stable and typeable.
    public static func make(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        return slug.lowercased()
    }

    public static func isValid(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
