import CSQLite
import Foundation

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

/// One row of a query result, read by column index.
package struct Row {
    let statement: OpaquePointer

    package func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// Text as stored, NUL characters included (String(cString:) would stop at the first).
    package func string(_ index: Int32) -> String? {
        guard !isNull(index), let text = sqlite3_column_text(statement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func int(_ index: Int32) -> Int? {
        isNull(index) ? nil : Int(sqlite3_column_int64(statement, index))
    }

    package func double(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(statement, index)
    }

    package func date(_ index: Int32) -> Date? {
        double(index).map { Date(timeIntervalSince1970: $0) }
    }
}
