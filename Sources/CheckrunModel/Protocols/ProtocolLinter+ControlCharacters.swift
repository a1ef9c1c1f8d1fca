extension ProtocolLinter {
    /// Every string in a protocol is shown to testers, in reports and on terminals. A control
    /// character or escape sequence in one could drive a terminal or hide text, and no catalog
    /// page needs one, so it is refused where it stands.
    func controlCharacterProblems(in node: JSONNode, at pointer: JSONPointer = .root) -> [SchemaViolation] {
        switch node.value {
        case .string(let text):
            guard let scalar = text.unicodeScalars.first(where: Self.isControl) else { return [] }
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

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
