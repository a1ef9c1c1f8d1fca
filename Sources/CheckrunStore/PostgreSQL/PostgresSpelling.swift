import Foundation

/// The few spellings where the store's SQL (written as SQLite takes it) differs from what a
/// PostgreSQL server takes, translated once per statement text: `?` and `?N` placeholders
/// become `$N`, and `json_each(list)` becomes `checkrun_list(list)`, a function the PostgreSQL
/// schema defines with the same columns (`key` from 0, `value` as text), and an optional filter
/// `?N IS NULL` is given its type (text); `temp.` names PostgreSQL's `pg_temp`. Placeholders inside
/// quotes are left alone (the two names are replaced wherever they are: no string in the store
/// holds them). Statements that differ more than this are written twice, beside each other.
enum PostgresSpelling {
    static func translate(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var next = 1
        var inQuote = false
        var characters = Substring(sql)
        while let character = characters.first {
            characters = characters.dropFirst()
            if character == "'" { inQuote.toggle() }
            if inQuote || character != "?" {
                output.append(character)
                continue
            }
            let digits = characters.prefix { $0.isASCII && $0.isNumber }
            if let number = Int(digits) {
                // "?N IS NULL" alone tells the server nothing of the value's type; every such
                // optional filter in the store compares text.
                output += characters.dropFirst(digits.count).hasPrefix(" IS NULL") ? "CAST($\(number) AS TEXT)" : "$\(number)"
                next = max(next, number + 1)
                characters = characters.dropFirst(digits.count)
            } else {
                output += "$\(next)"
                next += 1
            }
        }
        // SQLite's schema of temporary tables is "temp", PostgreSQL's "pg_temp".
        return output.replacingOccurrences(of: "json_each(", with: "checkrun_list(")
            .replacingOccurrences(of: " temp.", with: " pg_temp.")
    }
}
