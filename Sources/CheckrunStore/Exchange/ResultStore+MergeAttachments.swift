import CheckrunModel
import Foundation

/// A merge's handling of attachments: every piece checked before anything is written, the
/// bytes written before the records that name them, bytes already here never copied again.
extension ResultStore {
    /// First pass: each attachment the source carries gives its stated size and hash.
    func checkAttachments(of source: any SessionSource) throws {
        try source.forEachAttachment { hash, size, produce in
            var hasher = SHA256.Hasher()
            var count = 0
            try produce { bytes in
                hasher.update(bytes)
                count += bytes.count
            }
            guard count == size, hasher.finalHex() == hash else {
                throw MergeConflict(description: "\(source.name): the bytes of attachment \(hash.prefix(12)) do not give its hash; nothing was merged")
            }
            try database.run("INSERT INTO temp.merge_attachments (hash, size) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING", [.text(hash), SQLValue(size)])
        }
    }

    /// Refuses a merge in which a record names an attachment whose bytes neither the sources
    /// nor this database hold: merged, its evidence would be missing.
    func requireNamedAttachments() throws {
        let missing = try database.query(
            """
            SELECT hash, place FROM temp.merge_named
            WHERE hash NOT IN (SELECT hash FROM temp.merge_attachments) AND hash NOT IN (SELECT hash FROM attachment_files) LIMIT 1
            """) { ($0.string(0) ?? "", $0.string(1) ?? "") }
        if let (hash, place) = missing.first {
            throw MergeConflict(description: "\(place) names attachment \(hash.prefix(12)), whose bytes are not in what is being merged; nothing was merged (export again with a checkrun that carries attachments)")
        }
        // The size a record states is the size of the bytes its hash names: one forged with
        // its chain recomputed would pass here and refuse every report after.
        let misstated = try database.query(
            """
            SELECT n.hash, n.place, n.size, coalesce((SELECT a.size FROM temp.merge_attachments a WHERE a.hash = n.hash),
                                                     (SELECT f.size FROM attachment_files f WHERE f.hash = n.hash)) AS stored
            FROM temp.merge_named n
            WHERE n.size <> coalesce((SELECT a.size FROM temp.merge_attachments a WHERE a.hash = n.hash),
                                     (SELECT f.size FROM attachment_files f WHERE f.hash = n.hash))
            LIMIT 1
            """) { ($0.string(0) ?? "", $0.string(1) ?? "", $0.int(2) ?? 0, $0.int(3) ?? 0) }
        if let (hash, place, size, stored) = misstated.first {
            throw MergeConflict(description: "\(place) names attachment \(hash.prefix(12)) at \(size) bytes, but its bytes are \(stored): the record was not written by checkrun; nothing was merged")
        }
    }

    /// Second pass: stores each attachment not here yet that a merged record names (bytes no
    /// record names are not taken in), one transaction each, checking its hash again as it is
    /// written. Returns how many were added.
    func writeAttachments(of source: any SessionSource) throws -> Int {
        var added = 0
        try source.forEachAttachment { hash, size, produce in
            guard try database.scalarInt("SELECT 1 FROM temp.merge_named WHERE hash = ? LIMIT 1", [.text(hash)]) != nil else { return }
            do {
                // Looked for under the lock on these bytes: another merge may be storing them.
                let stored = try database.transaction(.attachment(hash)) { () throws -> Bool in
                    guard try storedSize(of: hash) == nil else { return false }
                    try insertAttachment(hash: hash, size: size, produce)
                    return true
                }
                if stored { added += 1 }
            } catch let error as AttachmentError {
                throw StoreError("\(source.name) changed while it was being merged (\(error.description)); sessions merged before it are kept whole, and running the same merge again completes it")
            }
        }
        return added
    }
}
