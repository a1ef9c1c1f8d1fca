extension ProtocolLinter {
    /// Every string in a protocol is shown to testers, in reports and on terminals. A control
    /// character or escape sequence in one could drive a terminal or hide text, and no catalog
    /// page needs one, so it is refused where it stands.
    func controlCharacterProblems(in node: JSONNode, at pointer: JSONPointer = .root) -> [SchemaViolation] {
        switch node.value {
        case .string(let text):
            guard let scalar = text.unicodeScalars.first(where: Self.isControl) else {
                // Spaces or invisible characters alone pass a schema's minLength, and showed a
                // tester, and a report, a title or an outcome with nothing in it.
                guard !text.isEmpty, !text.unicodeScalars.contains(where: Self.isVisible) else { return [] }
                return [SchemaViolation(pointer: pointer, location: node.location,
                    message: "the text is only spaces or invisible characters; write what a tester should read, or remove it")]
            }
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return [SchemaViolation(pointer: pointer, location: node.location,
                message: "the text holds a control character (\(code)); remove it: protocol text is shown on terminals and in reports")]
        case .array(let items):
            return items.enumerated().flatMap { controlCharacterProblems(in: $0.element, at: pointer.appending(String($0.offset))) }
        case .object(let members):
            return members.flatMap { controlCharacterProblems(in: $0.value, at: pointer.appending($0.key)) }
        default:
            return []
        }
    }

    /// What a terminal shows as a mark (`DisplayText.isMarked`): control characters, and the
    /// invisible direction controls that could reorder or hide a protocol's text.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        DisplayText.isMarked(scalar)
    }

    /// A character that shows on its own: not a space, a format character (a zero-width space,
    /// a joiner), a control, a character meant to be invisible (a Hangul filler), the blank
    /// Braille pattern, or a mark that only decorates another character (a combining accent
    /// alone shows nothing, or a dotted circle).
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .format, .control, .unassigned, .surrogate,
             .nonspacingMark, .enclosingMark:
            false
        default:
            !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint && scalar != "\u{2800}"
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
