import Foundation

/// The protocols of one folder, loaded and linted together.
package struct ProtocolLibrary: Sendable {
    package var documents: [ProtocolDocument] {
        didSet { indexCache = IndexCache() }
    }
    package var problems: [LintProblem]
    package var directory: String
    private var indexCache = IndexCache()

    package init(documents: [ProtocolDocument], problems: [LintProblem], directory: String) {
        self.documents = documents
        self.problems = problems
        self.directory = directory
    }

    /// Why a set of protocol files could not even be listed.
    package struct LoadError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    package func document(id: String) -> ProtocolDocument? {
        documents.first { $0.id == id }
    }

    /// Every check, named `protocol-id/check-id`, in walking order.
    package var allChecks: [CheckReference] {
        documents.flatMap { document in document.checks.map { CheckReference(document: document, check: $0) } }
    }

    /// Resolves `protocol/check` (or a bare check id that is unique) to a check. Looked up
    /// through an index, so resolving every check of a large session stays linear.
    package func check(named name: String) -> CheckReference? {
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
    package func suggestions(forCheck name: String) -> [String] {
        Suggestions.closest(to: name, among: allChecks.map(\.name), limit: 2)
    }

    package func suggestions(forProtocol id: String) -> [String] {
        Suggestions.closest(to: id, among: documents.map(\.id), limit: 2)
    }
}

/// A check together with the protocol it belongs to.
package struct CheckReference: Sendable, Equatable {
    package var document: ProtocolDocument
    package var check: Check

    package init(document: ProtocolDocument, check: Check) {
        self.document = document
        self.check = check
    }

    /// `protocol-id/check-id`, the name a check goes by everywhere.
    package var name: String { "\(document.id)/\(check.id)" }

    package var criteria: [String] { document.criteria(for: check) }
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
