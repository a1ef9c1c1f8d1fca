import Foundation

/// The order of builds: by their labels, compared part by part with numbers as numbers
/// (99 < 310 < 311; 2.4.9 < 2.4.10; "1.2 (45)" < "1.2 (100)"; v9 < 10), a release candidate
/// or beta before its release (2.4.0-rc.2 < 2.4.0; 1.0b1 is left alone). When results were recorded
/// says nothing about which build is newer: build 310 tested after 311 is still the older.
/// Labels without any digit have nothing to compare, and a commit hash's digits say nothing of
/// its age (a12b4e0 is no older than 9f3c2d1), so they keep the place their first result gives
/// them: right after the numbered builds first seen before them.
package enum BuildOrder {
    /// `labels` with when each was first seen, newest last.
    package static func sorted(_ labels: [(label: String, firstSeen: Double)]) -> [String] {
        let numbered = labels.filter { isOrderedByLabel($0.label) }.sorted { isOrdered($0.label, $1.label, $0.firstSeen, $1.firstSeen) }
        var order = numbered
        for plain in labels.filter({ !isOrderedByLabel($0.label) }).sorted(by: { ($0.firstSeen, $0.label) < ($1.firstSeen, $1.label) }) {
            // After the last entry (numbered or not) first seen before it.
            let position = order.lastIndex { $0.firstSeen <= plain.firstSeen }.map { $0 + 1 } ?? 0
            order.insert(plain, at: position)
        }
        return order.map(\.label)
    }

    /// The builds of `ordered` (oldest first) up to and including `build`; all of them for nil.
    /// A report of one build rests on it and every build before it.
    package static func through(_ build: String?, in ordered: [String]) -> [String] {
        build.flatMap { ordered.firstIndex(of: $0) }.map { Array(ordered[...$0]) } ?? ordered
    }

    /// Each label of `ordered` (oldest first) with its place, to tell which of two builds is newer.
    package static func ranks(_ ordered: [String]) -> [String: Int] {
        Dictionary(ordered.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `a` comes before `b`; labels that compare equal part by part keep first-seen order.
    static func isOrdered(_ a: String, _ b: String, _ seenA: Double, _ seenB: Double) -> Bool {
        let order = compare(a, b)
        if order != .orderedSame { return order == .orderedAscending }
        return (seenA, a) < (seenB, b)
    }

    /// The version a label starts with first, its numbers joined by dots, by value and a shorter
    /// one first (2.4 (311) < 2.4.1 (312); 2.4-hotfix1 < 2.4.1; 2.4.0-hotfix < 2.4.0.1), then the
    /// rest part by part: runs of digits by value, other runs as text. Where one label goes on
    /// after the other ends, what follows decides: a pre-release word ("-rc.", "beta") comes
    /// before the end of a label, and a number or any other text after it, so 2.4.0-beta.1 <
    /// 2.4.0-rc.2 < 2.4.0 < 2.4.0 (5) < 2.4.0-hotfix. Each part is ranked by that kind first
    /// (a label starting with a number by that first part's kind too), and the end of a label
    /// is a part of its own: the order is a total one, never a circle (which once made a
    /// release candidate the newest build).
    package static func compare(_ a: String, _ b: String) -> ComparisonResult {
        var left = parts(withoutCommitHashes(a)), right = parts(withoutCommitHashes(b))
        if case .number? = left.first, case .number? = right.first {
            let (x, y) = (versionCore(&left), versionCore(&right))
            for index in 0..<min(x.count, y.count) where compareDigits(x[index], y[index]) != .orderedSame {
                return compareDigits(x[index], y[index])
            }
            if x.count != y.count { return x.count < y.count ? .orderedAscending : .orderedDescending }
        }
        return compare(parts: left, right)
    }

    /// The numbers joined by dots a label's parts start with, taken off the parts.
    private static func versionCore(_ parts: inout [Part]) -> [String] {
        guard case .number(let first)? = parts.first else { return [] }
        var core = [first]
        var taken = 1
        while taken + 1 < parts.count, parts[taken] == .text("."), case .number(let next) = parts[taken + 1] {
            core.append(next)
            taken += 2
        }
        parts.removeFirst(taken)
        return core
    }

    private static func compare(parts left: [Part], _ right: [Part]) -> ComparisonResult {
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : nil, y = index < right.count ? right[index] : nil
            let order = compare(x, y)
            if order != .orderedSame { return order }
        }
        return .orderedSame
    }

    /// One part against another; nil is the end of a label.
    private static func compare(_ x: Part?, _ y: Part?) -> ComparisonResult {
        let (p, q) = (rank(x), rank(y))
        if p != q { return p < q ? .orderedAscending : .orderedDescending }
        switch (x, y) {
        case let (.number(m)?, .number(n)?): return compareDigits(m, n)
        case let (.text(m)?, .text(n)?):
            // Pre-release words by the word whatever its case (beta < rc, RC1 as rc1), then as
            // written, byte by byte (String's `<` holds neither way between "e\u{301}" and "é.").
            let (u, v) = p == 0 ? (preReleaseWord(m), preReleaseWord(n)) : ("", "")
            if u != v { return u < v ? .orderedAscending : .orderedDescending }
            if m.utf8.elementsEqual(n.utf8) { return .orderedSame }
            return m.utf8.lexicographicallyPrecedes(n.utf8) ? .orderedAscending : .orderedDescending
        default: return .orderedSame
        }
    }

    /// A pre-release word, the end of a label, a number, other text: in that order.
    private static func rank(_ part: Part?) -> Int {
        switch part {
        case .text(let text)? where preReleaseWords.contains(preReleaseWord(text)): 0
        case nil: 1
        case .number?: 2
        case .text?: 3
        }
    }

    /// Words that mark a build before its release, as SemVer (`-rc.1`), Python (`rc1`, `.dev2`)
    /// and app stores' testers write them; a single letter ("311b") is left alone, since some
    /// teams write a respin that way.
    static let preReleaseWords: Set<String> = ["alpha", "beta", "rc", "pre", "prerelease", "preview", "dev", "snapshot", "nightly", "canary"]

    /// The word a text part starts with, after its separators and an opening bracket
    /// ("2.4.0 (rc1)", "2.4.0 [beta]"), in lower case.
    private static func preReleaseWord(_ text: String) -> String {
        String(text.lowercased().drop { "-._ ~+([{".contains($0) }.prefix { $0.isLetter })
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

    /// Whether the label's numbers say where the build stands: it has digits and is no commit
    /// hash. Compared part by part, hashes came out in an order of chance, and a pass on an
    /// older build was taken as newer than a failure on the newest.
    static func isOrderedByLabel(_ label: String) -> Bool {
        hasDigits(withoutCommitHashes(label))
    }

    /// 7 to 64 hexadecimal digits (git's short and full hashes, SHA-256 ones too) with a letter
    /// before the last digit, or two letters or more: a date with a respin letter after it
    /// (20241130a) is a number still.
    package static func looksLikeCommitHash(_ label: String) -> Bool {
        let scalars = Array(label.unicodeScalars)
        guard (7...64).contains(scalars.count), scalars.allSatisfy({ $0.properties.isASCIIHexDigit }),
              let firstLetter = scalars.firstIndex(where: { !("0"..."9").contains($0) }),
              let lastDigit = scalars.lastIndex(where: { ("0"..."9").contains($0) }) else { return false }
        return firstLetter < lastDigit || scalars.count(where: { !("0"..."9").contains($0) }) >= 2
    }

    /// The label with each commit hash in it (a run of letters and digits that looks like one,
    /// between other marks: "2.4.0-9f3c2d1", "311 (9f3c2d1)", "main-9f3c2d1") written as one
    /// mark that every hash shares. A hash's digits say nothing of its age, so two labels that
    /// differ only in their hashes are ordered by when each was first seen: compared by their
    /// characters, a pass on the older commit hid the newer one's failure.
    static func withoutCommitHashes(_ label: String) -> String {
        var result = "", run = ""
        func endRun() {
            result += looksLikeCommitHash(run) ? hashMark : run
            run = ""
        }
        for character in label {
            if character.isASCII && (character.isLetter || character.isNumber) {
                run.append(character)
            } else {
                endRun()
                result.append(character)
            }
        }
        endRun()
        return result
    }

    /// What a commit hash reads as, the same for every one: a character no typed label holds
    /// (labels refuse control characters).
    private static let hashMark = "\u{1}"
}
