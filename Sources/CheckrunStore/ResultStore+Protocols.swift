import CheckrunModel
import Foundation

/// The protocol versions results were recorded against, kept in the database itself.
extension ResultStore {
    /// Keeps the content of these protocol versions (once each: a version is its hash).
    package func keep(_ documents: [ProtocolDocument]) throws {
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

    /// Keeps versions that arrive with a merge, after checking each is the text its hash names.
    func keep(_ versions: [ProtocolVersion], source: String) throws {
        for version in versions {
            guard SHA256.hex(version.content) == version.hash else {
                throw MergeConflict(description: "\(source): the protocol version \(version.hash.prefix(12)) of \(version.protocolID) does not match its hash; nothing was merged")
            }
            try database.run("INSERT INTO protocol_versions (hash, protocol_id, content) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                             [.text(version.hash), .text(version.protocolID), .text(version.content)])
        }
    }

    /// For each protocol, the version its newest result was recorded against (or, for one
    /// walked without an answer yet, the version kept when the walk began): the library a
    /// report or a resumed walk uses when there is no protocol folder.
    package func storedLibrary() throws -> ProtocolLibrary {
        let newest = try database.query(
            """
            SELECT v.protocol_id, v.content, max(coalesce(r.updated_at, 0)) FROM protocol_versions v
            LEFT JOIN results r ON r.protocol_hash = v.hash
            GROUP BY v.protocol_id ORDER BY v.protocol_id
            """) { (id: $0.string(0) ?? "", content: $0.string(1) ?? "") }
        let linter = ProtocolLinter()
        var library = ProtocolLibrary(documents: [], problems: [], directory: "the database")
        for version in newest {
            let linted = linter.lint(bytes: Array(version.content.utf8), fileName: "\(version.id).json")
            library.problems += linted.problems
            if let document = linted.document { library.documents.append(document) }
        }
        return library
    }

    /// The stored version with this hash, when there is one.
    package func protocolVersion(hash: String) throws -> ProtocolDocument? {
        guard let content = try database.query("SELECT content FROM protocol_versions WHERE hash = ?", [.text(hash)], { $0.string(0) }).first ?? nil else {
            return nil
        }
        let id = try database.query("SELECT protocol_id FROM protocol_versions WHERE hash = ?", [.text(hash)]) { $0.string(0) ?? "" }.first ?? "protocol"
        return ProtocolLinter().lint(bytes: Array(content.utf8), fileName: "\(id).json").document
    }
}
