import CheckrunModel
import Foundation

/// Attachment bytes on a server: PostgreSQL has no incremental blob I/O, and one value of
/// hundreds of megabytes would be held whole in memory on both ends, so the bytes are kept as
/// numbered pieces of at most a megabyte (`attachment_pieces`), written and read one at a time.
/// Each piece travels as bytea's hex text, so no byte can be mistaken for the end of a string.
extension ResultStore {
    /// Stores the bytes `produce` hands over as pieces, checking they give `hash`; runs inside
    /// the caller's transaction, so bytes that do not match leave nothing behind.
    func insertAttachmentPieces(hash: String, size: Int, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try database.run("INSERT INTO attachment_files (hash, size) VALUES (?, ?)", [.text(hash), .integer(Int64(size))])
        var hasher = SHA256.Hasher()
        var written = 0
        var piece = 0
        var pending: [UInt8] = []
        pending.reserveCapacity(AttachmentFile.chunkSize)
        func flush() throws {
            guard !pending.isEmpty else { return }
            try database.run("INSERT INTO attachment_pieces (hash, piece, bytes) VALUES (?, ?, CAST(? AS BYTEA))",
                             [.text(hash), .integer(Int64(piece)), .text(Self.hexText(pending))])
            piece += 1
            pending.removeAll(keepingCapacity: true)
        }
        try produce { bytes in
            guard written + bytes.count <= size else { throw AttachmentError("the bytes of attachment \(hash.prefix(12)) are longer than their stated size") }
            hasher.update(bytes)
            written += bytes.count
            var rest = bytes[...]
            while !rest.isEmpty {
                let room = AttachmentFile.chunkSize - pending.count
                pending.append(contentsOf: rest.prefix(room))
                rest = rest.dropFirst(room)
                if pending.count == AttachmentFile.chunkSize { try flush() }
            }
        }
        try flush()
        guard written == size, hasher.finalHex() == hash else {
            throw AttachmentError("the bytes of attachment \(hash.prefix(12)) changed while they were stored, or do not match their hash; nothing was stored")
        }
    }

    /// Hands the stored bytes to `body` in order, `chunkSize` at a time (the last may be
    /// shorter), reading one stored piece per query; false when the attachment is not here.
    func readAttachmentPieces(hash: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let count = try database.scalarInt(
            "SELECT (SELECT count(*) FROM attachment_pieces p WHERE p.hash = f.hash) FROM attachment_files f WHERE f.hash = ?", [.text(hash)]) else {
            return false
        }
        let size = max(1, chunkSize)
        var pending: [UInt8] = []
        for piece in 0..<count {
            guard let text = try database.query("SELECT bytes FROM attachment_pieces WHERE hash = ? AND piece = ?",
                                                [.text(hash), .integer(Int64(piece))], { $0.string(0) }).first ?? nil,
                  let bytes = Self.bytes(hexText: text) else {
                throw StoreError("piece \(piece + 1) of attachment \(hash.prefix(12)) is missing or unreadable in \(database.name)")
            }
            pending += bytes
            var start = 0
            while pending.count - start >= size {
                try pending.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<start + size])) }
                start += size
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { try pending.withUnsafeBytes { try body($0) } }
        return true
    }

    /// bytea's hex input form: `\x` and two lower-case digits a byte.
    static func hexText(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 2 + bytes.count * 2) { buffer in
            buffer[0] = UInt8(ascii: "\\")
            buffer[1] = UInt8(ascii: "x")
            for (index, byte) in bytes.enumerated() {
                buffer[2 + index * 2] = digits[Int(byte >> 4)]
                buffer[3 + index * 2] = digits[Int(byte & 0x0F)]
            }
            return 2 + bytes.count * 2
        }
    }

    /// The bytes of bytea's hex output form; nil for anything else.
    static func bytes(hexText text: String) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: (utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes[(index - 2) / 2] = high << 4 | low
            index += 2
        }
        utf8.removeAll()
        return bytes
    }
}
