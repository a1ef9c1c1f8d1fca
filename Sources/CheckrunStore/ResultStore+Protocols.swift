import CheckrunModel
import Foundation

/// The protocol versions results were recorded against, kept in the database itself.
extension ResultStore {
    /// Keeps the content of these protocol versions (once each: a version is its hash).
    package func keep(_ documents: [ProtocolDocument]) throws {
        keptVersions.removeAll()
        try database.transaction {
            for document in documents {
                try database.run("INSERT INTO protocol_versions (hash, protocol_id, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                                 [.text(document.contentHash), .text(document.id), .text(document.fileText)])
            }
        }
    }

    /// One stored version: its hash, protocol id and the file text the tester walked.
    package struct ProtocolVersion: Sendable, Equatable {
        package var hash: String
        package var protocolID: String
        package var content: String
    }

    /// Every stored version, one at a time.
    package func forEachProtocolVersion(_ body: (ProtocolVersion) throws -> Void) throws {
        try database.forEach("SELECT hash, protocol_id, content FROM protocol_versions ORDER BY protocol_id, hash") { row in
            try body(ProtocolVersion(hash: row.string(0) ?? "", protocolID: row.string(1) ?? "", content: row.string(2) ?? ""))
        }
    }

    /// Keeps versions that arrive with a merge, each checked by the merge's first pass (the
    /// text its hash names, filed under its own id: `keptTextProblem`).
    func keep(_ versions: [ProtocolVersion]) throws {
        keptVersions.removeAll()
        for version in versions {
            try database.run("INSERT INTO protocol_versions (hash, protocol_id, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                             [.text(version.hash), .text(version.protocolID), .text(version.content)])
        }
    }

    /// For each protocol, the version its newest result was recorded against (or, for one
    /// walked without an answer yet, the version kept when the walk began): the library a
    /// report or a resumed walk uses when there is no protocol folder.
    package func storedLibrary() throws -> ProtocolLibrary {
        // Written for both engines: SQLite's bare column beside max() is refused by PostgreSQL
        // ("must appear in the GROUP BY clause"). Versions answered at the same moment (none
        // yet) are told apart by hash, so the choice is the same every time.
        let newest = try database.query(
            """
            WITH answered AS (
                SELECT v.hash, v.protocol_id, v.content, max(coalesce(r.updated_at, 0)) AS at FROM protocol_versions v
                LEFT JOIN results r ON r.protocol_hash = v.hash GROUP BY v.hash, v.protocol_id, v.content)
            SELECT n.protocol_id, n.content, n.hash FROM answered n
            WHERE NOT EXISTS (SELECT 1 FROM answered m WHERE m.protocol_id = n.protocol_id AND (m.at > n.at OR m.at = n.at AND m.hash > n.hash))
            ORDER BY n.protocol_id
            """) { (id: $0.string(0) ?? "", content: $0.string(1) ?? "", hash: $0.string(2) ?? "") }
        let linter = ProtocolLinter()
        var library = ProtocolLibrary(documents: [], problems: [], directory: "the database")
        for version in newest {
            try Self.requireUnchanged(version.content, hash: version.hash, protocolID: version.id)
            let linted = linter.lint(bytes: Array(version.content.utf8), fileName: "\(version.id).json")
            library.problems += linted.problems
            if let document = linted.document { library.documents.append(document) }
        }
        return library
    }

    /// The stored version with this hash, when there is one.
    package func protocolVersion(hash: String) throws -> ProtocolDocument? {
        let stored = try database.query("SELECT content, protocol_id FROM protocol_versions WHERE hash = ?", [.text(hash)]) {
            (content: $0.string(0), id: $0.string(1) ?? "protocol")
        }
        guard let version = stored.first, let content = version.content else { return nil }
        try Self.requireUnchanged(content, hash: hash, protocolID: version.id)
        return ProtocolLinter().lint(bytes: Array(content.utf8), fileName: "\(version.id).json").document
    }

    /// Refuses a kept protocol text that is not the text its hash names: edited, it could map a
    /// failed check to other criteria, or none, in a report made from the database alone.
    static func requireUnchanged(_ content: String, hash: String, protocolID: String) throws(StoreError) {
        guard let problem = keptTextProblem(content, hash: hash, protocolID: protocolID) else { return }
        throw StoreError(problem + ", so it is not used; `checkrun verify` names everything else that was")
    }

    /// What is wrong with a kept protocol text, by `verify` too: a text that is not the one its
    /// hash names, or one filed under another protocol's id (the database alone chooses each
    /// protocol's newest version by that id, so a report made from it would judge a check by
    /// another protocol's text). Nil when nothing is.
    static func keptTextProblem(_ content: String, hash: String, protocolID: String) -> String? {
        let named = "the kept text of protocol \(DisplayText.preview(protocolID, limit: 40)) (version \(hash.prefix(12)))"
        guard SHA256.hex(content) == hash else { return "\(named) was changed behind checkrun's back" }
        let ownID = (try? JSONParser.parse(content))?["id"]?.stringValue
        guard let ownID, ownID != protocolID else { return nil }
        return "\(named) is the text of protocol \(DisplayText.preview(ownID, limit: 40)): the id it is filed under was changed behind checkrun's back"
    }

    /// The stored version with this hash as a library of its one protocol, read once per store;
    /// nil when the database does not keep it.
    package func keptVersion(hash: String) throws -> ProtocolLibrary? {
        if let known = keptVersions[hash] { return known }
        let library = try protocolVersion(hash: hash).map { ProtocolLibrary(documents: [$0], problems: [], directory: "the database") }
        keptVersions[hash] = .some(library)
        return library
    }

    /// The check named `name` (`protocol/check`) as the version with this hash had it: the text
    /// a result recorded against that version was answered to. Nil when the database does not
    /// keep the version, or the version has no such check.
    package func keptCheck(named name: String, version hash: String) throws -> CheckReference? {
        try keptVersion(hash: hash)?.check(named: name)
    }
}
