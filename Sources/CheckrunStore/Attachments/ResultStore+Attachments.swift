import CheckrunModel
import Foundation

/// The bytes of a file the database now holds.
package struct StoredAttachment: Sendable, Equatable {
    package var hash: String
    package var size: Int
    package var mediaType: String
}

/// A file opened and hashed, ready to be stored (see `ResultStore.prepareAttachment`).
package struct PreparedAttachment {
    let file: AttachmentFile
    package let stored: StoredAttachment

    package func close() { file.close() }
}

/// Attachments' bytes, kept once each in the database under the SHA-256 of their content, so
/// one file still holds every answer and its evidence, and the record chain, which names each
/// attachment by that hash, covers the bytes too.
extension ResultStore {
    /// The default largest file accepted: a few minutes of screen recording.
    package static let defaultAttachmentLimit = 500_000_000
    /// The largest file kept: SQLite's limit on one row (SQLITE_MAX_LENGTH, 1,000,000,000
    /// bytes) less room for the row's other columns.
    package static let largestAttachmentLimit = 999_000_000

    /// Reads the file into the database, unless the same bytes are there already. Read twice:
    /// once to hash it (and tell its type), once inside the transaction that stores it,
    /// hashing again, so what is stored is exactly what was hashed; a file changed in between
    /// stores nothing. Memory stays at one piece of the file whatever its size.
    package func storeAttachment(path: String, limit: Int = defaultAttachmentLimit) throws -> StoredAttachment {
        let prepared = try Self.prepareAttachment(path: path, limit: limit)
        defer { prepared.close() }
        return try store(prepared)
    }

    /// The first read: opens and hashes the file, with no lock held, so a caller about to
    /// write (`record`, `amend`) does not keep other writers waiting while a long recording is
    /// read. Close the result when done.
    package static func prepareAttachment(path: String, limit: Int = defaultAttachmentLimit) throws -> PreparedAttachment {
        let file = try AttachmentFile(path: path, limit: min(limit, largestAttachmentLimit))
        var hasher = SHA256.Hasher()
        var prefix: [UInt8] = []
        do {
            try file.read { bytes in
                if prefix.count < MediaType.prefixLength { prefix += bytes.prefix(MediaType.prefixLength - prefix.count) }
                hasher.update(bytes)
            }
        } catch {
            file.close()
            throw error
        }
        return PreparedAttachment(file: file, stored: StoredAttachment(hash: hasher.finalHex(), size: file.size, mediaType: MediaType.sniff(prefix)))
    }

    /// The second read, inside a transaction (the caller's, when there is one): stores the
    /// bytes unless they are here already, hashing them again as they go in.
    package func store(_ prepared: PreparedAttachment) throws -> StoredAttachment {
        try database.transaction(.attachment(prepared.stored.hash)) {
            guard try storedSize(of: prepared.stored.hash) == nil else { return }
            try requireRoom(for: prepared)
            try insertAttachment(hash: prepared.stored.hash, size: prepared.stored.size) { write in try prepared.file.read(write) }
        }
        return prepared.stored
    }

    /// Stores bytes that arrive in pieces (from another database or an export), checking they
    /// give `hash`; nothing is stored when they do not. Runs inside the caller's transaction.
    func insertAttachment(hash: String, size: Int, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        guard let database = sqlite else { return try insertAttachmentPieces(hash: hash, size: size, produce) }
        try database.run("INSERT INTO attachment_files (hash, size, content) VALUES (?, ?, zeroblob(?))",
                         [.text(hash), .integer(Int64(size)), .integer(Int64(size))])
        let row = database.lastInsertedRowID
        var hasher = SHA256.Hasher()
        var written = 0
        try database.withBlob(table: "attachment_files", column: "content", rowID: row, writable: true) { blob in
            try produce { bytes in
                guard written + bytes.count <= size else { throw AttachmentError("the bytes of attachment \(hash.prefix(12)) are longer than their stated size") }
                try blob.write(bytes, at: written)
                hasher.update(bytes)
                written += bytes.count
            }
        }
        guard written == size, hasher.finalHex() == hash else {
            throw AttachmentError("the bytes of attachment \(hash.prefix(12)) changed while they were stored, or do not match their hash; nothing was stored")
        }
    }

    /// The stored size of the bytes with this hash; nil when they are not here.
    package func storedSize(of hash: String) throws -> Int? {
        try database.scalarInt("SELECT size FROM attachment_files WHERE hash = ?", [.text(hash)])
    }

    /// Hands the stored bytes to `body` a piece at a time; false when they are not here.
    @discardableResult
    package func readAttachment(hash: String, chunkSize: Int = AttachmentFile.chunkSize, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let database = sqlite else { return try readAttachmentPieces(hash: hash, chunkSize: chunkSize, body) }
        guard let row = try database.query("SELECT rowid FROM attachment_files WHERE hash = ?", [.text(hash)], { $0.int(0) }).first ?? nil else {
            return false
        }
        try database.withBlob(table: "attachment_files", column: "content", rowID: Int64(row), writable: false) { blob in
            var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
            var offset = 0
            while offset < blob.size {
                let count = min(buffer.count, blob.size - offset)
                try buffer.withUnsafeMutableBytes { try blob.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]), at: offset) }
                try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                offset += count
            }
        }
        return true
    }

    /// Every stored attachment's hash and size, in hash order.
    package func storedAttachments() throws -> [(hash: String, size: Int)] {
        try database.query("SELECT hash, size FROM attachment_files ORDER BY hash") { ($0.string(0) ?? "", $0.int(1) ?? 0) }
    }

    /// The size of the bytes stored under each hash named, where its pieces add up to the size
    /// its row states (the bytes are rehashed by `verify`, not here).
    func storedSizes(of named: [NamedAttachment]) throws -> [String: Int] {
        guard !named.isEmpty else { return [:] }
        let list = "[" + Set(named.map(\.hash)).map { JSONWriter.quoted($0) }.joined(separator: ",") + "]"
        var stored: [String: Int] = [:]
        let query = database.engine == .sqlite
            ? "SELECT hash, size, length(content) FROM attachment_files WHERE hash IN (SELECT value FROM json_each(?))"
            : PostgresStatements.storedSizes
        try database.forEach(query, [.text(list)]) { row in
            if let hash = row.string(0), let size = row.int(1), row.int(2) == size { stored[hash] = size }
        }
        return stored
    }

    /// Refuses, before a byte is written, a file the disk has no room for: stored, its bytes
    /// pass through the write-ahead log twice (as zeros, then as data) before the file takes
    /// them, and a disk filled part way leaves the log unable to fold back into the file.
    func requireRoom(for prepared: PreparedAttachment) throws {
        guard let database = sqlite else { return }
        let folder = FilePaths.folder(of: database.path)
        var space = statvfs()
        guard statvfs(folder, &space) == 0 else { return }
        let free = Int(space.f_bavail) * Int(space.f_frsize)
        let needed = prepared.stored.size * 3 + 16_000_000
        guard free >= needed else {
            throw AttachmentError("\(DisplayText.preview((prepared.file.path as NSString).lastPathComponent, limit: 80)) needs about \(Attachment.sizeText(needed)) free on the disk holding \(DisplayText.preview(database.name, limit: 200)) while it is stored, and \(Attachment.sizeText(free)) is free; free some space and attach it again. Nothing was attached, and every answer is kept")
        }
    }
}
