import CheckrunModel
import Foundation

/// A failed answer in an attempt not finished yet: the tester answered `f` and stopped (quit,
/// a closed terminal) before the check's result. A report is made of finished results, so it
/// names these beside them rather than let the failure go unseen until the walk is resumed.
package struct UnfinishedFailure: Sendable, Equatable {
    package var check: String
    package var device: String
    package var osVersion: String = ""
    package var build: String
    package var session: UUID
    package var attempt: Int
    /// When it was last answered, to tell it from a finished result of the same check and device.
    package var answeredAt: Double

    /// The check, device and OS version it would be a result of.
    package var place: TestedOn.Place { TestedOn.Place(check: check, device: device, osVersion: osVersion) }
    /// Where it was tested, as reports name it (see `TestedOn.name`).
    package var testedOn: String { TestedOn.name(device: device, osVersion: osVersion) }
}

extension ResultStore {
    /// Unfinished attempts of the release holding a failed outcome, in sessions not marked
    /// finished (a walk marks its session finished only when every check has its result).
    /// The first query asks only whether the release has such a session, so a release whose
    /// sessions are all finished pays one indexed probe.
    package func unfinishedFailures(release: String) throws -> [UnfinishedFailure] {
        let open = try database.query("SELECT id FROM sessions WHERE release = ? AND finished_at IS NULL LIMIT 1", [.text(release)]) { $0.string(0) }
        guard !open.isEmpty else { return [] }
        return try database.query(
            """
            SELECT r.check_name, s.device, s.build, s.id, r.attempt, r.updated_at, s.os_version
            FROM sessions s JOIN results r ON r.session_id = s.id
            WHERE s.release = ? AND s.finished_at IS NULL AND r.verdict IS NULL
                AND EXISTS (SELECT 1 FROM outcome_answers o WHERE o.result_id = r.id AND o.verdict = 'fail')
            ORDER BY r.check_name, s.device, s.os_version, r.updated_at
            """, [.text(release)]) { row -> UnfinishedFailure? in
                guard let session = row.string(3).flatMap(UUID.init(text:)) else { return nil }
                return UnfinishedFailure(check: row.string(0) ?? "", device: row.string(1) ?? "", osVersion: row.string(6) ?? "", build: row.string(2) ?? "",
                                         session: session, attempt: row.int(4) ?? 1, answeredAt: row.double(5) ?? 0)
            }.compactMap { $0 }
    }
}
