import CheckrunModel

/// The schema of an export file, embedded like the protocol schema (see `.ci/embed-data`).
package enum ExportSchema {
    package static var text: String { embeddedText }

    static let root: JSONNode = (try? JSONParser.parse(embeddedText)) ?? JSONNode(.bool(false))

    /// Validates a whole export document.
    static let document = JSONSchema(root)

    /// Validates one session entry, as checkrun writes one per line.
    static let sessionEntry = JSONSchema(JSONNode(.object([
        JSONMember("$ref", JSONNode(.string("#/$defs/sessionEntry"))),
        JSONMember("$defs", root["$defs"] ?? JSONNode(.object([]))),
    ])))

    /// Validates one piece of an attachment.
    static let attachmentPiece = JSONSchema(JSONNode(.object([
        JSONMember("$ref", JSONNode(.string("#/$defs/attachmentPiece"))),
        JSONMember("$defs", root["$defs"] ?? JSONNode(.object([]))),
    ])))
}
