import CheckrunModel

/// A PostgreSQL server's address as a user gives it (`postgresql://user:password@host/db?…`),
/// and as checkrun shows it: never with its password.
package enum ServerAddressText {
    package static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// The address with any password replaced by "…" (in the user part and as a parameter),
    /// its control characters made visible.
    package static func masked(_ uri: String) -> String {
        var shown = uri
        // The user part ends at the last "@": a password typed without percent-encoding may
        // hold "/", "?" or "@" itself, and must be masked whole.
        if let schemeEnd = uri.range(of: "://"), let at = uri[schemeEnd.upperBound...].lastIndex(of: "@"),
           let colon = uri[schemeEnd.upperBound..<at].firstIndex(of: ":") {
            shown.replaceSubrange(uri.index(after: colon)..<at, with: "…")
        }
        if let question = shown.firstIndex(of: "?") {
            let parameters = shown[shown.index(after: question)...].split(separator: "&").map { part in
                part.lowercased().hasPrefix("password=") ? "password=…" : String(part)
            }
            shown = String(shown[...question]) + parameters.joined(separator: "&")
        }
        return DisplayText.neutralised(shown)
    }
}
