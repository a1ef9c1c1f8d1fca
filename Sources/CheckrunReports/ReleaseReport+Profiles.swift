import CheckrunModel

extension ReleaseReport {
    /// A row per assistive technology, with how many checks stand at each status.
    static func profiles(_ checks: [CheckEntry]) -> [ProfileRow] {
        var order: [String] = []
        var rows: [String: [CheckStatus: Int]] = [:]
        // Grouped by assistive technology, not by the profile's exact words: "Switch Control"
        // and "Switch Control, item scanning" are one row.
        for entry in checks {
            let profile = entry.reference.check.technology.rawValue
            if rows[profile] == nil { order.append(profile) }
            rows[profile, default: [:]][entry.status, default: 0] += 1
        }
        return order.map { ProfileRow(profile: $0, counts: rows[$0] ?? [:]) }
    }
}
