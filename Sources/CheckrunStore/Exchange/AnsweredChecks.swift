import CheckrunModel

/// The check each merged result was answered to: from the protocol versions its source keeps,
/// else from this store's. Each version is read once; one kept by neither leaves only the rules
/// that need no check (see `Judgement.impossibilities`).
struct AnsweredChecks {
    private var texts: [String: ResultStore.ProtocolVersion] = [:]
    private var parsed: [String: ProtocolLibrary?] = [:]
    private let here: ResultStore

    init(_ kept: [ResultStore.ProtocolVersion], here: ResultStore) {
        for version in kept { texts[version.hash] = version }
        self.here = here
    }

    /// The check `name` (`protocol/check`) as the version with this hash had it.
    mutating func check(named name: String, version hash: String) throws -> Check? {
        if parsed[hash] == nil {
            if let version = texts[hash] {
                // Checked against its hash before any entry is read.
                let document = ProtocolLinter().lint(bytes: Array(version.content.utf8), fileName: "\(version.protocolID).json").document
                parsed[hash] = .some(document.map { ProtocolLibrary(documents: [$0], problems: [], directory: "the merged database") })
            } else {
                parsed[hash] = .some(try here.keptVersion(hash: hash))
            }
        }
        return (parsed[hash] ?? nil)?.check(named: name)?.check
    }
}
