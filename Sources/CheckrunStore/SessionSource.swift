import CheckrunModel
import Foundation

/// Where `merge` reads sessions from: another database or an export file, one session at a time.
public protocol SessionSource {
    /// How messages name the source.
    var name: String { get }
    /// How many records there are, when known cheaply (for progress).
    var recordCount: Int? { get }
    func forEachEntry(_ body: (SessionEntry) throws -> Void) throws
}

/// Another checkrun database.
public struct DatabaseSource: SessionSource {
    public let name: String
    let store: ResultStore
    let release: String?

    public init(store: ResultStore, name: String, release: String? = nil) {
        self.store = store
        self.name = name
        self.release = release
    }

    public var recordCount: Int? {
        try? store.database.scalarInt("SELECT count(*) FROM records r JOIN sessions s ON s.id = r.session_id WHERE ?1 IS NULL OR s.release = ?1", [SQLValue(release)])
    }

    public func forEachEntry(_ body: (SessionEntry) throws -> Void) throws {
        try store.forEachSessionEntry(release: release, body)
    }
}

/// Why an export file cannot be read.
public struct ExportFileError: Error, CustomStringConvertible {
    public var description: String
}

/// An export file. checkrun writes one session per line, so it is read a line at a time;
/// a file laid out otherwise is read whole.
public struct ExportFileSource: SessionSource {
    public let name: String
    let path: String

    public init(path: String) {
        self.path = path
        self.name = path
    }

    public var recordCount: Int? { nil }

    public func forEachEntry(_ body: (SessionEntry) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ExportFileError(description: "\(path): cannot read the file; check the path")
        }
        defer { try? handle.close() }
        var lines = LineReader(handle: handle)
        guard let first = lines.next() else { throw ExportFileError(description: "\(path): the file is empty; it is not a checkrun export") }
        if first.hasSuffix("\"sessions\": [") || first.hasSuffix("\"sessions\":[") {
            try readHeader(first + "]}", line: 1)
            var number = 1
            while let line = lines.next() {
                number += 1
                if line == "]}" || line == "]}\n" { return }
                var text = line
                if text.hasSuffix(",") { text.removeLast() }
                try body(try entry(text, line: number, pointerPrefix: "/sessions/\(number - 2)"))
            }
            throw ExportFileError(description: "\(path):\(number): the file ends before its closing ]}; it is truncated")
        }
        // Not checkrun's layout: read it whole.
        var text = first + "\n"
        while let line = lines.next() { text += line + "\n" }
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch {
            throw ExportFileError(description: "\(path):\(error.location.line):\(error.location.column): invalid JSON: \(error.message)")
        }
        try problems(ExportSchema.document.validate(root), line: nil)
        for item in root["sessions"]?.arrayValue ?? [] {
            guard let entry = SessionEntry(json: item) else { throw ExportFileError(description: "\(path): a session cannot be read") }
            try body(entry)
        }
    }

    private func readHeader(_ text: String, line: Int) throws {
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch {
            throw ExportFileError(description: "\(path):\(line): invalid JSON in the header: \(error.message)")
        }
        try problems(ExportSchema.document.validate(root), line: line)
    }

    private func entry(_ text: String, line: Int, pointerPrefix: String) throws -> SessionEntry {
        let node: JSONNode
        do { node = try JSONParser.parse(text) } catch {
            throw ExportFileError(description: "\(path):\(line):\(error.location.column): invalid JSON: \(error.message) (is the file truncated?)")
        }
        try problems(ExportSchema.sessionEntry.validate(node), line: line, pointerPrefix: pointerPrefix)
        guard let entry = SessionEntry(json: node) else { throw ExportFileError(description: "\(path):\(line): the session cannot be read") }
        return entry
    }

    private func problems(_ violations: [SchemaViolation], line: Int?, pointerPrefix: String = "") throws {
        guard let first = violations.first else { return }
        let place = line.map { ":\($0)" } ?? ":\(first.location.line):\(first.location.column)"
        let pointer = pointerPrefix + (first.pointer.description == "/" ? "" : first.pointer.description)
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        throw ExportFileError(description: "\(path)\(place): \(pointer.isEmpty ? "/" : pointer): \(first.message)\(more); this is not a valid checkrun export")
    }
}

/// Reads a file line by line without loading it whole.
struct LineReader {
    let handle: FileHandle
    private var buffer = Data()
    private var ended = false

    init(handle: FileHandle) {
        self.handle = handle
    }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { ended = true } else { buffer.append(chunk) }
        }
    }
}
