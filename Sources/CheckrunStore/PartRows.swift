import CheckrunModel
import Foundation

/// One table of a result's parts (its outcome answers, counters, attachments or stopwatch
/// events) as rows: the one place that says which columns each part is stored in, so a
/// result written whole and a result written as its differences store the same values.
struct PartRows {
    let table: String
    let columns: [String]
    /// The column that, after `result_id`, makes each row's primary key.
    let keyColumn: String
    /// Each row's values in `columns` order, its key among them.
    let rows: [(key: SQLValue, values: [SQLValue])]

    /// The four tables' rows of `result`, stored under `id`, always in the same order.
    static func all(of result: CheckResult, id: SQLValue) -> [PartRows] {
        [outcomes(of: result, id: id), counters(of: result, id: id), attachments(of: result, id: id), stopwatch(of: result, id: id)]
    }

    private static func outcomes(of result: CheckResult, id: SQLValue) -> PartRows {
        PartRows(table: "outcome_answers", columns: ["result_id", "position", "verdict", "value", "note", "answered_at"], keyColumn: "position",
                 rows: result.outcomes.enumerated().compactMap { position, answer in
                     answer.map {
                         let key = SQLValue.integer(Int64(position))
                         return (key, [id, key, .text($0.verdict.rawValue), SQLValue($0.value), SQLValue($0.note), SQLValue($0.answeredAt)])
                     }
                 })
    }

    private static func counters(of result: CheckResult, id: SQLValue) -> PartRows {
        PartRows(table: "counter_values", columns: ["result_id", "counter", "value", "answered_at"], keyColumn: "counter",
                 rows: result.counters.sorted(by: { $0.key < $1.key }).map {
                     (.text($0.key), [id, .text($0.key), .integer(Int64($0.value.value)), SQLValue($0.value.answeredAt)])
                 })
    }

    private static func attachments(of result: CheckResult, id: SQLValue) -> PartRows {
        PartRows(table: "result_attachments", columns: ["result_id", "position", "hash", "name", "media_type", "size", "description", "outcome", "attached_at"],
                 keyColumn: "position",
                 rows: result.attachments.enumerated().map { position, attachment in
                     let key = SQLValue.integer(Int64(position))
                     return (key, [id, key, .text(attachment.hash), .text(attachment.name), .text(attachment.mediaType),
                                   .integer(Int64(attachment.size)), .text(attachment.description), SQLValue(attachment.outcome), SQLValue(attachment.attachedAt)])
                 })
    }

    private static func stopwatch(of result: CheckResult, id: SQLValue) -> PartRows {
        PartRows(table: "stopwatch_events", columns: ["result_id", "sequence", "kind", "at", "typed_seconds", "recorded_at"], keyColumn: "sequence",
                 rows: result.stopwatch.enumerated().map { sequence, event in
                     let key = SQLValue.integer(Int64(sequence))
                     return (key, [id, key, .text(event.kind.rawValue), .real(event.at), SQLValue(event.typedSeconds), SQLValue(event.recordedAt)])
                 })
    }

    /// What turns `earlier` (what the table holds for the result) into these rows: the keys
    /// no longer there, and the rows new or changed. Rows and keys are compared as stored:
    /// text by its bytes (Swift's `==` takes "é" and "e" with a combining accent for one) and
    /// numbers to their last bit, so no change is ever taken for none.
    func changes(since earlier: PartRows) -> (gone: [SQLValue], fresh: [[SQLValue]]) {
        let before = Dictionary(earlier.rows.map { (Self.storedBytes($0.key), $0.values) }, uniquingKeysWith: { first, _ in first })
        let keys = Set(rows.map { Self.storedBytes($0.key) })
        let gone = earlier.rows.filter { !keys.contains(Self.storedBytes($0.key)) }.map(\.key)
        let fresh = rows.filter { row in before[Self.storedBytes(row.key)].map { !Self.sameStored($0, row.values) } ?? true }.map(\.values)
        return (gone, fresh)
    }

    /// Inserts rows, or replaces the row already under their key: a row added by hand under a
    /// key the answer now fills cannot make the save fail.
    var upsertClause: String {
        let updates = columns.filter { $0 != "result_id" && $0 != keyColumn }.map { "\($0) = excluded.\($0)" }
        return " ON CONFLICT (result_id, \(keyColumn)) DO UPDATE SET " + updates.joined(separator: ", ")
    }

    /// A value as the bytes it is stored as, tagged by its type.
    private static func storedBytes(_ value: SQLValue) -> [UInt8] {
        switch value {
        case .integer(let number): [0x69] + withUnsafeBytes(of: number.littleEndian, Array.init)
        case .real(let number): [0x72] + withUnsafeBytes(of: number.bitPattern.littleEndian, Array.init)
        case .text(let text): [0x74] + Array(text.utf8)
        case .null: [0x6E]
        }
    }

    private static func sameStored(_ left: [SQLValue], _ right: [SQLValue]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { pair in
            switch pair {
            case let (.real(a), .real(b)): a.bitPattern == b.bitPattern
            case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
            default: pair.0 == pair.1
            }
        }
    }
}
