import CheckrunModel

/// A database server's address given where a database file is expected (`--db`,
/// `CHECKRUN_DB`, a merge source): `postgresql://…` or `postgres://…`. This checkrun keeps
/// results in SQLite files only, so such an address is refused with a clear line, its
/// password never shown, rather than taken for a strangely named file.
enum ServerAddress {
    static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// The address with any password in it replaced by "…".
    static func masked(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return DisplayText.neutralised(text) }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var shown = text
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            shown.replaceSubrange(text.index(after: colon)..<at, with: "…")
        }
        var query = ""
        if let question = shown.firstIndex(of: "?") {
            query = shown[question...].split(separator: "&").map { $0.lowercased().hasPrefix("password=") || $0.lowercased().hasPrefix("?password=") ? ($0.hasPrefix("?") ? "?password=…" : "password=…") : String($0) }.joined(separator: "&")
            shown = String(shown[..<question])
        }
        return DisplayText.neutralised(shown + query)
    }

    static func refuse(_ text: String) throws {
        guard isServer(text) else { return }
        throw CommandFailure("\(masked(text)) is a PostgreSQL address; this checkrun keeps results in SQLite files only (a team store on PostgreSQL is not built yet). Name a database file, e.g. --db team.sqlite")
    }
}
