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

/// One row of a query result, read by column index, from either engine.
package struct Row {
    enum Source {
        /// A stepped SQLite statement: values are read in place.
        case sqlite(OpaquePointer)
        /// One row of a PostgreSQL result, every value as text (or nil for NULL).
        case text(TextRow)
    }

    let source: Source

    init(statement: OpaquePointer) { source = .sqlite(statement) }
    init(text: TextRow) { source = .text(text) }

    package func isNull(_ index: Int32) -> Bool {
        switch source {
        case .sqlite(let statement): sqlite3_column_type(statement, index) == SQLITE_NULL
        case .text(let row): row.value(index) == nil
        }
    }

    /// Text as stored, NUL characters included (String(cString:) would stop at the first).
    package func string(_ index: Int32) -> String? {
        switch source {
        case .sqlite(let statement):
            guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        case .text(let row):
            return row.value(index)
        }
    }

    package func int(_ index: Int32) -> Int? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, index))
        case .text(let row):
            // Whole numbers as they are; a double only when it is one (never a trap on 1e300).
            row.value(index).flatMap { Int($0) ?? Double($0).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? ($0 == "t" ? 1 : $0 == "f" ? 0 : nil) }
        }
    }

    package func double(_ index: Int32) -> Double? {
        switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
        case .text(let row):
            row.value(index).flatMap { Double($0) }
        }
    }

    package func date(_ index: Int32) -> Date? {
        double(index).map { Date(timeIntervalSince1970: $0) }
    }
}

/// A row whose values arrive as text: how PostgreSQL hands results over.
struct TextRow {
    let value: (Int32) -> String?
}
