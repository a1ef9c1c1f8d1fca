/// An RFC 6901 JSON pointer such as `/checks/0/expected/1`, built up while walking a document.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    package private(set) var tokens: [String]

    package init(_ tokens: [String] = []) {
        self.tokens = tokens
    }

    package static let root = JSONPointer()

    package func appending(_ key: String) -> JSONPointer {
        JSONPointer(tokens + [key])
    }

    package func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens + [String(index)])
    }

    /// The root is written `/` in messages, which reads better than the empty string RFC 6901 uses.
    package var description: String {
        if tokens.isEmpty { return "/" }
        return tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }
}

import Foundation
