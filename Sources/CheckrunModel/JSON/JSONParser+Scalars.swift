import Foundation

/// Strings (with their escapes and surrogate pairs) and numbers, byte by byte.
extension JSONParser {
    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // Most strings have no escape: decode them in one step from the bytes.
        let start = index
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
        if current == UInt8(ascii: "\"") {
            let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<index]), as: UTF8.self) }
            index += 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var runStart = start
        func flush(_ parser: JSONParser, upTo end: Int, into scalars: inout String.UnicodeScalarView) {
            if end > runStart {
                // Decoding from a contiguous buffer takes the standard library's fast path.
                let run = parser.bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[runStart..<end]), as: UTF8.self) }
                scalars.append(contentsOf: run.unicodeScalars)
            }
        }
        while true {
            guard let byte = current else { throw error("the string never ends; a closing '\"' is missing") }
            switch byte {
            case UInt8(ascii: "\""):
                flush(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(self, upTo: index, into: &scalars)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0x00..<0x20:
                if byte == 0x0A { throw error("the string runs past the end of the line; a closing '\"' is missing, or write a line break as \\n") }
                throw error("a control character (\(describe(byte))) inside a string must be escaped, e.g. \\t or \\u0009")
            default:
                index += 1
            }
        }
    }

    mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("the string never ends; a closing '\"' is missing") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a lone high surrogate \\u\(String(high, radix: 16)) must be followed by a low surrogate \\uDC00…\\uDFFF")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                    throw error("\\u\(String(low, radix: 16)) is not a low surrogate; the pair does not form a character")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw error("\\u\(String(high, radix: 16)) is a lone surrogate, not a character")
            }
            return scalar
        default:
            index -= 1
            throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))'; JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else {
                throw error("\\u must be followed by four hexadecimal digits")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw error("a number needs digits after '-'") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, isDigit(next) { throw error("numbers in JSON have no leading zeros; write \(String(decoding: bytes[start..<index], as: UTF8.self).dropLast())\(Character(Unicode.Scalar(next))) without the 0") }
        } else {
            while let byte = current, isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, isDigit(byte) else { throw error("a number needs digits after the decimal point") }
            while let byte = current, isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, isDigit(byte) else { throw error("a number needs digits in its exponent") }
            while let byte = current, isDigit(byte) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw error("the number \(text) is out of range") }
        return .number(number)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
