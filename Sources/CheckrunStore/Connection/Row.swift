import CSQLite
import CheckrunModel
import Foundation
#if PostgreSQL
import CLibPQ
#endif

/// A value bound to, or read from, an SQL statement.
package enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    package init(_ value: Date?) { self = value.map { .real($0.timeIntervalSince1970) } ?? .null }

    /// Ids as the statements take a list of them (`json_each(?)`, a server's `checkrun_list`):
    /// a JSON list of their stored spellings, in the order given.
    static func idList<Ids: Sequence>(_ ids: Ids) -> SQLValue where Ids.Element == UUID {
        .text("[" + ids.map { "\"\($0.storageText)\"" }.joined(separator: ",") + "]")
    }

    /// Texts (build labels) as the statements take a list of them: a JSON list, in the order given.
    static func textList<Texts: Sequence>(_ texts: Texts) -> SQLValue where Texts.Element == String {
        .text(JSONWriter.compact(.array(texts.map { JSONNode(.string($0)) })))
    }
}

/// One row of a query result, read by column index, from either engine.
package struct Row {
    enum Source {
        /// A stepped SQLite statement: values are read in place.
        case sqlite(OpaquePointer)
        #if PostgreSQL
        /// One row of a PostgreSQL result (the result and the row's number): every value is
        /// text, read in place when asked for.
        case server(OpaquePointer, Int32)
        #endif
    }

    let source: Source

    init(statement: OpaquePointer) { source = .sqlite(statement) }
    #if PostgreSQL
    init(result: OpaquePointer, row: Int32) { source = .server(result, row) }
    #endif

    package func isNull(_ index: Int32) -> Bool {
        switch source {
        case .sqlite(let statement): sqlite3_column_type(statement, index) == SQLITE_NULL
        #if PostgreSQL
        case .server(let result, let row): PQgetisnull(result, row, index) != 0
        #endif
        }
    }

    /// A text column's bytes where the engine keeps them, for the length of `body` only; nil
    /// for NULL. Verification reads every record this way: no string is made of a value that
    /// is only hashed or compared.
    ///
    /// In SQLite, a value stored as bytes (a BLOB) is no text either: checkrun writes text only,
    /// and SQL compares a BLOB with no text, so a label cast to bytes by hand dropped its session
    /// out of every `release = ?` while it read, and hashed, as the text it was.
    package func withText<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        switch source {
        case .sqlite(let statement):
            // The type first: asking for text converts a number in place.
            let type = sqlite3_column_type(statement, index)
            guard type != SQLITE_NULL, type != SQLITE_BLOB, let text = sqlite3_column_text(statement, index) else { return nil }
            return try body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))))
        #if PostgreSQL
        case .server(let result, let row):
            guard PQgetisnull(result, row, index) == 0, let value = PQgetvalue(result, row, index) else { return nil }
            return try body(UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, index))))
        #endif
        }
    }

    /// `withText`, with NULL read as empty text.
    package func withTextOrEmpty<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try withText(index, body) ?? body(UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Text as stored, NUL characters included (String(cString:) would stop at the first).
    package func string(_ index: Int32) -> String? {
        withText(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a column holds exactly `text`'s bytes, read in place: no string is made for a
    /// value that is only compared.
    package func hasText(_ index: Int32, equalTo text: String) -> Bool {
        withText(index) { stored in
            var text = text
            return text.withUTF8 { UnsafeRawBufferPointer($0).hasSameBytes(as: stored) }
        } ?? false
    }

    /// Whether a column holds an id spelled as checkrun stores ids, read in place.
    package func isStorageID(_ index: Int32) -> Bool {
        withText(index) { UUID.isStorageSpelling($0) } ?? false
    }

    /// A whole number only when the column holds one as a number. SQLite lets any column hold
    /// text, and reads text such as 'z' as 0: a place or sequence edited into text must not
    /// pass for a real one.
    package func storedInteger(_ index: Int32) -> Int? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_INTEGER ? Int(sqlite3_column_int64(statement, index)) : nil
        #if PostgreSQL
        case .server:
            string(index).flatMap { Int($0) }
        #endif
        }
    }

    package func int(_ index: Int32) -> Int? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, index))
        #if PostgreSQL
        case .server:
            // Whole numbers as they are; a double only when it is one (never a trap on 1e300).
            string(index).flatMap { Int($0) ?? Double($0).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? ($0 == "t" ? 1 : $0 == "f" ? 0 : nil) }
        #endif
        }
    }

    package func double(_ index: Int32) -> Double? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
        #if PostgreSQL
        case .server:
            string(index).flatMap { Double($0) }
        #endif
        }
    }

    package func date(_ index: Int32) -> Date? {
        double(index).map { Date(timeIntervalSince1970: $0) }
    }
}
