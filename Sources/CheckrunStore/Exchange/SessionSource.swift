import CheckrunModel
import Foundation

/// Where `merge` reads sessions from: another database or an export file, one session at a time.
package protocol SessionSource {
    /// How messages name the source.
    var name: String { get }
    /// How many records there are, when known cheaply (for progress).
    var recordCount: Int? { get }
    func forEachEntry(_ body: (SessionEntry) throws -> Void) throws
    /// The protocol versions the source keeps (see `ResultStore.keep`).
    func protocolVersions() throws -> [ResultStore.ProtocolVersion]
    /// Each attachment the source carries, its bytes streamed by `produce` (see `AttachmentProducer`).
    func forEachAttachment(_ body: (_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void) throws
    /// What `verify` finds wrong in the sessions the source brings, beyond what each session's
    /// own records show (`merge` checks those): a database's results tables say what its
    /// records once said, so a record deleted from the end of a chain, which leaves a chain
    /// that is whole, shows there, and so does a session deleted from under its records or
    /// moved out of the release merged. Each as `verify` words it. An export file carries
    /// records only: nothing more to find.
    func verificationProblems() throws -> [String]
}

/// Hands an attachment's bytes, a piece at a time, to the function it is given.
package typealias AttachmentProducer = ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

/// Another checkrun database.
package final class DatabaseSource: SessionSource {
    package let name: String
    let store: ResultStore
    let release: String?

    /// Holds one read transaction open on the source from here on, so every pass of a merge
    /// reads the same snapshot even while a walk goes on writing to that file.
    package init(store: ResultStore, name: String, release: String? = nil) throws {
        self.store = store
        self.name = name
        self.release = release
        try store.database.beginSnapshot()
        _ = try? store.database.scalarInt("SELECT count(*) FROM sessions")
    }

    deinit {
        try? store.database.execute("COMMIT")
    }

    package var recordCount: Int? {
        try? store.database.scalarInt("SELECT count(*) FROM records r JOIN sessions s ON s.id = r.session_id WHERE ?1 IS NULL OR s.release = ?1", [SQLValue(release)])
    }

    package func forEachEntry(_ body: (SessionEntry) throws -> Void) throws {
        try store.forEachSessionEntry(release: release, body)
    }

    package func forEachAttachment(_ body: (_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void) throws {
        try store.forEachAttachment(release: release, body)
    }

    package func protocolVersions() throws -> [ResultStore.ProtocolVersion] {
        var versions: [ResultStore.ProtocolVersion] = []
        try store.forEachProtocolVersion { versions.append($0) }
        return versions
    }

    /// Every session the merge takes, verified as `verify` does, in the snapshot the merge reads.
    package func verificationProblems() throws -> [String] {
        try store.verifyInOpenSnapshot(release: release)
    }
}

/// Why an export file cannot be read.
package struct ExportFileError: Error, CustomStringConvertible {
    package var description: String
}

/// An export file, read a session at a time whatever its layout (see `ExportScanner`).
package final class ExportFileSource: SessionSource {
    package let name: String
    let path: String
    /// The protocol versions the last read found.
    private var seenVersions: [ResultStore.ProtocolVersion]?

    package init(path: String) {
        self.path = path
        self.name = path
    }

    package var recordCount: Int? { nil }

    package func verificationProblems() throws -> [String] { [] }

    /// The export's `protocols` list, as the last read of the file found it (an export may
    /// have none): a merge asks after its first pass, so the file is not read again for it.
    package func protocolVersions() throws -> [ResultStore.ProtocolVersion] {
        if seenVersions == nil { try forEachEntry { _ in } }
        return seenVersions ?? []
    }

    private func versions(_ value: ExportScanner.Value) throws -> [ResultStore.ProtocolVersion] {
        let node: JSONNode
        do { node = try JSONParser.parse(bytes: value.bytes) } catch {
            throw ExportFileError(description: "\(path):\(value.line): the protocols list is not valid JSON: \(error.message)")
        }
        return (node.arrayValue ?? []).compactMap { item in
            guard let hash = item["hash"]?.stringValue, let id = item["protocol"]?.stringValue, let content = item["content"]?.stringValue else { return nil }
            return ResultStore.ProtocolVersion(hash: hash, protocolID: id, content: content)
        }
    }

    /// The header's members (everything but `sessions`), as read; checked once the whole
    /// object has been read, since a tool may have sorted the keys after `sessions`.
    package func forEachEntry(_ body: (SessionEntry) throws -> Void) throws {
        try withoutActuallyEscaping(body) { try walk(sessions: $0, attachments: nil) }
    }

    package func forEachAttachment(_ body: (_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void) throws {
        try withoutActuallyEscaping(body) { try walk(sessions: nil, attachments: $0) }
    }

    /// Reads the file through once, handing over sessions or attachments; the other kind is
    /// skipped a value at a time.
    private func walk(sessions: ((SessionEntry) throws -> Void)?, attachments: ((_ hash: String, _ size: Int, _ produce: AttachmentProducer) throws -> Void)?) throws {
        var scanner = try ExportScanner(path: path)
        defer { scanner.close() }
        guard try scanner.peek() != nil else { throw ExportFileError(description: "\(path): the file is empty; it is not a checkrun export") }
        try scanner.expect(UInt8(ascii: "{"), "a JSON object { … }")
        var header: [(key: String, value: ExportScanner.Value)] = []
        var sawSessions = false
        var seenKeys = Set<String>()
        var first = true
        var found: [ResultStore.ProtocolVersion] = []
        while try scanner.peek() != UInt8(ascii: "}") {
            if !first { try scanner.expect(UInt8(ascii: ","), "a comma or }") }
            first = false
            let keyValue = try scanner.value(limit: 4096)
            guard let key = (try? JSONParser.parse(bytes: keyValue.bytes))?.stringValue else {
                throw ExportFileError(description: "\(path):\(keyValue.line):\(keyValue.column): expected a key in quotes; this is not a checkrun export")
            }
            if !seenKeys.insert(key).inserted {
                throw ExportFileError(description: "\(path):\(keyValue.line):\(keyValue.column): the key \"\(key)\" appears twice; this is not a valid checkrun export")
            }
            try scanner.expect(UInt8(ascii: ":"), "a colon after the key")
            if key == "sessions" {
                sawSessions = true
                try readSessions(&scanner, sessions)
            } else if key == "attachments" {
                var pieces = AttachmentPieces(path: path)
                try pieces.read(&scanner, attachments)
            } else if key == "protocols" {
                // Protocol texts are kept apart from the header, which stays small.
                found = try versions(try scanner.value(limit: 64 << 20))
            } else {
                header.append((key, try scanner.value(limit: 1 << 16)))
            }
        }
        try scanner.expect(UInt8(ascii: "}"), "}")
        if try scanner.peek() != nil {
            throw ExportFileError(description: "\(path): there is text after the end of the export (two files joined?)")
        }
        try checkHeader(header, sawSessions: sawSessions)
        seenVersions = found
    }

    private func readSessions(_ scanner: inout ExportScanner, _ body: ((SessionEntry) throws -> Void)?) throws {
        try scanner.expect(UInt8(ascii: "["), "[ to begin the list of sessions")
        var index = 0
        while try scanner.peek() != UInt8(ascii: "]") {
            if index > 0 { try scanner.expect(UInt8(ascii: ","), "a comma or ] between sessions") }
            let value = try scanner.value()
            if let body { try body(try entry(value, index: index)) }
            index += 1
        }
        try scanner.expect(UInt8(ascii: "]"), "]")
    }

    private func checkHeader(_ header: [(key: String, value: ExportScanner.Value)], sawSessions: Bool) throws {
        var text = "{"
        for member in header {
            text += JSONWriter.quoted(member.key) + ":" + String(decoding: member.value.bytes, as: UTF8.self) + ","
        }
        text += "\"sessions\":[]}"
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch {
            throw ExportFileError(description: "\(path): invalid JSON in the header: \(error.message)")
        }
        guard sawSessions else { throw ExportFileError(description: "\(path): there is no \"sessions\" list; this is not a checkrun export") }
        if let version = root["version"]?.intValue, version > ResultStore.exportVersion {
            throw ExportFileError(description: "\(path) was written by a newer checkrun (export version \(version); this checkrun reads up to \(ResultStore.exportVersion)); upgrade checkrun to merge it")
        }
        try Self.problems(ExportSchema.document.validate(root), at: header.first?.value, path: path)
    }

    private func entry(_ value: ExportScanner.Value, index: Int) throws -> SessionEntry {
        let node: JSONNode
        do { node = try JSONParser.parse(bytes: value.bytes) } catch {
            let line = value.line + error.location.line - 1
            let column = error.location.line == 1 ? value.column + error.location.column - 1 : error.location.column
            let truncated = error.message.contains("end") ? " (is the file truncated?)" : ""
            throw ExportFileError(description: "\(path):\(line):\(column): invalid JSON in session \(index + 1): \(error.message)\(truncated)")
        }
        try Self.problems(ExportSchema.sessionEntry.validate(node), at: value, pointerPrefix: "/sessions/\(index)", path: path)
        guard let entry = SessionEntry(json: node) else {
            throw ExportFileError(description: "\(path):\(value.line): the session cannot be read")
        }
        return entry
    }

    static func problems(_ violations: [SchemaViolation], at value: ExportScanner.Value?, pointerPrefix: String = "", path: String) throws {
        guard let first = violations.first else { return }
        let place = value.map { ":\($0.line)" } ?? ""
        let pointer = pointerPrefix + (first.pointer.description == "/" ? "" : first.pointer.description)
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        throw ExportFileError(description: "\(path)\(place): \(pointer.isEmpty ? "/" : pointer): \(first.message)\(more); this is not a valid checkrun export")
    }
}
