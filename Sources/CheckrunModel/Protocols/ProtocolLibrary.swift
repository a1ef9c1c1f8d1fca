import Foundation

/// The protocols of one folder, loaded and linted together.
public struct ProtocolLibrary: Sendable {
    public var documents: [ProtocolDocument] {
        didSet { indexCache = IndexCache() }
    }
    public var problems: [LintProblem]
    public var directory: String
    private var indexCache = IndexCache()

    public init(documents: [ProtocolDocument], problems: [LintProblem], directory: String) {
        self.documents = documents
        self.problems = problems
        self.directory = directory
    }

    /// Why a set of protocol files could not even be listed.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Loads every `*.json` file of `directory`, sorted by name.
    public static func load(directory: String, linter: ProtocolLinter = ProtocolLinter()) throws(LoadError) -> ProtocolLibrary {
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
    public static func protocolFiles(in path: String) throws(LoadError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadError(description: "\(path): no such file or folder; check the path, or choose the protocol folder with --protocols DIR")
        }
        guard isDirectory.boolValue else { return [path] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the folder; check its permissions")
        }
        let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        guard !files.isEmpty else {
            throw LoadError(description: "\(path): no protocol files (*.json) here; create one with `checkrun import PAGE --out \(path)`")
        }
        return files.map { (path as NSString).appendingPathComponent($0) }
    }

    public func document(id: String) -> ProtocolDocument? {
        documents.first { $0.id == id }
    }

    /// Every check, named `protocol-id/check-id`, in walking order.
    public var allChecks: [CheckReference] {
        documents.flatMap { document in document.checks.map { CheckReference(document: document, check: $0) } }
    }

    /// Resolves `protocol/check` (or a bare check id that is unique) to a check. Looked up
    /// through an index, so resolving every check of a large session stays linear.
    public func check(named name: String) -> CheckReference? {
        index.check(named: name, in: documents)
    }

    /// The positions of every check by name, built once per set of documents.
    private var index: CheckIndex {
        if let cached = indexCache.value { return cached }
        let built = CheckIndex(documents)
        indexCache.value = built
        return built
    }

    /// The closest known protocol or check names, for "did you mean" hints.
    public func suggestions(forCheck name: String) -> [String] {
        Suggestions.closest(to: name, among: allChecks.map(\.name), limit: 2)
    }

    public func suggestions(forProtocol id: String) -> [String] {
        Suggestions.closest(to: id, among: documents.map(\.id), limit: 2)
    }
}

/// A check together with the protocol it belongs to.
public struct CheckReference: Sendable, Equatable {
    public var document: ProtocolDocument
    public var check: Check

    public init(document: ProtocolDocument, check: Check) {
        self.document = document
        self.check = check
    }

    /// `protocol-id/check-id`, the name a check goes by everywhere.
    public var name: String { "\(document.id)/\(check.id)" }

    public var criteria: [String] { document.criteria(for: check) }
}

/// Where each check sits among a library's documents, by full name and by bare check id.
struct CheckIndex: Sendable {
    private var byName: [String: (document: Int, check: Int)] = [:]
    /// A bare id found in more than one protocol maps to nil: it is ambiguous.
    private var byBareID: [String: (document: Int, check: Int)?] = [:]

    init(_ documents: [ProtocolDocument]) {
        for (documentIndex, document) in documents.enumerated() {
            for (checkIndex, check) in document.checks.enumerated() {
                let place = (documentIndex, checkIndex)
                if byName["\(document.id)/\(check.id)"] == nil { byName["\(document.id)/\(check.id)"] = place }
                if byBareID[check.id] == nil { byBareID[check.id] = .some(place) } else { byBareID[check.id] = .some(nil) }
            }
        }
    }

    func check(named name: String, in documents: [ProtocolDocument]) -> CheckReference? {
        let place = name.contains("/") ? byName[name] : (byBareID[name] ?? nil)
        guard let place, place.document < documents.count, place.check < documents[place.document].checks.count else { return nil }
        return CheckReference(document: documents[place.document], check: documents[place.document].checks[place.check])
    }
}

/// Holds a library's index once built; shared by copies of the library, which is safe because
/// any change to the documents replaces the cache.
final class IndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: CheckIndex?

    var value: CheckIndex? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
