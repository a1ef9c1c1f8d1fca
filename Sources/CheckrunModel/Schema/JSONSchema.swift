import Foundation

/// One place where a document breaks its schema, with a message that says how to fix it.
package struct SchemaViolation: Sendable, Equatable {
    package var pointer: JSONPointer
    package var location: SourceLocation
    package var message: String
}

/// A validator for the part of JSON Schema 2020-12 that checkrun's schemas use.
///
/// Keywords it does not implement would be ignored silently by a validator, so the set it
/// implements is public, and a test proves every schema in `Schemas/` uses only those.
package struct JSONSchema: Sendable {
    /// Keywords that constrain an instance.
    package static let assertionKeywords: Set<String> = [
        "$ref", "type", "enum", "const",
        "properties", "required", "additionalProperties",
        "items", "minItems", "maxItems", "uniqueItems",
        "minLength", "maxLength", "pattern",
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "anyOf", "oneOf", "allOf",
    ]
    /// Keywords that only describe or organise: they never fail a document.
    package static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$defs", "definitions", "$comment", "title", "description", "default", "examples",
    ]
    package static var supportedKeywords: Set<String> { assertionKeywords.union(annotationKeywords) }

    package let root: JSONNode
    /// Every `#/…` reference the schema makes, resolved once.
    let references: [String: JSONNode]
    /// Every `pattern`, compiled once: compiling a regular expression per string checked
    /// dominated linting.
    let patterns: Patterns

    /// Compiled expressions, immutable once made, so safe to share for matching. Swift's own
    /// regular expressions: the first ICU expression a process compiles costs milliseconds of
    /// Unicode tables, a third of what `checkrun list` took.
    final class Patterns: @unchecked Sendable {
        let byText: [String: Regex<AnyRegexOutput>]
        init(_ byText: [String: Regex<AnyRegexOutput>]) { self.byText = byText }
    }

    package init(_ root: JSONNode) {
        self.root = root
        var references: [String: JSONNode] = [:]
        Self.collectReferences(root, root: root, into: &references)
        self.references = references
        var compiled: [String: Regex<AnyRegexOutput>] = [:]
        Self.collectPatterns(root, into: &compiled)
        self.patterns = Patterns(compiled)
    }

    private static func collectPatterns(_ node: JSONNode, into compiled: inout [String: Regex<AnyRegexOutput>]) {
        switch node.value {
        case .object(let members):
            for member in members {
                if member.key == "pattern", let text = member.value.stringValue, compiled[text] == nil,
                   let expression = try? Regex(text) {
                    compiled[text] = expression
                }
                collectPatterns(member.value, into: &compiled)
            }
        case .array(let items):
            for item in items { collectPatterns(item, into: &compiled) }
        default:
            break
        }
    }

    func matches(_ text: String, pattern: String) -> Bool {
        if let expression = patterns.byText[pattern] {
            return (try? expression.firstMatch(in: text)) != nil
        }
        // A pattern Swift cannot read: ICU's reading of it, as before.
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    private static func collectReferences(_ node: JSONNode, root: JSONNode, into references: inout [String: JSONNode]) {
        switch node.value {
        case .object(let members):
            for member in members {
                if member.key == "$ref", let reference = member.value.stringValue, references[reference] == nil,
                   let target = resolve(reference, in: root) {
                    references[reference] = target
                }
                collectReferences(member.value, root: root, into: &references)
            }
        case .array(let items):
            for item in items { collectReferences(item, root: root, into: &references) }
        default:
            break
        }
    }

    package func validate(_ instance: JSONNode) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        validate(instance, against: root, at: .root, description: nil, into: &violations)
        return violations
    }

    // MARK: - Keyword inventory

    /// Every keyword used in schema position anywhere in `schema` (not property names, not enum values).
    package static func keywordsUsed(in schema: JSONNode) -> Set<String> {
        var keywords: Set<String> = []
        collectKeywords(schema, into: &keywords)
        return keywords
    }

    private static func collectKeywords(_ schema: JSONNode, into keywords: inout Set<String>) {
        guard let members = schema.objectMembers else { return }
        for member in members {
            keywords.insert(member.key)
            switch member.key {
            case "properties", "$defs", "definitions":
                for child in member.value.objectMembers ?? [] { collectKeywords(child.value, into: &keywords) }
            case "items", "additionalProperties":
                collectKeywords(member.value, into: &keywords)
            case "anyOf", "oneOf", "allOf":
                for child in member.value.arrayValue ?? [] { collectKeywords(child, into: &keywords) }
            default:
                break
            }
        }
    }
}
