import CheckrunModel
import Foundation

extension ResultStore {
    /// Every session of a release, or of the whole store when none is named: what `export`
    /// writes, and verifies first.
    package func sessionIDs(release: String?) throws -> [UUID] {
        guard let release else {
            return try database.query("SELECT id FROM sessions ORDER BY id") { $0.string(0).flatMap(UUID.init(text:)) }.compactMap { $0 }
        }
        return try sessionIDs(release: release, through: nil)
    }

    /// Every session of a release, or of a build and the builds before it: what a report
    /// rests on, with or without records (results of a session nobody recorded must not reach
    /// a report unchecked). A report of one build reads the builds before it too: a failure
    /// there stands behind a skip, and at a device or OS version the build did not test.
    package func sessionIDs(release: String, through build: String?) throws -> [UUID] {
        Array(Set(try database.query(
            "SELECT s.id FROM sessions s WHERE s.release = ?1 AND (?2 IS NULL OR s.build IN (SELECT value FROM json_each(?2))) ORDER BY s.id",
            [.text(release), try buildList(release: release, through: build)]) { $0.string(0).flatMap(UUID.init(text:)) }.compactMap { $0 }))
            .sorted { $0.storageText < $1.storageText }
    }

    /// What a comparison of `scopes` rests on: in each release, the sessions of every build up to
    /// the newest compared (a skip there reads as the failure before it). One query per
    /// release: the builds before each compared one are the builds before its newest.
    package func sessionIDs(through scopes: [BuildScope]) throws -> [UUID] {
        var ids = Set<UUID>()
        for (release, compared) in Dictionary(grouping: scopes, by: \.release) {
            let rank = BuildOrder.ranks(try builds(release: release))
            let newest = compared.max { (rank[$0.build] ?? -1) < (rank[$1.build] ?? -1) }
            ids.formUnion(try sessionIDs(release: release, through: newest?.build))
        }
        return ids.sorted { $0.storageText < $1.storageText }
    }

    /// `build` and the builds of `release` before it, as a JSON list to bind; NULL for the whole release.
    func buildList(release: String, through build: String?) throws -> SQLValue {
        guard let build else { return .null }
        return .textList(BuildOrder.through(build, in: try builds(release: release)))
    }

    /// What a chain alone cannot show (each pin is a session's chain as a kept report printed
    /// it: how many records, and the hash of the last): whole sessions deleted, the tail of a chain cut off, and
    /// records rewritten with recomputed hashes. Each pinned session must still be here, at
    /// least as long as pinned, with the pinned hash at the pinned position.
    ///
    /// Records added after a pin are no problem (answers and amendments go on after a report),
    /// but a report made now rests on them beyond the kept one: they are returned as `grown`,
    /// for `verify` to name.
    package func problems(against pins: [ChainDigest]) throws -> (problems: [VerificationProblem], grown: [PinnedGrowth]) {
        var problems: [VerificationProblem] = []
        var grown: [PinnedGrowth] = []
        for pin in pins {
            func add(_ message: String) { problems.append(VerificationProblem(session: pin.session, sequence: nil, message: message)) }
            guard try session(id: pin.session) != nil else {
                add("the report pins this session with \(pin.records) records, and it is missing: it was deleted")
                continue
            }
            let length = try database.scalarInt("SELECT max(sequence) FROM records WHERE session_id = ?", [.text(pin.session.storageText)]) ?? 0
            if length < pin.records {
                add("the report pins \(pin.records) records and \(length) remain: the last records were cut off")
                continue
            }
            let hash = try database.query("SELECT hash FROM records WHERE session_id = ? AND sequence = ?",
                                          [.text(pin.session.storageText), .integer(Int64(pin.records))]) { $0.string(0) }.first ?? nil
            if hash != pin.head {
                add("record \(pin.records) no longer has the hash the report pinned: the chain was rewritten")
            } else if length > pin.records {
                let amendments = try database.scalarInt("SELECT count(*) FROM records WHERE session_id = ? AND sequence > ? AND kind = 'amend'",
                                                        [.text(pin.session.storageText), .integer(Int64(pin.records))]) ?? 0
                grown.append(PinnedGrowth(session: pin.session, pinned: pin.records, now: length, amendments: amendments))
            }
        }
        return (problems, grown)
    }

    /// A pinned session with records added since its pin.
    package struct PinnedGrowth: Sendable, Equatable {
        package var session: UUID
        package var pinned: Int
        package var now: Int
        /// How many of the added records are amendments (the rest, answers).
        package var amendments: Int

        /// "session e81e1d76: records 3 to 4 (1 amendment)".
        package var description: String {
            let range = now == pinned + 1 ? "record \(now)" : "records \(pinned + 1) to \(now)"
            return "session \(session.lowercasedText.prefix(8)): \(range)\(amendments > 0 ? " (\(amendments) amendment\(amendments == 1 ? "" : "s"))" : "")"
        }
    }
}
