import CheckrunModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an export file's top-level object a value at a time, whatever its layout (checkrun
/// writes one session per line; `jq -c` leaves the whole file on one line): each element of
/// `sessions` is handed over as its own bytes, and nothing else is kept, so time and memory
/// grow with the largest session, not with the file.
struct ExportScanner {
    /// A value's bytes and where it starts in the file (line and column from 1).
    struct Value {
        var bytes: [UInt8]
        var line: Int
        var column: Int
    }

    private let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false
    /// Bytes dropped from the front of `buffer` so far, and where the current line began.
    private var dropped = 0
    private var line = 1
    private var lineStart = 0

    init(path: String) throws(ExportFileError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportFileError(description: "\(path): cannot read the file; check the path and its permissions") }
    }

    func close() { _ = Glibc.close(descriptor) }

    private func error(_ message: String, line: Int? = nil, column: Int? = nil) -> ExportFileError {
        ExportFileError(description: "\(path):\(line ?? self.line):\(column ?? self.column): \(message)")
    }

    private var column: Int { dropped + position - lineStart + 1 }

    /// Reads more of the file; false at its end.
    private mutating func fill() throws(ExportFileError) -> Bool {
        guard !ended else { return false }
        if position > 1 << 20 {
            buffer.removeSubrange(0..<position)
            dropped += position
            position = 0
        }
        let chunk = 1 << 20
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress.map { $0 + start }, chunk) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else { throw ExportFileError(description: "\(path): cannot read the file: \(String(cString: strerror(errno)))") }
        buffer.removeLast(chunk - count)
        if count == 0 { ended = true }
        return count > 0
    }

    /// The next byte that is not white space, without consuming it; nil at the end.
    mutating func peek() throws(ExportFileError) -> UInt8? {
        while true {
            while position < buffer.count {
                let byte = buffer[position]
                switch byte {
                case 0x20, 0x09, 0x0D: position += 1
                case 0x0A:
                    position += 1
                    line += 1
                    lineStart = dropped + position
                case 0xEF where dropped + position == 0: position += 3
                default: return byte
                }
            }
            guard try fill() else { return nil }
        }
    }

    /// Consumes `byte` after white space, or fails saying what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(ExportFileError) {
        guard try peek() == byte else { throw error("expected \(what); this is not a checkrun export") }
        position += 1
    }

    /// Consumes the next JSON value whole and returns its bytes. Its syntax is left to the
    /// parser; only its extent is found here (strings and nesting respected).
    mutating func value(limit: Int = Int.max) throws(ExportFileError) -> Value {
        guard let first = try peek() else { throw error("the file ends too soon; it is truncated") }
        let start = (line: line, column: column)
        var nesting = Nesting()
        let scalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
        // `position` stays at the value's first byte while it is scanned, so `fill` keeps it.
        var index = position
        scan: while true {
            while index < buffer.count {
                let byte = buffer[index]
                if scalar && Self.endsScalar(byte) { break scan }
                if byte == 0x0A { line += 1; lineStart = dropped + index + 1 }
                if nesting.inString && !nesting.escaped && byte != 0x5C && byte != 0x22 && byte != 0x0A {
                    // The body of a string, up to its next quote, backslash or line end, in one
                    // tight step: an export's attachment pieces are a megabyte of base64 each.
                    index = Self.plainStringEnd(buffer, from: index + 1)
                    if index - position > limit {
                        throw error("a value here is far larger than a checkrun export holds", line: start.line, column: start.column)
                    }
                    continue
                }
                if (nesting.inString || !scalar) && nesting.endsValue(after: byte) { index += 1; break scan }
                index += 1
                if index - position > limit {
                    throw error("a value here is far larger than a checkrun export holds", line: start.line, column: start.column)
                }
            }
            let scanned = index - position
            guard try fill() else {
                if scalar { break scan }
                throw error("the file ends inside a value that starts here; it is truncated", line: start.line, column: start.column)
            }
            index = position + scanned
        }
        let bytes = Array(buffer[position..<index])
        position = index
        return Value(bytes: bytes, line: start.line, column: start.column)
    }

    /// Where the scan of a string, an object or an array stands: whether it is inside a string
    /// (just after a backslash there), and how deeply nested.
    struct Nesting {
        var depth = 0
        var inString = false
        var escaped = false

        /// Takes the next byte of the value; true when that byte ends it.
        mutating func endsValue(after byte: UInt8) -> Bool {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 {
                    inString = false
                    return depth == 0
                }
                return false
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                return depth == 0
            default: break
            }
            return false
        }
    }

    /// The first index at or after `start` holding a quote, a backslash or a line end (or the end).
    private static func plainStringEnd(_ buffer: [UInt8], from start: Int) -> Int {
        buffer.withUnsafeBufferPointer { bytes in
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte == 0x0A { return index }
                index += 1
            }
            return index
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09: return true
        default: return false
        }
    }
}
