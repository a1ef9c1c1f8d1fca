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

    /// A server's value as text; nil for NULL.
    private static func text(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> String? {
        guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else { return nil }
        let count = Int(PQgetlength(result, row, column))
        return value.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
    }
    #endif

    package func isNull(_ index: Int32) -> Bool {
        switch source {
        case .sqlite(let statement): sqlite3_column_type(statement, index) == SQLITE_NULL
        #if PostgreSQL
        case .server(let result, let row): PQgetisnull(result, row, index) != 0
        #endif
        }
    }

    /// Text as stored, NUL characters included (String(cString:) would stop at the first).
    package func string(_ index: Int32) -> String? {
        switch source {
        case .sqlite(let statement):
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        #if PostgreSQL
        case .server(let result, let row):
            return Self.text(result, row, index)
        #endif
        }
    }

    /// Whether a column holds exactly `text`'s bytes, read in place: no string is made for a
    /// value that is only compared.
    package func hasText(_ index: Int32, equalTo text: String) -> Bool {
        switch source {
        case .sqlite(let statement):
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let stored = sqlite3_column_text(statement, index) else { return false }
            let count = Int(sqlite3_column_bytes(statement, index))
            var text = text
            return text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return count == 0 }
                return bytes.count == count && memcmp(base, stored, count) == 0
            }
        #if PostgreSQL
        case .server(let result, let row):
            return Self.text(result, row, index).map { $0.hasSameBytes(as: text) } ?? false
        #endif
        }
    }

    /// Whether a column holds an id spelled as checkrun stores ids, read in place.
    package func isStorageID(_ index: Int32) -> Bool {
        switch source {
        case .sqlite(let statement):
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let stored = sqlite3_column_text(statement, index) else { return false }
            return UUID.isStorageSpelling(UnsafeRawBufferPointer(start: stored, count: Int(sqlite3_column_bytes(statement, index))))
        #if PostgreSQL
        case .server(let result, let row):
            guard var text = Self.text(result, row, index) else { return false }
            return text.withUTF8 { UUID.isStorageSpelling(UnsafeRawBufferPointer($0)) }
        #endif
        }
    }

    /// A whole number only when the column holds one as a number. SQLite lets any column hold
    /// text, and reads text such as 'z' as 0: a place or sequence edited into text must not
    /// pass for a real one.
    package func storedInteger(_ index: Int32) -> Int? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_INTEGER ? Int(sqlite3_column_int64(statement, index)) : nil
        #if PostgreSQL
        case .server(let result, let row):
            Self.text(result, row, index).flatMap { Int($0) }
        #endif
        }
    }

    package func int(_ index: Int32) -> Int? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, index))
        #if PostgreSQL
        case .server(let result, let row):
            // Whole numbers as they are; a double only when it is one (never a trap on 1e300).
            Self.text(result, row, index).flatMap { Int($0) ?? Double($0).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? ($0 == "t" ? 1 : $0 == "f" ? 0 : nil) }
        #endif
        }
    }

    package func double(_ index: Int32) -> Double? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
        #if PostgreSQL
        case .server(let result, let row):
            Self.text(result, row, index).flatMap { Double($0) }
        #endif
        }
    }

    package func date(_ index: Int32) -> Date? {
        double(index).map { Date(timeIntervalSince1970: $0) }
    }
}
