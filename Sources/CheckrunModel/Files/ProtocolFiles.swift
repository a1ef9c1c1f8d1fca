import Foundation

// With PathKind, the only part of the model that touches the file system: listing and
// reading protocol files. Everything else in the model works on text and values it is given, so it can be
// tested and fuzzed without files.

extension ProtocolLibrary {
    /// Loads every `*.json` file of `directory`, sorted by name.
    package static func load(directory: String, linter: ProtocolLinter = ProtocolLinter()) throws(LoadError) -> ProtocolLibrary {
        let files = try protocolFiles(in: directory)
        var library = ProtocolLibrary(documents: [], problems: [], directory: directory)
        for file in files {
            let result = linter.lint(fileAt: file)
            library.problems += result.problems
            if let document = result.document { library.documents.append(document) }
        }
        return library
    }

    /// The protocol files of a folder, or the file itself; a clear error when there are none.
    package static func protocolFiles(in path: String) throws(LoadError) -> [String] {
        switch PathKind.of(path) {
        case .missing:
            throw LoadError(description: "\(path): no such file or folder; check the path, or choose the protocol folder with --protocols DIR")
        case .inaccessible:
            throw LoadError(description: "\(path): cannot be read (a folder on the way is closed to you, or a link points to itself); check its permissions")
        case .file, .other:
            return [path]
        case .folder:
            break
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the folder; check its permissions")
        }
        let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        guard !files.isEmpty else {
            throw LoadError(description: "\(path): no protocol files (*.json) here; create one with `checkrun import PAGE --out \(path)`")
        }
        return files.map { (path as NSString).appendingPathComponent($0) }
    }
}

extension ProtocolLinter {
    /// Lints the file at `path`; `displayPath` is how messages name it.
    package func lint(fileAt path: String, displayPath: String? = nil) -> Result {
        let name = displayPath ?? path
        let start = SourceLocation(line: 1, column: 1)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > Self.maximumFileSize {
            let megabytes = String(format: "%.1f", Double(size) / 1_048_576)
            return Result(problems: [LintProblem(file: name, location: start, pointer: nil,
                message: "the file is \(megabytes) MB; a protocol file is at most 1 MB of JSON — is this the right file?")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return Result(problems: [LintProblem(file: name, location: start, pointer: nil,
                message: "cannot read the file; check that it exists and that you may read it")])
        }
        return lint(bytes: [UInt8](data), fileName: name)
    }
}
