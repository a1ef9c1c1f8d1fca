import CheckrunModel
import Foundation

extension ResultStore {
    /// Whether a session's labels or records hold a NUL, which PostgreSQL keeps in no text:
    /// found before anything is written, rather than at the session's insert, where the merge
    /// would stop half way and promise that running it again completes it.
    static func holdsNUL(_ entry: SessionEntry) -> Bool {
        escapesNUL(entry.session.canonicalText) || entry.records.contains { escapesNUL($0.payload) || $0.reason?.utf8.contains(0) == true }
    }

    /// Whether a record's JSON text holds `\u0000`, a NUL escaped (not a backslash typed before
    /// "u0000", which is `\\u0000`: an odd run of backslashes begins an escape).
    static func escapesNUL(_ payload: String) -> Bool {
        var backslashes = 0
        var bytes = payload.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "\\") { backslashes += 1; continue }
            if byte == UInt8(ascii: "u") && backslashes % 2 == 1 {
                var digits: [UInt8] = []
                while digits.count < 4, let digit = bytes.next() { digits.append(digit) }
                if digits == Array("0000".utf8) { return true }
            }
            backslashes = 0
        }
        return false
    }
}
