import CheckrunModel
import Foundation

/// One session's results as the results tables hold them, and what its records say of each:
/// the sequence of each result's latest record, and whether that record's payload is, byte
/// for byte, the one the tables give. Each table result's payload is built once, when its
/// first record arrives; a record's text is kept only while it is its result's latest and
/// differs (an answer in progress, or an edit), to say what differs.
///
/// At `.cited` depth the tables' results come without outcomes, stopwatch events and
/// attachments, and only the record's own fields and counters are compared with theirs; the
/// record's active time is read from its own stopwatch, for the results table's to match.
struct SessionTables {
    let depth: VerificationDepth
    let results: ArraySlice<CheckResult>
    /// The columns beside each result that its payload does not hold, in the same places.
    let stored: ArraySlice<ResultStore.StoredColumns>
    private let places: [UUID: Int]
    /// Further rows under an id already placed (a copy whose id differs only in case, added
    /// by hand, reads as the same id): each is compared with the records too.
    private let morePlaces: [UUID: [Int]]
    private var payloads: [[UInt8]?]
    /// By place in `results`: the latest record of that result.
    private(set) var latest: [Latest?]
    /// Results the records hold that the tables do not: their latest record and its payload
    /// (only ever filled for a database edited by hand).
    private(set) var recordedOnly: [UUID: (sequence: Int, payload: String)] = [:]

    struct Latest {
        var sequence: Int
        /// The record's payload when it differs from the tables', or is to be parsed whole to
        /// be compared with them; nil when it is the same.
        var differing: String?
        /// At `.cited` depth, while the record does not differ: the active time its stopwatch gives.
        var recordedActiveSeconds: Double? = nil
    }

    init(_ results: ArraySlice<CheckResult>, _ stored: ArraySlice<ResultStore.StoredColumns>, depth: VerificationDepth = .everything) {
        self.depth = depth
        self.results = results
        self.stored = stored
        var places: [UUID: Int] = [:]
        var morePlaces: [UUID: [Int]] = [:]
        places.reserveCapacity(results.count)
        for (place, result) in results.enumerated() {
            if places[result.id] == nil { places[result.id] = place } else { morePlaces[result.id, default: []].append(place) }
        }
        self.places = places
        self.morePlaces = morePlaces
        payloads = Array(repeating: nil, count: results.count)
        latest = Array(repeating: nil, count: results.count)
    }

    /// Notes a record of result `id`, the latest so far, with its payload read in place.
    mutating func note(_ id: UUID, sequence: Int, payload: UnsafeRawBufferPointer) {
        guard let place = places[id] else {
            recordedOnly[id] = (sequence, String(decoding: payload, as: UTF8.self))
            return
        }
        compare(place, sequence: sequence, payload: payload)
        for place in morePlaces[id] ?? [] { compare(place, sequence: sequence, payload: payload) }
    }

    /// Whether a canonical record's outcomes member holds an answer of fail: the key and value
    /// as checkrun writes them, which no text value can hold (its quotes are escaped).
    static func holdsFailedOutcome(_ payload: UnsafeRawBufferPointer, _ members: PayloadMembers) -> Bool {
        let outcomes = UnsafeRawBufferPointer(rebasing: payload[members.outcomes..<members.counters])
        return failedAnswer.withUnsafeBytes { outcomes.firstOffset(of: $0) != nil }
    }

    private static let failedAnswer = Array("\"verdict\": \"fail\"".utf8)

    private mutating func compare(_ place: Int, sequence: Int, payload: UnsafeRawBufferPointer) {
        if payloads[place] == nil { payloads[place] = results[results.startIndex + place].payloadBytes }
        guard let rebuilt = payloads[place] else { return }
        switch depth {
        case .everything:
            let matches = rebuilt.withUnsafeBytes { $0.hasSameBytes(as: payload) }
            latest[place] = Latest(sequence: sequence, differing: matches ? nil : String(decoding: payload, as: UTF8.self))
        case .cited where stored[stored.startIndex + place].outcomesRead:
            // A skip or block's outcomes were read too: its record is parsed whole and compared
            // (`ResultStore.difference`); such results are few.
            latest[place] = Latest(sequence: sequence, differing: String(decoding: payload, as: UTF8.self))
        case .cited:
            // A record not in the canonical layout, or whose stopwatch cannot be read, is kept
            // as differing: its fields are then compared after parsing it whole.
            // The record is read from the end, and where its outcomes begin is taken from the
            // tables' payload: the own fields before them must be the same bytes anyway.
            var members: PayloadMembers?
            let same = rebuilt.withUnsafeBytes { tables in
                guard let shown = PayloadMembers(tables) else { return false }
                members = PayloadMembers(payload, outcomesAt: shown.outcomes)
                return members.map { $0.sameFieldsAndCounters(in: payload, as: shown, in: tables) } ?? false
            }
            // A pass whose outcomes hold a failure contradicts itself: parsed whole, to be named.
            let consistent = results[results.startIndex + place].verdict != .pass || !(members.map { Self.holdsFailedOutcome(payload, $0) } ?? false)
            let events = same && consistent ? members?.stopwatchEvents(in: payload) : nil
            latest[place] = events.map { Latest(sequence: sequence, differing: nil, recordedActiveSeconds: StopwatchEvent.activeSeconds(of: $0)) }
                ?? Latest(sequence: sequence, differing: String(decoding: payload, as: UTF8.self))
        }
    }
}
