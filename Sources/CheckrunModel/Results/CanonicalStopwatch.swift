import Foundation

/// Reads a stopwatch member's value as `CheckResult.payload` lays it out, byte by byte:
///
///     [
///         {
///           "kind": "stop",
///           "at": 30.8,
///           "typedSeconds": null,
///           "recordedAt": 1700000601
///         }
///       ]
///
/// Anything else gives nil, and the caller parses the text as JSON instead; numbers are read as
/// `JSONParser` reads them, so both ways give the same events.
enum CanonicalStopwatch {
    static func events(_ value: UnsafeRawBufferPointer) -> [StopwatchEvent]? {
        var cursor = Cursor(bytes: value)
        if cursor.skip("[]") { return cursor.atEnd ? [] : nil }
        guard cursor.skip("[") else { return nil }
        var events: [StopwatchEvent] = []
        repeat {
            guard cursor.skip("\n    {\n      \"kind\": \""), let kind = cursor.text(until: UInt8(ascii: "\"")).flatMap(StopwatchEvent.Kind.init(rawValue:)),
                  cursor.skip("\",\n      \"at\": "), let at = cursor.number(until: UInt8(ascii: ",")),
                  cursor.skip(",\n      \"typedSeconds\": ") else { return nil }
            var typed: Double?
            if !cursor.skip("null") {
                guard let seconds = cursor.number(until: UInt8(ascii: ",")) else { return nil }
                typed = seconds
            }
            guard cursor.skip(",\n      \"recordedAt\": "), let recordedAt = cursor.number(until: UInt8(ascii: "\n")), cursor.skip("\n    }") else { return nil }
            events.append(StopwatchEvent(kind, at: at, typedSeconds: typed, recordedAt: Date(timeIntervalSince1970: recordedAt)))
        } while cursor.skip(",")
        return cursor.skip("\n  ]") && cursor.atEnd ? events : nil
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var atEnd: Bool { offset == bytes.count }

        /// Steps over `literal` when the text goes on with it.
        mutating func skip(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - offset >= count, let base = bytes.baseAddress,
                  memcmp(base + offset, literal.utf8Start, count) == 0 else { return false }
            offset += count
            return true
        }

        /// The text up to `terminator`, which is left to read; nil when it never comes.
        mutating func text(until terminator: UInt8) -> String? {
            guard let end = bytes[offset...].firstIndex(of: terminator) else { return nil }
            defer { offset = end }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }

        /// A JSON number up to `terminator`, read as `JSONParser` reads one; nil for anything else.
        mutating func number(until terminator: UInt8) -> Double? {
            guard let text = text(until: terminator), Self.isJSONNumber(Array(text.utf8)),
                  let number = Double(text), number.isFinite else { return nil }
            return number
        }

        /// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        static func isJSONNumber(_ bytes: [UInt8]) -> Bool {
            var index = 0
            func digits() -> Int {
                let start = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - start
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let leading = index
            guard digits() > 0, bytes[leading] != UInt8(ascii: "0") || index == leading + 1 else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            return index == bytes.count
        }
    }
}
