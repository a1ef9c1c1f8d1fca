import CheckrunModel
import CheckrunStore

/// A resumed walk goes on with each check as its answers were given. Answers to expected
/// outcomes are kept by position: had the protocol file changed since (an outcome reordered,
/// inserted or removed), its current text would stand beside answers given to other words.
/// The version each result was answered against is kept in the database, and the walk takes
/// that check from it.
enum AnsweredVersions {
    /// The plan with each check that has a result answered against another version of its
    /// protocol taken from that version; a check whose version the database does not keep is
    /// left out, with a warning, rather than matched by position.
    static func plan(_ plan: [CheckReference], results: [CheckResult], store: ResultStore, context: CommandContext) throws -> [CheckReference] {
        var latest: [String: CheckResult] = [:]
        for result in results where result.attempt >= latest[result.check]?.attempt ?? 0 { latest[result.check] = result }
        var resumed: [CheckReference] = []
        var changed: [String] = []
        var unkept: [String] = []
        // One hash per protocol, not one per check: hashing a document is the costly part.
        var hashes: [String: String] = [:]
        for reference in plan where hashes[reference.document.id] == nil { hashes[reference.document.id] = reference.document.contentHash }
        for reference in plan {
            guard let result = latest[reference.name], result.protocolHash != hashes[reference.document.id] else {
                resumed.append(reference)
                continue
            }
            guard let answered = try store.keptCheck(named: reference.name, version: result.protocolHash) else {
                unkept.append(reference.name)
                continue
            }
            if answered.check != reference.check { changed.append(reference.name) }
            resumed.append(answered)
        }
        if !changed.isEmpty {
            context.warn("the protocol of \(listed(changed)) changed since \(changed.count == 1 ? "it was" : "they were") answered; the walk goes on with the text the answers were given against, kept in \(context.databaseName). To test the new text, walk \(changed.count == 1 ? "the check" : "them") again in a new session.")
        }
        if !unkept.isEmpty {
            context.warn("\(listed(unkept)) \(unkept.count == 1 ? "was" : "were") answered against a version of \(unkept.count == 1 ? "its" : "their") protocol that \(context.databaseName) does not keep, and \(unkept.count == 1 ? "is" : "are") left out rather than matched to other text; correct \(unkept.count == 1 ? "its" : "their") verdict and notes with `checkrun amend`, or walk \(unkept.count == 1 ? "it" : "them") again in a new session.")
        }
        return resumed
    }

    /// A check of the plan the protocol folder no longer has (renamed or removed), as its
    /// latest result was answered, from the version the database keeps; nil without one.
    static func kept(_ name: String, results: [CheckResult], store: ResultStore) throws -> CheckReference? {
        guard let result = results.filter({ $0.check == name }).max(by: { $0.attempt < $1.attempt }) else { return nil }
        return try store.keptCheck(named: name, version: result.protocolHash)
    }

    private static func listed(_ names: [String]) -> String {
        names.map { DisplayText.neutralised($0) }.joined(separator: ", ")
    }
}
