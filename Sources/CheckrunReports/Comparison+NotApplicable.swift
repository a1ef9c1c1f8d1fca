import CheckrunStore

extension Comparison {
    /// The builds that would read "fixed" or "unblocked" whose latest result passed only as not
    /// applicable, marked; and, where the device was tested on several OS versions, each one
    /// whose pass was only that, no longer counted as a pass there: a failure that stood on it
    /// is not shown fixed. Their changes are judged again. One query for the few such results.
    static func markNotApplicable(_ checks: inout [CheckComparison], _ store: ResultStore, _ threshold: Double) throws -> [VerificationProblem] {
        var candidates: [(check: Int, build: Int)] = []
        for (index, check) in checks.enumerated() {
            candidates += check.changes.filter { $0.verdictChange == .fixed || $0.verdictChange == .unblocked }.map { (index, $0.to) }
        }
        let rows = candidates.flatMap { candidate in
            checks[candidate.check].builds[candidate.build].map { [$0.resultRow] + $0.osVersions.passedRows.values } ?? []
        }
        let (notApplicable, problems) = try store.passedOnlyAsNotApplicable(rows: rows)
        guard !notApplicable.isEmpty else { return problems }
        for (check, build) in candidates {
            guard var figures = checks[check].builds[build] else { continue }
            let onlyNotApplicable = figures.osVersions.passedRows.filter { notApplicable.contains($0.value) }.keys
            guard notApplicable.contains(figures.resultRow) || !onlyNotApplicable.isEmpty else { continue }
            figures.notApplicable = figures.notApplicable || notApplicable.contains(figures.resultRow)
            for osVersion in onlyNotApplicable {
                figures.osVersions.passed.remove(osVersion)
                figures.osVersions.passedThenSetAside.remove(osVersion)
                figures.osVersions.tested.remove(osVersion)
            }
            checks[check].builds[build] = figures
            checks[check].changes = changes(checks[check].builds, threshold)
        }
        return problems
    }
}
