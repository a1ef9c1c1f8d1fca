/// Reads `compare`'s build selectors against the labels the database holds.
///
/// Labels may hold the very characters the selectors are written with: a build "2.4,hotfix"
/// in `--builds 310,2.4,hotfix`, a release "2.4:ios" in `--from 2.4:ios:311`. Split blindly,
/// such a selector named other builds than meant, or builds that happen to exist, and the
/// comparison said nothing. Each selector is read every way it can be, and only a reading
/// that names labels the database has counts: one is taken, several are refused as
/// ambiguous, none leaves the caller to say which label is unknown.
enum BuildSelector {
    /// The ways `list` splits at commas into labels of `known`, at most `limit` of them.
    /// Blanks around a label are dropped, as the selector was always read.
    static func readings(ofList list: String, known: Set<String>, limit: Int = 2) -> [[String]] {
        let pieces = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        // A label only grows as pieces join it, so none longer than the longest known is tried:
        // each start then tries a few ends, not all of them (2,000 pieces took minutes).
        let longest = known.map(\.utf8.count).max() ?? 0
        var found: [[String]] = []
        // Which start positions cannot finish a reading, so no suffix is tried twice.
        var deadEnds: Set<Int> = []
        func read(from start: Int, _ taken: [String]) {
            guard found.count < limit, !deadEnds.contains(start) else { return }
            if start == pieces.count {
                found.append(taken)
                return
            }
            let before = found.count
            var joined = ""
            for end in start..<pieces.count {
                joined += (end == start ? "" : ",") + pieces[end]
                let label = joined.trimmingCharacters(in: .whitespaces)
                if label.utf8.count > longest { break }
                if known.contains(label) { read(from: end + 1, taken + [label]) }
            }
            if found.count == before { deadEnds.insert(start) }
        }
        read(from: 0, [])
        return found
    }

    /// The ways `text` splits at a colon into a release and a build of that release.
    static func readings(ofScope text: String, releases: Set<String>, builds: (String) throws -> [String]) rethrows -> [(release: String, build: String)] {
        var found: [(release: String, build: String)] = []
        for colon in text.indices where text[colon] == ":" {
            let release = String(text[..<colon]), build = String(text[text.index(after: colon)...])
            if releases.contains(release), try builds(release).contains(build) { found.append((release, build)) }
        }
        return found
    }
}
