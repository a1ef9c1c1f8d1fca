/// Why a JSON text could not be read, and where.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    package var message: String
    package var location: SourceLocation
}

/// A strict RFC 8259 parser that records the line and column of every value and key.
///
/// Foundation's parser gives neither positions nor the integer/number distinction, and it
/// accepts duplicate keys silently; a protocol file edited by hand needs all three.
package struct JSONParser {
    /// Deeper nesting than this is refused: no protocol needs it, and it keeps the parser's
    /// recursion far from the stack's limit.
    package static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    /// The last location computed on the current line, so columns are counted incrementally
    /// (a long one-line document would otherwise cost quadratic time).
    private var columnCacheIndex = 0
    private var columnCacheValue = 1

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses UTF-8 bytes. A leading byte-order mark is skipped.
    package static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        guard parser.index < bytes.count else {
            throw JSONSyntaxError(message: "the file holds no JSON value; a protocol file is one JSON object { … }", location: parser.location)
        }
        let node = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the end of the JSON value; remove it, or wrap several values in one object")
        }
        return node
    }

    private var location: SourceLocation {
        mutating get {
            if columnCacheIndex < lineStart || columnCacheIndex > index {
                columnCacheIndex = lineStart
                columnCacheValue = 1
            }
            var position = columnCacheIndex
            var column = columnCacheValue
            while position < index && position < bytes.count {
                if bytes[position] & 0xC0 != 0x80 { column += 1 }
                position += 1
            }
            columnCacheIndex = position
            columnCacheValue = column
            return SourceLocation(line: line, column: column)
        }
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard let byte = current else { throw error("the JSON ends too early; a value is missing") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(), at: start)
        case UInt8(ascii: "["): return JSONNode(try parseArray(), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(try parseNumber(), at: start)
        case UInt8(ascii: "'"): throw error("strings in JSON use double quotes \"…\", not single quotes")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            throw error("unexpected word; JSON's only words are true, false and null, in lower case, and text goes in double quotes")
        case UInt8(ascii: "]"), UInt8(ascii: "}"): throw error("a value is missing before '\(Character(Unicode.Scalar(byte)))'; remove the trailing comma")
        default: throw error("unexpected character \(describe(byte)); a JSON value starts with {, [, \", a digit, true, false or null")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected word; did you mean \(word)? (JSON words are lower case: true, false, null)")
        }
        index += expected.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("the JSON is nested more than \(Self.maximumDepth) levels deep; a protocol file needs far fewer — is this the right file?")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONMember] = []
        // Keys are compared by their UTF-8 bytes (JSON keys are sequences of code points, not
        // canonically equivalent text): a scan for small objects, an index for large ones.
        var seen: [[UInt8]: SourceLocation] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyLocation = location
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last ','") }
                if current == nil { throw error("the JSON ends inside an object; a '}' is missing") }
                throw error("expected a key in double quotes, e.g. \"id\"")
            }
            let key = try parseString()
            let earlier: SourceLocation?
            if members.count < 16 {
                earlier = members.first { $0.key.utf8.elementsEqual(key.utf8) }?.keyLocation
            } else {
                if seen.isEmpty { for member in members { seen[Array(member.key.utf8)] = member.keyLocation } }
                earlier = seen.updateValue(keyLocation, forKey: Array(key.utf8))
            }
            if let first = earlier {
                throw JSONSyntaxError(message: "duplicate key \"\(key)\" (first at line \(first.line)); each key may appear once in an object", location: keyLocation)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key, value, keyLocation: keyLocation))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw error("the JSON ends inside an object; a '}' is missing")
            default: throw error("expected ',' or '}' after the value of \"\(key)\"; a comma is probably missing")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            case nil: throw error("the JSON ends inside a list; a ']' is missing")
            default: throw error("expected ',' or ']' after a list item; a comma is probably missing")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
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

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
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

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
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

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
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

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
