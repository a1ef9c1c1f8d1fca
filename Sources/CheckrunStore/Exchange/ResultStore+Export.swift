import CheckrunModel
import Foundation

/// What an export wrote.
package struct ExportCounts: Sendable, Equatable {
    package var sessions = 0
    package var records = 0
    package var attachments = 0
}

extension ResultStore {
    /// Every session (of one release, or all) with its records, one at a time.
    package func forEachSessionEntry(release: String?, _ body: (SessionEntry) throws -> Void) throws {
        let sessions = try database.query(
            "SELECT id FROM sessions WHERE ?1 IS NULL OR release = ?1 ORDER BY started_at, id", [SQLValue(release)]
        ) { $0.string(0).flatMap(UUID.init(text:)) }
        for case let id? in sessions {
            guard let session = try session(id: id) else { continue }
            var records: [Record] = []
            try forEachRecord(inSession: id) { records.append($0) }
            try body(SessionEntry(session: session, records: records))
        }
    }

    /// The export format written: 2 carries payloads as the exact text that was hashed; 3 adds
    /// the bytes of attachments, and is written only when there are any, so an export without
    /// them still merges into a checkrun that knows version 2 only.
    package static let exportVersion = 3

    /// Bytes of an attachment per export entry: about 1 MB once in base64, so an export of
    /// large recordings is written and read a small piece at a time.
    static let exportChunkSize = 768 * 1024

    /// Writes sessions, records and the attachments they name in the export format, one
    /// session or one piece of an attachment per line, handing the text to `write` a piece at
    /// a time (the caller owns the file, so every file has one writer). Attachments come
    /// before sessions, so a merge stores the bytes before the records that name them.
    package func export(release: String?, write: (String) throws -> Void) throws -> ExportCounts {
        var counts = ExportCounts()
        let attachments = try exportedAttachments(release: release)
        let version = attachments.isEmpty ? 2 : Self.exportVersion
        try write("{\"format\": \"checkrun-export\", \"version\": \(version), \"exportedAt\": \(JSONWriter.quoted(Timestamps.iso8601(Date()))), \"release\": \(release.map(JSONWriter.quoted) ?? "null"), ")
        var versions: [JSONNode] = []
        try forEachProtocolVersion { version in
            versions.append(JSONNode(.object([JSONMember("hash", JSONNode(.string(version.hash))), JSONMember("protocol", JSONNode(.string(version.protocolID))),
                                              JSONMember("content", JSONNode(.string(version.content)))])))
        }
        try write("\"protocols\": " + JSONWriter.compact(.array(versions)) + ", " + (attachments.isEmpty ? "" : "\"attachments\": ["))
        var first = true
        try withoutActuallyEscaping(write) { write in
            try forEach(attachments) { hash, size, produce in
                counts.attachments += 1
                var offset = 0
                try produce { bytes in
                    let data = Data(bytes).base64EncodedString()
                    try write((first ? "\n" : ",\n") + "{\"hash\": \"\(hash)\", \"size\": \(size), \"offset\": \(offset), \"data\": \"\(data)\"}")
                    first = false
                    offset += bytes.count
                }
            }
        }
        try write((attachments.isEmpty ? "" : (first ? "" : "\n") + "], ") + "\"sessions\": [\n")
        first = true
        try forEachSessionEntry(release: release) { entry in
            try write((first ? "" : ",\n") + JSONWriter.compact(entry.json))
            first = false
            counts.sessions += 1
            counts.records += entry.records.count
        }
        try write("\n]}\n")
        return counts
    }

    /// Hands over each stored attachment that the records of `release`'s sessions (or of every
    /// session) name, withdrawn ones too since their records stay; `produce` streams its bytes
    /// in pieces of `exportChunkSize`. Bytes no record names are not handed over.
    func forEachAttachment(
        release: String?, _ body: (_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void
    ) throws {
        try forEach(try exportedAttachments(release: release), body)
    }

    private func forEach(_ attachments: [(hash: String, size: Int)], _ body: (_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void) throws {
        for (hash, size) in attachments {
            try body(hash, size) { write in
                try readAttachment(hash: hash, chunkSize: Self.exportChunkSize, write)
            }
        }
    }

    /// The stored attachments the records of `release`'s sessions (or of all) name.
    private func exportedAttachments(release: String?) throws -> [(hash: String, size: Int)] {
        var named = Set<String>()
        try database.forEach(
            "SELECT r.payload, r.session_id FROM records r JOIN sessions s ON s.id = r.session_id WHERE ?1 IS NULL OR s.release = ?1", [SQLValue(release)]
        ) { row in
            guard let payload = row.string(0), let session = row.string(1).flatMap(UUID.init(text:)),
                  let result = ChainCheck.resultListingAttachments(payload, sessionID: session) else { return }
            for attachment in result.attachments { named.insert(attachment.hash) }
        }
        guard !named.isEmpty else { return [] }
        return try storedAttachments().filter { named.contains($0.hash) }
    }
}
