import CheckrunModel
import CheckrunStore
import Foundation

/// What a report says of results recorded against another version of their protocol than the
/// one in the folder, from the versions the database keeps.
extension ReleaseReport {
    /// Each result answered against another version of its protocol, whose check differs from
    /// the current one, gets the check as it was answered, from the version the database keeps.
    /// `current` is the hash of the reference's document as it is now.
    static func answeredChecks(of results: inout [ReportedResult], _ reference: CheckReference, current: String, _ store: ResultStore) throws {
        for index in results.indices where results[index].result.protocolHash != current {
            guard let kept = try store.keptVersion(hash: results[index].result.protocolHash) else {
                results[index].answeredUnkeptVersion = true
                continue
            }
            guard let answered = kept.check(named: reference.name), answered.check != reference.check else { continue }
            results[index].answeredCheck = answered.check
        }
    }

    /// The failed removed checks whose answered version the database keeps, as entries for the
    /// WCAG terms: a removed check's failure still bears on the criteria it was mapped to, and a
    /// criterion must not read Supports while the gate trips on it. A removed check's pass or
    /// skip is no evidence either way now, so it changes no term. Each removed result gets the
    /// check as it was answered, so its outcomes are shown with their text.
    static func removedEntries(_ removed: inout [ReportedResult], _ store: ResultStore) throws -> [CheckEntry] {
        var entries: [CheckEntry] = []
        var seen = Set<String>()
        for name in removed.map(\.result.check) where seen.insert(name).inserted {
            let places = removed.indices.filter { removed[$0].result.check == name }
            for place in places {
                removed[place].answeredCheck = try store.keptCheck(named: name, version: removed[place].result.protocolHash)?.check
            }
            guard let newest = places.max(by: { removed[$0].result.updatedAt < removed[$1].result.updatedAt }),
                  let kept = try store.keptCheck(named: name, version: removed[newest].result.protocolHash) else { continue }
            var results = places.map { removed[$0] }
            markFailuresSetAside(&results, kept.check)
            for (place, result) in zip(places, results) { removed[place] = result }
            let status = CheckStatus.combining(results)
            if status == .failed { entries.append(CheckEntry(reference: kept, results: results, status: status, isRemoved: true)) }
        }
        return entries
    }

    /// A check that failed against a kept version of its protocol which mapped it to criteria
    /// the current version does not: an entry per such version, holding those failures, for
    /// the WCAG terms. Emptying a check's `wcag` list after it failed turned 2.5.5 from Partially
    /// Supports into Supports, and the failure left the OpenACR; a failure counts against the
    /// criteria of the version it was found against, as a removed check's does.
    static func entriesAsAnswered(_ checks: [CheckEntry], current hashes: [String: String], _ store: ResultStore) throws -> [CheckEntry] {
        var entries: [CheckEntry] = []
        for entry in checks where entry.status == .failed {
            let current = Set(entry.reference.criteria)
            let hash = hashes[entry.reference.document.id] ?? entry.reference.document.contentHash
            // A skip or block standing for an earlier failure counts by the failure's version.
            let answered = { (reported: ReportedResult) in reported.failedEarlier?.protocolHash ?? reported.result.protocolHash }
            let failures = entry.results.filter { $0.standing == .fail && answered($0) != hash }
            for version in Set(failures.map(answered)).sorted() {
                guard let kept = try store.keptCheck(named: entry.reference.name, version: version),
                      !Set(kept.criteria).isSubset(of: current) else { continue }
                entries.append(CheckEntry(reference: kept, results: failures.filter { answered($0) == version }, status: .failed,
                                          mappedAsAnswered: true))
            }
        }
        return entries
    }

    /// The criteria each failure of `entries` (from `entriesAsAnswered`) counts against beyond
    /// its check's current ones, by result id.
    static func criteriaAsAnswered(_ entries: [CheckEntry], beside checks: [CheckEntry]) -> [UUID: [String]] {
        let current = Dictionary(checks.map { ($0.reference.name, Set($0.reference.criteria)) }, uniquingKeysWith: { first, _ in first })
        var found: [UUID: [String]] = [:]
        for entry in entries {
            let beyond = entry.reference.criteria.filter { !(current[entry.reference.name]?.contains($0) ?? false) }
            for reported in entry.results { found[reported.result.id, default: []] += beyond.filter { !(found[reported.result.id] ?? []).contains($0) } }
        }
        return found
    }

    /// Checks no longer in the protocols that failed, answered against a version the database
    /// does not keep (recorded before checkrun kept protocol texts, merged from a file that did
    /// not keep it, or deleted): which criteria they fail is unknown, so the WCAG terms could
    /// read better than the results are. Said as problems, for the report to refuse or mark.
    package func failuresWithUnknownCriteria(_ store: ResultStore) throws -> [String] {
        var problems = try failuresAgainstUnkeptVersions(store)
        for (name, results) in Dictionary(grouping: removed, by: \.result.check).sorted(by: { $0.key < $1.key })
        where CheckStatus.combining(results) == .failed {
            guard let newest = results.max(by: { $0.result.updatedAt < $1.result.updatedAt }),
                  try store.keptCheck(named: name, version: newest.result.protocolHash) == nil else { continue }
            problems.append("\(DisplayText.preview(name, limit: 120)) failed and is no longer in the protocols, and the database keeps no text of the version it was answered against (\(newest.result.protocolHash.prefix(12))), so the WCAG terms cannot show which criteria it fails")
        }
        return problems
    }

    /// Checks in the protocols that failed against another version of their protocol, one the
    /// database does not keep: that version may have mapped the check to other criteria (or to
    /// none now), so counting the failure by the current mapping alone could leave a criterion
    /// reading Supports while the check fails. Said as problems, as for removed checks.
    private func failuresAgainstUnkeptVersions(_ store: ResultStore) throws -> [String] {
        var problems: [String] = []
        for entry in checks where entry.status == .failed {
            let failed = entry.results.filter { $0.standing == .fail }.map { $0.failedEarlier?.protocolHash ?? $0.result.protocolHash }
            for version in Set(failed).sorted() where version != entry.reference.document.contentHash {
                guard try store.keptVersion(hash: version) == nil else { continue }
                problems.append("\(DisplayText.preview(entry.reference.name, limit: 120)) failed against another version of its protocol (\(version.prefix(12))), of which the database keeps no text, so the WCAG terms cannot show which criteria it fails; the report counts it against the criteria the check maps to now")
            }
        }
        return problems
    }

    /// The checks of `document` that differ from the versions `hashes` name, as the database
    /// keeps them; a version the database does not keep changes nothing that can be named.
    static func changedChecks(_ document: ProtocolDocument, _ hashes: [String], _ store: ResultStore) throws -> [String] {
        var changed = Set<String>()
        for hash in Set(hashes) {
            guard let kept = try store.protocolVersion(hash: hash) else { continue }
            let before = Dictionary(kept.checks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for check in document.checks where before[check.id] != check {
                changed.insert("\(document.id)/\(check.id)")
            }
        }
        return changed.sorted()
    }
}
