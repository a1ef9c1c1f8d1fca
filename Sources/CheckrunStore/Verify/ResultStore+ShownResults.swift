import CheckrunModel
import Foundation

extension ResultStore {
    /// Compares results a report shows, parts and all, with the latest record of each, byte for
    /// byte as `verify` does. Run in the snapshot the results were read from, so an answer
    /// saved meanwhile is never taken for an edit. The cited verification beside the report
    /// (`VerificationDepth.cited`) checks every record's chain and every result's own fields;
    /// this adds the outcomes, stopwatch and attachments of the results shown.
    func shownResultProblems(_ results: [CheckResult]) throws -> [VerificationProblem] {
        guard !results.isEmpty else { return [] }
        var latest: [(sequence: Int, payload: String)?] = Array(repeating: nil, count: results.count)
        try database.forEach(
            "SELECT ids.key, r.session_id, r.sequence, r.payload FROM json_each(?) ids JOIN records r ON r.result_id = ids.value",
            [.idList(results.map(\.id))]
        ) { row in
            // A record under the id in another session holds another result: the chain check
            // beside the report names it.
            guard let at = row.int(0), at >= 0, at < results.count, row.hasText(1, equalTo: results[at].sessionID.storageText),
                  let sequence = row.int(2), sequence > (latest[at]?.sequence ?? 0) else { return }
            latest[at] = (sequence, row.string(3) ?? "")
        }
        var problems: [VerificationProblem] = []
        for (result, record) in zip(results, latest) {
            guard let record else {
                problems.append(VerificationProblem(session: result.sessionID, sequence: nil, message: VerificationProblem.neverRecorded(result)))
                continue
            }
            if !record.payload.hasSameBytes(as: result.payloadBytes),
               let difference = Self.difference(between: result, andRecorded: record.payload, sessionID: result.sessionID) {
                problems.append(VerificationProblem(session: result.sessionID, sequence: record.sequence,
                                                    message: VerificationProblem.tableDiffers(result.check, difference)))
            } else if case let contradictions = Judgement.impossibilities(of: result, against: (try? keptCheck(named: result.check, version: result.protocolHash))??.check),
                      !contradictions.isEmpty {
                // The same result as its record: one `merge` would refuse was forged, hash and all
                // (a kept text changed behind checkrun's back is refused by the report on its own).
                problems.append(VerificationProblem(session: result.sessionID, sequence: record.sequence,
                                                    message: VerificationProblem.contradicts(result.check, contradictions)))
            }
        }
        return problems
    }
}
