/// A line and column in a text file, both counted from 1. Columns count Unicode scalars,
/// so a message points at the character an editor shows, not at a byte.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it stood in its file, so validation errors can
/// name `file:line:column` as well as the JSON pointer.
package struct JSONNode: Sendable, Equatable {
    package var value: JSONValue
    package var location: SourceLocation

    package init(_ value: JSONValue, at location: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.value = value
        self.location = location
    }

    package static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.value == rhs.value }
}

/// One `"key": value` pair; objects keep their members in file order.
package struct JSONMember: Sendable, Equatable {
    package var key: String
    package var keyLocation: SourceLocation
    package var value: JSONNode

    package init(_ key: String, _ value: JSONNode, keyLocation: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }

    package static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key.unicodeScalars.elementsEqual(rhs.key.unicodeScalars) && lhs.value == rhs.value
    }
}

/// JSON as written: integers stay apart from other numbers (Foundation on Linux blurs them),
/// and strings compare by Unicode scalars, as JSON equality means.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): return Double(a) == b
        case let (.string(a), .string(b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in b.contains(member) }
        default: return false
        }
    }

    /// How a message names this kind of value to a person.
    package var spokenType: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

extension JSONNode {
    package var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    package var intValue: Int? {
        switch value {
        case .integer(let number): return number
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: return nil
        }
    }

    package var doubleValue: Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: return nil
        }
    }

    package var arrayValue: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    package var objectMembers: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The member named `key`, for objects; nil otherwise.
    package subscript(key: String) -> JSONNode? {
        objectMembers?.first { $0.key == key }?.value
    }

    package func member(_ key: String) -> JSONMember? {
        objectMembers?.first { $0.key == key }
    }
}
