import CheckrunModel
import CheckrunStore

extension ReleaseReport {
    /// Marks each skipped or blocked result that itself holds a failure, as its check judges
    /// it (an outcome answered fail, a count over its ceiling), as failed: the tester saw the
    /// failure, and setting the check aside does not fix it. The store finds failed outcomes
    /// (in earlier results too); a ceiling is the protocol's, so it is judged here.
    static func markFailuresSetAside(_ results: inout [ReportedResult], _ check: Check?) {
        guard let check else { return }
        for index in results.indices where results[index].failedEarlier == nil {
            let result = results[index].result
            guard result.verdict?.isSetAside == true,
                  !result.failures(against: results[index].answeredCheck ?? check).isEmpty else { continue }
            results[index].failedEarlier = ReportedResult.EarlierFailure(build: results[index].build, attempt: result.attempt, notes: result.notes,
                                                                         isThisResult: true)
        }
    }
}
