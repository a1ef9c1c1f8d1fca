import CheckrunModel
import Foundation

/// What a merge added.
package struct MergeSummary: Sendable, Equatable {
    package var sessionsAdded = 0
    package var sessionsExtended = 0
    package var sessionsUnchanged = 0
    package var recordsAdded = 0
    package var resultsAdded = 0
    package var attachmentsAdded = 0

    package init() {}
}

/// How far a merge has got: records checked (first pass) or written (second pass) of one source.
package struct MergeProgress: Sendable {
    package var source: String
    package var records: Int
    package var writing: Bool
}

/// A session that exists on both sides with different content: nothing is overwritten.
package struct MergeConflict: Error, CustomStringConvertible {
    package var description: String
}

extension ResultStore {
    static let dropMergeTables = """
        DROP TABLE IF EXISTS temp.merge_claims; DROP TABLE IF EXISTS temp.merge_sessions; DROP TABLE IF EXISTS temp.merge_records;
        DROP TABLE IF EXISTS temp.merge_named; DROP TABLE IF EXISTS temp.merge_attachments;
        """

    /// What a merge's first pass keeps on the side, in temporary tables of this connection.
    static let mergeTables = """
        CREATE TEMP TABLE IF NOT EXISTS merge_claims (result_id TEXT PRIMARY KEY, session_id TEXT NOT NULL) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS merge_sessions (id TEXT PRIMARY KEY, details TEXT NOT NULL) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS merge_records (session_id TEXT NOT NULL, sequence INTEGER NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (session_id, sequence)) WITHOUT ROWID;
        CREATE TEMP TABLE IF NOT EXISTS merge_named (hash TEXT NOT NULL, size INTEGER NOT NULL, place TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS temp.merge_named_by_hash ON merge_named (hash);
        CREATE TEMP TABLE IF NOT EXISTS merge_attachments (hash TEXT PRIMARY KEY, size INTEGER NOT NULL) WITHOUT ROWID;
        """

    /// Brings the sessions of every source into this database. Every source is read and
    /// checked whole first (chains, conflicts with what is here, which session each result
    /// belongs to), so a bad source means nothing is written. The writing then commits whole
    /// sessions in batches of about `batchSeconds`, so other writers wait no longer than that:
    /// stopped at any moment, the database holds whole sessions only, and the same merge run
    /// again completes it. A session already here gains only the records it lacks.
    package func merge(
        from sources: [any SessionSource], batchSeconds: TimeInterval = 0.5, progress: ((MergeProgress) -> Void)? = nil
    ) throws -> [MergeSummary] {
        // What the first pass saw, across every source (on disk, so memory stays flat): which
        // session each result arrives in, each session's details and each record's hash. Two
        // sources, or one session twice in one source, that disagree are refused before anything
        // is written; the second pass writes only exactly what the first pass checked.
        try database.execute(database.engine == .sqlite ? Self.mergeTables : PostgresStatements.mergeTables)
        defer { try? database.execute(database.engine == .sqlite ? Self.dropMergeTables : PostgresStatements.dropMergeTables) }
        var versions: [[ProtocolVersion]] = []
        for source in sources {
            let kept = try source.protocolVersions()
            for version in kept {
                guard let problem = Self.keptTextProblem(version.content, hash: version.hash, protocolID: version.protocolID) else { continue }
                throw MergeConflict(description: "\(source.name): \(problem); nothing was merged")
            }
            for version in kept where database.engine == .postgresql && (version.content.utf8.contains(0) || version.protocolID.utf8.contains(0)) {
                throw MergeConflict(description: "\(source.name): the kept text of protocol \(DisplayText.preview(version.protocolID, limit: 60)) (version \(version.hash.prefix(12))) holds a NUL character (a zero byte), which PostgreSQL cannot keep; nothing was merged")
            }
            var answered = AnsweredChecks(kept, here: self)
            var checked = 0
            try source.forEachEntry { entry in
                try checkBeforeMerge(entry, source: source.name, answered: &answered)
                try checkAcrossSources(entry, source: source.name)
                checked += entry.records.count
                progress?(MergeProgress(source: source.name, records: checked, writing: false))
            }
            // A source that fails verification is refused whole: merged, its records would be
            // written into a store that verifies clean (a deleted amendment's fail read as pass).
            let problems = try source.verificationProblems()
            if let first = problems.first {
                throw MergeConflict(description: "\(source.name) fails verification (\(first)\(problems.count > 1 ? ", and \(problems.count - 1) more" : "")); verify, with --db naming it, lists every problem; nothing was merged")
            }
            versions.append(kept)
            try checkAttachments(of: source)
        }
        try requireNamedAttachments()
        do {
            return try writeMerge(sources, versions: versions, batchSeconds: batchSeconds, progress: progress)
        } catch let conflict as MergeConflict {
            // Only a source that changed after it was checked gets here; batches already written stand.
            throw StoreError(conflict.description)
        }
    }

    /// The second pass: whole sessions in batches, each record exactly as the first pass saw it.
    private func writeMerge(
        _ sources: [any SessionSource], versions: [[ProtocolVersion]], batchSeconds: TimeInterval, progress: ((MergeProgress) -> Void)?
    ) throws -> [MergeSummary] {
        var summaries: [MergeSummary] = []
        for (index, source) in sources.enumerated() {
            var summary = MergeSummary()
            // Bytes before the records that name them: stopped in between, the database holds
            // attachments nothing names yet, never a record whose evidence is missing.
            summary.attachmentsAdded = try writeAttachments(of: source)
            var seen = 0
            try database.batches(every: batchSeconds) { boundary in
                if index == 0 { for kept in versions { try keep(kept) } }
                try source.forEachEntry { entry in
                    try requireUnchanged(entry, source: source.name)
                    try mergeEntry(entry, source: source.name, into: &summary)
                    seen += entry.records.count
                    progress?(MergeProgress(source: source.name, records: seen, writing: true))
                    try boundary()
                }
            }
            summaries.append(summary)
        }
        return summaries
    }

    /// Refuses a session that another source (or an earlier entry of this one) brings with
    /// other details or other records at the same positions.
    private func checkAcrossSources(_ entry: SessionEntry, source: String) throws {
        let id = SQLValue.text(entry.session.id.storageText)
        try database.run("INSERT INTO temp.merge_sessions (id, details) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", [id, .text(entry.session.canonicalText)])
        let details = try database.query("SELECT details FROM temp.merge_sessions WHERE id = ?", [id]) { $0.string(0) }.first ?? nil
        guard details == entry.session.canonicalText else {
            throw MergeConflict(description: "\(source): session \(entry.session.shortID) arrives twice in this merge with other details; nothing was merged")
        }
        var earlier: [Int: String] = [:]
        try database.forEach("SELECT sequence, hash FROM temp.merge_records WHERE session_id = ?", [id]) { earlier[$0.int(0) ?? 0] = $0.string(1) }
        for record in entry.records {
            if let hash = earlier[record.sequence] {
                guard hash == record.hash else {
                    throw MergeConflict(description: "\(source): session \(entry.session.shortID) record \(record.sequence) arrives twice in this merge with other content; nothing was merged")
                }
            } else {
                try database.run("INSERT INTO temp.merge_records (session_id, sequence, hash) VALUES (?, ?, ?)", [id, .integer(Int64(record.sequence)), .text(record.hash)])
            }
        }
    }

    /// In the second pass, each record must be the one the first pass checked: its content still
    /// gives its hash, and the hash is the one seen then (an export file could be replaced between).
    private func requireUnchanged(_ entry: SessionEntry, source: String) throws {
        var seen: [Int: String] = [:]
        try database.forEach("SELECT sequence, hash FROM temp.merge_records WHERE session_id = ?", [.text(entry.session.id.storageText)]) {
            seen[$0.int(0) ?? 0] = $0.string(1)
        }
        for record in entry.records where seen[record.sequence] != record.hash || !record.isIntact {
            throw MergeConflict(description: "\(source) changed while it was being merged (session \(entry.session.shortID), record \(record.sequence)); sessions merged before it are kept whole, and running the same merge again completes it")
        }
    }

    /// One source's merge (see `merge(from:batchSeconds:progress:)`).
    package func merge(from source: any SessionSource) throws -> MergeSummary {
        try merge(from: [source]).first ?? MergeSummary()
    }

    /// Everything that must hold before a session is merged; reads only.
    private func checkBeforeMerge(_ entry: SessionEntry, source: String, answered: inout AnsweredChecks) throws {
        let session = entry.session
        func refuse(_ problem: String) -> MergeConflict {
            MergeConflict(description: "\(source): session \(session.shortID) \(problem); nothing was merged")
        }
        if let problem = entry.chainProblem() { throw refuse("is damaged: \(problem)") }
        if let problem = entry.labelProblem() { throw refuse(problem) }
        if entry.records.isEmpty && session.finishedAt != nil {
            throw refuse("is marked finished but has no records: it was added, or emptied, behind checkrun's back")
        }
        if database.engine == .postgresql && Self.holdsNUL(entry) { throw refuse("holds a NUL character (a zero byte) in its text, which PostgreSQL cannot keep") }
        let latest = try latestResults(of: entry, source: source, refuse: refuse)
        // The same judge as `verify`, on each result as it now stands, against the check as the
        // version it names had it: what the walk, `record` and `amend` never save.
        for (sequence, result) in latest.values {
            let contradictions = Judgement.impossibilities(of: result, against: try answered.check(named: result.check, version: result.protocolHash))
            if !contradictions.isEmpty {
                throw refuse("record \(sequence) holds a result of \(DisplayText.preview(result.check, limit: 80)) that checkrun never saves: \(contradictions.joined(separator: "; "))")
            }
        }
        // A walk marks its session finished only when every check has its result (see `verifyGroup`).
        if session.finishedAt != nil, let open = latest.values.sorted(by: { $0.sequence < $1.sequence }).first(where: { $0.result.verdict == nil }) {
            throw refuse(String(Self.finishedWithoutResult(open.result.check).dropFirst("the session ".count)))
        }
        let resultIDs = Set(latest.keys)
        for id in resultIDs {
            let owner = try database.query("SELECT session_id FROM records WHERE result_id = ? LIMIT 1", [.text(id.storageText)]) { $0.string(0) }.first ?? nil
            let claimed = try claim(id, for: session.id)
            for other in [owner, claimed] {
                if let other, other != session.id.storageText {
                    throw refuse("holds result \(id.lowercasedText.prefix(8)), which belongs to session \(other.prefix(8))")
                }
            }
        }
        if let existing = try self.session(id: session.id), existing.canonicalText != session.canonicalText {
            throw MergeConflict(description: "\(source): session \(session.shortID) is also here with other details (release, build, device, tester or plan); nothing was merged or overwritten")
        }
        var index = 0
        try forEachRecord(inSession: session.id) { record in
            if index < entry.records.count && entry.records[index].hash != record.hash {
                throw MergeConflict(description: "\(source): session \(session.shortID) record \(index + 1) differs from the one here; the two databases disagree, so nothing was merged or overwritten")
            }
            index += 1
        }
    }

    /// Each result of `entry` as its latest record holds it, every record read as checkrun
    /// writes one; the attachments each names noted for the check of their bytes.
    private func latestResults(of entry: SessionEntry, source: String, refuse: (String) -> MergeConflict) throws -> [UUID: (sequence: Int, result: CheckResult)] {
        var latest: [UUID: (sequence: Int, result: CheckResult)] = [:]
        let session = entry.session
        for record in entry.records {
            let result: CheckResult
            do { result = try CheckResult.decode(payload: record.payload, sessionID: session.id) } catch {
                throw refuse("record \(record.sequence) holds a result checkrun could not have written: \(error)")
            }
            guard session.plan.contains(result.check) else {
                throw refuse("record \(record.sequence) holds a result of \(DisplayText.preview(result.check, limit: 80)), which is not in the session's plan; checkrun never records one")
            }
            guard result.id == record.resultID else {
                throw refuse("record \(record.sequence) names result \(record.resultID.lowercasedText.prefix(8)) but holds result \(result.id.lowercasedText.prefix(8))")
            }
            latest[record.resultID] = (record.sequence, result)
            // Attachments stand last in a payload checkrun wrote; `verify` and `export` find
            // them there without parsing every record, so no other layout is taken in.
            if !result.attachments.isEmpty && !ChainCheck.listsAttachments(record.payload) {
                throw refuse("record \(record.sequence) lists attachments out of their place in the record's text; it was not written by checkrun")
            }
            for attachment in result.attachments {
                try database.run("INSERT INTO temp.merge_named (hash, size, place) VALUES (?, ?, ?)",
                                 [.text(attachment.hash), SQLValue(attachment.size), .text("\(source): session \(session.shortID) record \(record.sequence) (\(DisplayText.preview(result.check, limit: 80)))")])
            }
        }
        return latest
    }

    /// Notes which session a result arrives in, across every source of the merge (in a
    /// temporary table, so memory stays flat); returns the session that claimed it first.
    private func claim(_ id: UUID, for session: UUID) throws -> String? {
        try database.run("INSERT INTO temp.merge_claims (result_id, session_id) VALUES (?, ?) ON CONFLICT (result_id) DO NOTHING",
                         [.text(id.storageText), .text(session.storageText)])
        return try database.query("SELECT session_id FROM temp.merge_claims WHERE result_id = ?", [.text(id.storageText)]) { $0.string(0) }.first ?? nil
    }

    private func mergeEntry(_ entry: SessionEntry, source: String, into summary: inout MergeSummary) throws {
        let incoming = entry.session
        var existingHashes: [String] = []
        let alreadyHere = try session(id: incoming.id)
        if let existing = alreadyHere {
            guard existing.canonicalText == incoming.canonicalText else {
                throw MergeConflict(description: "\(source): session \(incoming.shortID) is also here with other details (release, build, device, tester or plan); nothing more was merged or overwritten")
            }
            try forEachRecord(inSession: incoming.id) { existingHashes.append($0.hash) }
            for (index, hash) in existingHashes.enumerated() where index < entry.records.count && entry.records[index].hash != hash {
                throw MergeConflict(description: "\(source): session \(incoming.shortID) record \(index + 1) differs from the one here; the two databases disagree, so nothing more was merged or overwritten")
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
            // A session here already counts as such, records or none (a walk not answered yet).
            if alreadyHere != nil { summary.sessionsUnchanged += 1 }
            return
        }
        if alreadyHere != nil { summary.sessionsExtended += 1 }
        for record in newRecords { try insert(record) }
        summary.recordsAdded += newRecords.count
        // The results tables show each result's latest record, and how often it was amended.
        var latest: [UUID: Record] = [:]
        var amends: [UUID: (count: Int, reason: String?)] = [:]
        for record in entry.records {
            if record.kind == .amend { amends[record.resultID, default: (0, nil)] = (amends[record.resultID, default: (0, nil)].count + 1, record.reason) }
        }
        for record in newRecords { latest[record.resultID] = record }
        for (id, record) in latest {
            guard let result = CheckResult.decoding(payload: record.payload, sessionID: incoming.id) else { continue }
            let isNew = (try database.scalarInt("SELECT count(*) FROM results WHERE id = ?", [.text(id.storageText)]) ?? 0) == 0
            try writeProjection(result)
            let amended = amends[id] ?? (0, nil)
            try database.run("UPDATE results SET amendments = ?, amend_reason = ? WHERE id = ?",
                             [.integer(Int64(amended.count)), SQLValue(amended.reason), .text(id.storageText)])
            if isNew { summary.resultsAdded += 1 }
        }
    }
}
