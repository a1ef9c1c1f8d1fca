import CheckrunModel

/// A PostgreSQL server's address as a user gives it (`postgresql://user:password@host/db?…`),
/// and as checkrun shows it: never with its password.
package enum ServerAddressText {
    package static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// The address with any password left out (anything else is returned as it is), for a
    /// command checkrun suggests: libpq then reads the password from PGPASSWORD or ~/.pgpass.
    package static func withoutPassword(_ text: String) -> String {
        guard isServer(text) else { return text }
        var address = text
        if let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].lastIndex(of: "@"),
           let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":") {
            address.removeSubrange(colon..<at)
        }
        if let question = address.firstIndex(of: "?") {
            let parameters = address[address.index(after: question)...].split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
            address = String(address[..<question]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
        }
        return address
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
