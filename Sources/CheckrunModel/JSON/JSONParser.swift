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

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    /// The last location computed on the current line, so columns are counted incrementally
    /// (a long one-line document would otherwise cost quadratic time).
    var columnCacheIndex = 0
    var columnCacheValue = 1

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

    var location: SourceLocation {
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

    mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: location)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
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

    mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
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

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected word; did you mean \(word)? (JSON words are lower case: true, false, null)")
        }
        index += expected.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("the JSON is nested more than \(Self.maximumDepth) levels deep; a protocol file needs far fewer — is this the right file?")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
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

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
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
}
