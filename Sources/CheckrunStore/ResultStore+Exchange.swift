import CheckrunModel
import Foundation

/// What a merge added.
public struct MergeSummary: Sendable, Equatable {
    public var sessionsAdded = 0
    public var sessionsExtended = 0
    public var sessionsUnchanged = 0
    public var recordsAdded = 0
    public var resultsAdded = 0

    public init() {}
}

/// A session that exists on both sides with different content: nothing is overwritten.
public struct MergeConflict: Error, CustomStringConvertible {
    public var description: String
}

extension ResultStore {
    /// Every session (of one release, or all) with its records, one at a time.
    public func forEachSessionEntry(release: String?, _ body: (SessionEntry) throws -> Void) throws {
        let sessions = try database.query(
            "SELECT id FROM sessions WHERE ?1 IS NULL OR release = ?1 ORDER BY started_at, id", [SQLValue(release)]
        ) { $0.string(0).flatMap(UUID.init(uuidString:)) }
        for case let id? in sessions {
            guard let session = try session(id: id) else { continue }
            var records: [Record] = []
            try forEachRecord(inSession: id) { records.append($0) }
            try body(SessionEntry(session: session, records: records))
        }
    }

    /// Writes sessions and records as an export file, one session per line, atomically.
    public func export(release: String?, to path: String) throws -> (sessions: Int, records: Int) {
        let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw StoreError("cannot write \(path); check that its folder exists and is writable")
        }
        var counts = (sessions: 0, records: 0)
        do {
            let header = "{\"format\": \"checkrun-export\", \"version\": 1, \"exportedAt\": \(JSONWriter.quoted(Timestamps.iso8601(Date()))), \"release\": \(release.map(JSONWriter.quoted) ?? "null"), \"sessions\": [\n"
            try handle.write(contentsOf: Data(header.utf8))
            var first = true
            try forEachSessionEntry(release: release) { entry in
                let line = (first ? "" : ",\n") + JSONWriter.compact(entry.json)
                first = false
                try handle.write(contentsOf: Data(line.utf8))
                counts.sessions += 1
                counts.records += entry.records.count
            }
            try handle.write(contentsOf: Data("\n]}\n".utf8))
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        return counts
    }

    /// Brings the sessions of `source` into this database in one transaction. A session already
    /// here gains only the records it lacks; merging the same source twice adds nothing. A
    /// damaged chain or a session with the same id but other content stops the merge, and
    /// then nothing at all is written.
    public func merge(from source: SessionSource, progress: ((Int) -> Void)? = nil) throws -> MergeSummary {
        var summary = MergeSummary()
        var seen = 0
        try database.transaction {
            try source.forEachEntry { entry in
                if let problem = entry.chainProblem() {
                    throw MergeConflict(description: "\(source.name): session \(entry.session.shortID) is damaged: \(problem); nothing was merged")
                }
                try mergeEntry(entry, source: source.name, into: &summary)
                seen += entry.records.count
                progress?(seen)
            }
        }
        return summary
    }

    private func mergeEntry(_ entry: SessionEntry, source: String, into summary: inout MergeSummary) throws {
        let incoming = entry.session
        var existingHashes: [String] = []
        if let existing = try session(id: incoming.id) {
            guard existing.canonicalText == incoming.canonicalText else {
                throw MergeConflict(description: "\(source): session \(incoming.shortID) is also here with other details (release, build, device, tester or plan); nothing was merged or overwritten")
            }
            try forEachRecord(inSession: incoming.id) { existingHashes.append($0.hash) }
            for (index, hash) in existingHashes.enumerated() where index < entry.records.count && entry.records[index].hash != hash {
                throw MergeConflict(description: "\(source): session \(incoming.shortID) record \(index + 1) differs from the one here; the two databases disagree, so nothing was merged or overwritten")
            }
            if let finished = incoming.finishedAt {
                try database.run("UPDATE sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL", [SQLValue(finished), .text(incoming.id.storageText)])
            }
        } else {
            try insert(incoming)
            summary.sessionsAdded += 1
        }
        let newRecords = entry.records.dropFirst(existingHashes.count)
        if newRecords.isEmpty {
            if !existingHashes.isEmpty { summary.sessionsUnchanged += 1 }
            return
        }
        if !existingHashes.isEmpty { summary.sessionsExtended += 1 }
        for record in newRecords { try insert(record) }
        summary.recordsAdded += newRecords.count
        // The results tables show each result's latest record.
        var latest: [UUID: Record] = [:]
        for record in newRecords { latest[record.resultID] = record }
        for (id, record) in latest {
            guard let result = CheckResult.decoding(payload: record.payload, sessionID: incoming.id) else { continue }
            let isNew = (try database.scalarInt("SELECT count(*) FROM results WHERE id = ?", [.text(id.storageText)]) ?? 0) == 0
            try writeProjection(result)
            let amends = entry.records.filter { $0.resultID == id && $0.kind == .amend }
            try database.run("UPDATE results SET amendments = ?, amend_reason = ? WHERE id = ?",
                             [.integer(Int64(amends.count)), SQLValue(amends.last?.reason), .text(id.storageText)])
            if isNew { summary.resultsAdded += 1 }
        }
    }
}
