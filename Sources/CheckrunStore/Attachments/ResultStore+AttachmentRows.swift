import CheckrunModel
import Foundation

/// The results tables' view of attachments: what each result's latest record lists.
extension ResultStore {
    /// Fills in the attachments of many results in one query (see `loadParts`).
    func loadAttachments(of results: inout [CheckResult], ids: [SQLValue]) throws {
        let count = results.count
        var attachments = PartsInPlace<Attachment>()
        try database.forEach(
            """
            SELECT ids.key, a.position, a.hash, a.name, a.media_type, a.size, a.description, a.outcome, a.attached_at
            FROM json_each(?) ids JOIN result_attachments a ON a.result_id = ids.value
            """, ids
        ) { row in
            guard let at = row.int(0), at >= 0, at < count, let position = row.storedInteger(1), let hash = row.string(2) else { return }
            attachments.add(Attachment(
                hash: hash, name: row.string(3) ?? "", mediaType: row.string(4) ?? "application/octet-stream", size: row.int(5) ?? 0,
                description: row.string(6) ?? "", outcome: row.int(7), attachedAt: row.date(8) ?? Date()), result: at, place: position)
        }
        attachments.inOrder { results[$0].attachments.append($1) }
    }
}

/// An attachment of a result, with where the result belongs.
package struct ReleaseAttachment: Sendable {
    package var check: String
    package var build: String
    package var device: String
    package var attempt: Int
    package var attachment: Attachment

    package init(check: String, build: String, device: String, attempt: Int, attachment: Attachment) {
        self.check = check
        self.build = build
        self.device = device
        self.attempt = attempt
        self.attachment = attachment
    }
}

extension ResultStore {
    /// The attachments the results of a release list now (withdrawn ones left out), check by
    /// check, in the order they were attached; one check's only with `check`.
    package func attachments(release: String, check: String? = nil) throws -> [ReleaseAttachment] {
        try database.query(
            """
            SELECT r.check_name, s.build, s.device, r.attempt, a.hash, a.name, a.media_type, a.size, a.description, a.outcome, a.attached_at
            FROM sessions s JOIN results r ON r.session_id = s.id JOIN result_attachments a ON a.result_id = r.id
            WHERE s.release = ?1 AND (?2 IS NULL OR r.check_name = ?2)
            ORDER BY r.check_name, s.build, s.device, r.attempt, a.position
            """, [.text(release), SQLValue(check)]
        ) { row in
            ReleaseAttachment(
                check: row.string(0) ?? "", build: row.string(1) ?? "", device: row.string(2) ?? "", attempt: row.int(3) ?? 1,
                attachment: Attachment(hash: row.string(4) ?? "", name: row.string(5) ?? "", mediaType: row.string(6) ?? "application/octet-stream", size: row.int(7) ?? 0,
                                       description: row.string(8) ?? "", outcome: row.int(9), attachedAt: row.date(10) ?? Date()))
        }
    }
}
