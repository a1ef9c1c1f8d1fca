import CheckrunModel
import CheckrunStore

/// Failed answers in attempts left unfinished: no result, so no term counts them, but a row
/// that reads "Supports" must not be all a lead pastes while one stands.
extension ReleaseReport {
    /// The release's unfinished failed answers in the report's scope (its build and those before)
    /// that no finished result of the same check, device and OS version has answered since.
    static func unfinishedFailures(_ store: ResultStore, release: String, build: String?, builds: [String],
                                   latest: [String: [ReportedResult]]) throws -> [UnfinishedFailure] {
        let rank = BuildOrder.ranks(BuildOrder.through(build, in: builds))
        return try store.unfinishedFailures(release: release).filter { failure in
            guard let at = rank[failure.build] else { return false }
            guard let finished = latest[failure.check]?.first(where: { $0.place == failure.place }), let since = rank[finished.build] else { return true }
            return at > since || (at == since && failure.answeredAt > finished.result.updatedAt.timeIntervalSince1970)
        }
    }

    /// `criteria` with each row whose checks hold an unfinished failure saying so, in every
    /// format's remarks: with a pass on another OS version beside it, the criterion read
    /// "Supports: 2 of 2 mapped checks passed" and nothing else.
    static func noting(_ failures: [UnfinishedFailure], in criteria: [CriterionRow]) -> [CriterionRow] {
        guard !failures.isEmpty else { return criteria }
        return criteria.map { row in
            let open = failures.filter { row.checks.contains($0.check) }
            guard !open.isEmpty else { return row }
            let sentence = "Not counted, as no result yet: " + open.map { failure in
                "\(failure.check) on \(failure.testedOn.isEmpty ? "an unnamed device" : ReportPhrases.name(failure.testedOn)) (build \(failure.build)) holds a failed answer in an attempt left unfinished"
            }.joined(separator: "; ") + "."
            var noted = row
            noted.remarks += " " + sentence
            noted.remarksInFull += " " + sentence
            return noted
        }
    }
}
