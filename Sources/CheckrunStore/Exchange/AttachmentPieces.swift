import CheckrunModel
import Foundation

/// The `attachments` list of an export file, read a piece at a time: each attachment's
/// pieces are handed over as they are read, so nothing larger than one piece is held, and
/// pieces that are missing, out of order or beyond the stated size are refused with the line.
struct AttachmentPieces {
    struct Piece {
        var hash: String
        var size: Int
        var offset: Int
        var bytes: Data
        var line: Int
    }

    let path: String
    /// The piece read ahead: the first of the next attachment.
    private var pending: Piece?
    private var index = 0

    init(path: String) { self.path = path }

    mutating func read(_ scanner: inout ExportScanner, _ body: ((_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void)?) throws {
        try scanner.expect(UInt8(ascii: "["), "[ to begin the list of attachments")
        while let first = try next(&scanner) {
            guard first.offset == 0 else {
                throw failure(first.line, "attachment \(first.hash.prefix(12)) starts at byte \(first.offset); its first pieces are missing")
            }
            var offset = 0
            var piece: Piece? = first
            func handOver(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
                while let current = piece {
                    guard current.offset == offset, current.size == first.size else {
                        throw failure(current.line, "a piece of attachment \(first.hash.prefix(12)) is out of order (byte \(current.offset), expected \(offset))")
                    }
                    try current.bytes.withUnsafeBytes { try write($0) }
                    offset += current.bytes.count
                    piece = try following(first.hash, &scanner)
                }
            }
            if let body { try body(first.hash, first.size) { write in try handOver(write) } }
            // Whatever the receiver did not ask for (bytes it holds already) is read past.
            try handOver { _ in }
            guard offset == first.size else {
                throw failure(first.line, "attachment \(first.hash.prefix(12)) is cut short: \(offset) of its \(first.size) bytes are here")
            }
        }
        try scanner.expect(UInt8(ascii: "]"), "] to end the list of attachments")
    }

    /// The next piece, if it belongs to the attachment `hash`; otherwise it is kept for `next`.
    private mutating func following(_ hash: String, _ scanner: inout ExportScanner) throws -> Piece? {
        guard let piece = try next(&scanner) else { return nil }
        if piece.hash == hash && piece.offset > 0 { return piece }
        pending = piece
        return nil
    }

    private mutating func next(_ scanner: inout ExportScanner) throws -> Piece? {
        if let piece = pending {
            pending = nil
            return piece
        }
        guard try scanner.peek() != UInt8(ascii: "]") else { return nil }
        if index > 0 { try scanner.expect(UInt8(ascii: ","), "a comma or ] between attachments") }
        let value = try scanner.value(limit: 4 << 20)
        index += 1
        let node: JSONNode
        do { node = try JSONParser.parse(bytes: value.bytes) } catch {
            throw failure(value.line, "invalid JSON in a piece of an attachment: \(error.message)")
        }
        try ExportFileSource.problems(ExportSchema.attachmentPiece.validate(node), at: value, pointerPrefix: "/attachments/\(index - 1)", path: path)
        guard let hash = node["hash"]?.stringValue, let size = node["size"]?.intValue, let offset = node["offset"]?.intValue,
              let text = node["data"]?.stringValue, let bytes = Data(base64Encoded: text), !bytes.isEmpty else {
            throw failure(value.line, "a piece of an attachment holds no bytes, or bytes that are not base64")
        }
        guard offset + bytes.count <= size else {
            throw failure(value.line, "a piece of attachment \(hash.prefix(12)) goes past its stated size of \(size) bytes")
        }
        return Piece(hash: hash, size: size, offset: offset, bytes: bytes, line: value.line)
    }

    private func failure(_ line: Int, _ message: String) -> ExportFileError {
        ExportFileError(description: "\(path):\(line): \(message); this is not a valid checkrun export")
    }
}
