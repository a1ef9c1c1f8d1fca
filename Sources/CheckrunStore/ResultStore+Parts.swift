import CheckrunModel
import Foundation

extension ResultStore {
    /// Fills in the outcome answers, counters, stopwatch events and attachments of many
    /// results (only the counters when `countersOnly`, as a cited verification reads them): a
    /// query per table for all of them, not one per result. The ids go in as one JSON
    /// list, and each row comes back with its result's position in that list, so no id is
    /// parsed or looked up. No query asks the engine to sort: each row carries its place, and
    /// sorting a whole release's parts was a large share of `verify`'s time.
    func loadParts(of results: inout [CheckResult], countersOnly: Bool = false) throws {
        guard !results.isEmpty else { return }
        var list = "["
        list.reserveCapacity(results.count * 39 + 2)
        for (position, result) in results.enumerated() {
            list += position == 0 ? "\"" : ",\""
            list += result.id.storageText
            list += "\""
        }
        list += "]"
        let ids: [SQLValue] = [.text(list)]
        let count = results.count
        try database.forEach(
            "SELECT ids.key, c.counter, c.value, c.answered_at FROM json_each(?) ids JOIN counter_values c ON c.result_id = ids.value", ids
        ) { row in
            // A value read only when stored as a number: SQLite reads text such as '3,m=100' as 3,
            // while a build history's `group_concat` would read it whole.
            guard let at = row.int(0), at >= 0, at < count, let name = row.string(1), let value = row.storedInteger(2) else { return }
            results[at].counters[name] = CounterValue(value, answeredAt: row.date(3) ?? Date())
        }
        guard !countersOnly else { return }
        try loadOutcomes(of: &results, ids: ids)
        try loadStopwatch(of: &results, ids: ids)
        try loadAttachments(of: &results, ids: ids)
    }

    /// The outcomes of the skipped, blocked and unfinished results among these, by place: they
    /// decide whether a failure stands behind the skip (reports, comparisons, `sessions`) and
    /// which unfinished attempts a report names as failed, so the cited verification reads and
    /// compares them (see `VerificationDepth.cited`). The places whose outcomes were read are
    /// returned.
    func loadOutcomesOfSetAside(_ results: inout [CheckResult]) throws -> Set<Int> {
        let places = results.indices.filter { results[$0].verdict == nil || results[$0].verdict?.isSetAside == true }
        guard !places.isEmpty else { return [] }
        var setAside = places.map { results[$0] }
        try loadOutcomes(of: &setAside, ids: [.idList(setAside.map(\.id))])
        for (place, result) in zip(places, setAside) { results[place] = result }
        return Set(places)
    }

    private func loadOutcomes(of results: inout [CheckResult], ids: [SQLValue]) throws {
        let count = results.count
        try database.forEach(
            """
            SELECT ids.key, o.position, o.verdict, o.value, o.note, o.answered_at
            FROM json_each(?) ids JOIN outcome_answers o ON o.result_id = ids.value
            """, ids
        ) { row in
            // A place that is not a number, or beyond any protocol's outcomes (lint allows 1,000),
            // was written by hand: the row is left out, rather than filling memory, and `verify`
            // names it (see `idFormProblems`).
            guard let at = row.int(0), at >= 0, at < count, let position = row.storedInteger(1), position >= 0, position < Self.outcomePositions,
                  let verdict = row.string(2).flatMap({ OutcomeVerdict(rawValue: $0) }) else { return }
            while results[at].outcomes.count <= position { results[at].outcomes.append(nil) }
            results[at].outcomes[position] = OutcomeAnswer(verdict, value: row.storedInteger(3), note: row.string(4), answeredAt: row.date(5) ?? Date())
        }
    }

    private func loadStopwatch(of results: inout [CheckResult], ids: [SQLValue]) throws {
        let count = results.count
        var events = PartsInPlace<StopwatchEvent>()
        try database.forEach(
            """
            SELECT ids.key, e.sequence, e.kind, e.at, e.typed_seconds, e.recorded_at
            FROM json_each(?) ids JOIN stopwatch_events e ON e.result_id = ids.value
            """, ids
        ) { row in
            guard let at = row.int(0), at >= 0, at < count, let sequence = row.storedInteger(1),
                  let kind = row.string(2).flatMap({ StopwatchEvent.Kind(rawValue: $0) }) else { return }
            events.add(StopwatchEvent(kind, at: row.double(3) ?? 0, typedSeconds: row.double(4), recordedAt: row.date(5) ?? Date()),
                       result: at, place: sequence)
        }
        events.inOrder { results[$0].stopwatch.append($1) }
    }

    /// More outcomes than any check can have (the protocol schema allows 1,000); a stored
    /// position beyond it is not believed.
    static let outcomePositions = 10_000
}

/// The parts of many results (stopwatch events, attachments) as one table gives them, in
/// whatever order, each with its result's position in the list and its own place among that
/// result's parts; handed over in order. An engine reading an index gives them in order
/// already, and then nothing is sorted.
struct PartsInPlace<Part> {
    private var rows: [(result: Int, place: Int, part: Part)] = []
    private var sorted = true

    mutating func add(_ part: Part, result: Int, place: Int) {
        if let last = rows.last, (last.result, last.place) >= (result, place) { sorted = false }
        rows.append((result, place, part))
    }

    /// Every part, by result and then by place.
    mutating func inOrder(_ body: (_ result: Int, _ part: Part) -> Void) {
        if !sorted { rows.sort { ($0.result, $0.place) < ($1.result, $1.place) } }
        for row in rows { body(row.result, row.part) }
    }
}
