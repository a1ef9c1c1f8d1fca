import Foundation

/// The order of builds: by their labels, compared part by part with numbers as numbers
/// (99 < 310 < 311; 2.4.9 < 2.4.10; "1.2 (45)" < "1.2 (100)"; v9 < 10), a release candidate
/// or beta before its release (2.4.0-rc.2 < 2.4.0; 1.0b1 is left alone). When results were recorded
/// says nothing about which build is newer: build 310 tested after 311 is still the older.
/// Labels without any digit have nothing to compare, so they keep the place their first result
/// gives them: right after the numbered builds first seen before them.
package enum BuildOrder {
    /// `labels` with when each was first seen, newest last.
    package static func sorted(_ labels: [(label: String, firstSeen: Double)]) -> [String] {
        let numbered = labels.filter { hasDigits($0.label) }.sorted { isOrdered($0.label, $1.label, $0.firstSeen, $1.firstSeen) }
        var order = numbered
        for plain in labels.filter({ !hasDigits($0.label) }).sorted(by: { ($0.firstSeen, $0.label) < ($1.firstSeen, $1.label) }) {
            // After the last entry (numbered or not) first seen before it.
            let position = order.lastIndex { $0.firstSeen <= plain.firstSeen }.map { $0 + 1 } ?? 0
            order.insert(plain, at: position)
        }
        return order.map(\.label)
    }

    /// Whether `a` comes before `b`; labels that compare equal part by part keep first-seen order.
    static func isOrdered(_ a: String, _ b: String, _ seenA: Double, _ seenB: Double) -> Bool {
        let order = compare(a, b)
        if order != .orderedSame { return order == .orderedAscending }
        return (seenA, a) < (seenB, b)
    }

    /// Part-by-part comparison: runs of digits by value, other runs as text.
    package static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let left = parts(a), right = parts(b)
        for (x, y) in zip(left, right) {
            let order: ComparisonResult
            switch (x, y) {
            case let (.number(p), .number(q)): order = compareDigits(p, q)
            case let (.text(p), .text(q)): order = p == q ? .orderedSame : (p < q ? .orderedAscending : .orderedDescending)
            case (.number, .text): order = .orderedAscending
            case (.text, .number): order = .orderedDescending
            }
            if order != .orderedSame { return order }
        }
        if left.count == right.count { return .orderedSame }
        // One label goes on where the other ends: "2.4.0-rc.2" is a release candidate of 2.4.0,
        // so older than it, where "2.4.0.1" and "2.4.0 (5)" are newer.
        let (longer, shorter) = left.count > right.count ? (left, right) : (right, left)
        let longerIsOlder = isPreRelease(longer[shorter.count])
        return (left.count > right.count) == longerIsOlder ? .orderedAscending : .orderedDescending
    }

    /// Words that mark a build before its release, as SemVer (`-rc.1`), Python (`rc1`, `.dev2`)
    /// and app stores' testers write them; a single letter ("311b") is left alone, since some
    /// teams write a respin that way.
    static let preReleaseWords: Set<String> = ["alpha", "beta", "rc", "pre", "preview", "dev", "snapshot", "nightly", "canary"]

    private static func isPreRelease(_ part: Part) -> Bool {
        guard case .text(let text) = part else { return false }
        let word = text.lowercased().drop { "-._ ~+".contains($0) }.prefix { $0.isLetter }
        return preReleaseWords.contains(String(word))
    }

    enum Part: Equatable {
        case number(String)
        case text(String)
    }

    static func parts(_ label: String) -> [Part] {
        // "v10" is version 10: a leading v before a digit is not a word that sorts after numbers.
        var label = Substring(label)
        if let first = label.first, first == "v" || first == "V", label.dropFirst().first.map({ $0.isASCII && $0.isNumber }) == true {
            label = label.dropFirst()
        }
        var parts: [Part] = []
        var current = ""
        var inDigits = false
        for character in label {
            let digit = character.isASCII && character.isNumber
            if !current.isEmpty && digit != inDigits {
                parts.append(inDigits ? .number(current) : .text(current))
                current = ""
            }
            inDigits = digit
            current.append(character)
        }
        if !current.isEmpty { parts.append(inDigits ? .number(current) : .text(current)) }
        return parts
    }

    /// Digits compared by value without converting (labels may hold more digits than an Int).
    private static func compareDigits(_ a: String, _ b: String) -> ComparisonResult {
        let x = a.drop { $0 == "0" }, y = b.drop { $0 == "0" }
        if x.count != y.count { return x.count < y.count ? .orderedAscending : .orderedDescending }
        if x == y { return .orderedSame }
        return x < y ? .orderedAscending : .orderedDescending
    }

    static func hasDigits(_ label: String) -> Bool {
        label.contains { $0.isASCII && $0.isNumber }
    }
}
