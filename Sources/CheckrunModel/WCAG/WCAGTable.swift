/// One WCAG 2.2 success criterion.
package struct WCAGCriterion: Sendable, Hashable {
    package enum Level: String, Sendable, Comparable, CaseIterable {
        case a = "A", aa = "AA", aaa = "AAA"

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue.count < rhs.rawValue.count }
    }

    package var number: String
    package var name: String
    package var level: Level
    package var principle: String

    /// "2.5.8 Target Size (Minimum)", as reports and messages name it.
    package var title: String { "\(number) \(name)" }
}

/// Every WCAG 2.2 success criterion, in the standard's order.
package struct WCAGTable: Sendable {
    package let criteria: [WCAGCriterion]
    private let byNumber: [String: WCAGCriterion]

    package static let wcag22 = WCAGTable(tsv: embeddedTSV)

    /// Reads the tab-separated table: a header line, then `sc name level principle`.
    package init(tsv: String) {
        var criteria: [WCAGCriterion] = []
        for line in tsv.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let level = WCAGCriterion.Level(rawValue: fields[2]) else { continue }
            criteria.append(WCAGCriterion(number: fields[0], name: fields[1], level: level, principle: fields[3]))
        }
        self.criteria = criteria
        self.byNumber = Dictionary(criteria.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package subscript(number: String) -> WCAGCriterion? { byNumber[number] }

    package func contains(_ number: String) -> Bool { byNumber[number] != nil }

    /// The known criteria closest to a mistyped number, for "did you mean" hints: first the
    /// neighbours in the same guideline (2.5.9 → 2.5.8), else the nearest by spelling.
    package func suggestions(for number: String) -> [String] {
        let parts = number.split(separator: ".")
        if parts.count == 3, let last = Int(parts[2]) {
            let guideline = "\(parts[0]).\(parts[1])."
            let neighbours = criteria
                .filter { $0.number.hasPrefix(guideline) }
                .compactMap { criterion in Int(criterion.number.dropFirst(guideline.count)).map { (criterion.number, abs($0 - last)) } }
                .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            if !neighbours.isEmpty { return neighbours.prefix(2).map(\.0) }
            // No such guideline: the closest of its principle, if it has one. Spelled alike,
            // "9.9.9" was offered "1.2.9", which nothing connects to it.
            let principle = criteria.map(\.number).filter { $0.hasPrefix("\(parts[0]).") }
            return Suggestions.closest(to: number, among: principle, limit: 2)
        }
        // A guideline ("2.5") or a principle ("2"): its first criteria, not ones spelled alike
        // from another principle ("2.5" was offered 1.2.5).
        if (1...2).contains(parts.count), parts.allSatisfy({ Int($0) != nil }), !number.hasSuffix(".") {
            let within = criteria.map(\.number).filter { $0.hasPrefix(number + ".") }
            if !within.isEmpty { return Array(within.prefix(2)) }
        }
        return Suggestions.closest(to: number, among: criteria.map(\.number), limit: 2)
    }
}
