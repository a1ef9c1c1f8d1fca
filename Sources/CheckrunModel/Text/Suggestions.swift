/// "Did you mean …" hints for mistyped ids, keys, options and commands.
package enum Suggestions {
    /// The candidates within a small edit distance of `word`, closest first.
    package static func closest(to word: String, among candidates: [String], limit: Int = 1) -> [String] {
        let lowered = word.lowercased()
        let threshold = max(2, lowered.count / 3)
        var scored: [(candidate: String, distance: Int)] = []
        for candidate in candidates {
            let other = candidate.lowercased()
            let score = distance(lowered, other)
            let isPrefix = !lowered.isEmpty && other.hasPrefix(lowered)
            if score <= threshold || isPrefix { scored.append((candidate, score)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.candidate < $1.candidate }
        return scored.prefix(limit).map(\.candidate)
    }

    /// `" Did you mean "x"?"` or the empty string, ready to append to a message.
    package static func didYouMean(_ word: String, among candidates: [String], quote: String = "\"") -> String {
        guard let best = closest(to: word, among: candidates).first else { return "" }
        return " Did you mean \(quote)\(best)\(quote)?"
    }

    /// Levenshtein distance over Unicode scalars.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
