/// Whether a fence opened on a line of a page is closed further down: one never closed is
/// text, so what follows it is read. Known for every line in one pass from the end: looked
/// for line by line, a page of many unclosed fences took minutes.
struct LongestClosers {
    /// For each line, the longest run of backticks and of tildes alone on a line at or after it.
    private var backticks: [Int]
    private var tildes: [Int]

    /// `plains`: the page's lines without their indentation, quote marks or heading marks.
    init(_ plains: [String]) {
        backticks = Array(repeating: 0, count: plains.count + 1)
        tildes = backticks
        for index in plains.indices.reversed() {
            backticks[index] = backticks[index + 1]
            tildes[index] = tildes[index + 1]
            let text = plains[index]
            guard let mark = text.first, mark == "`" || mark == "~" else { continue }
            let run = text.prefix { $0 == mark }
            guard text.dropFirst(run.count).allSatisfy(\.isWhitespace) else { continue }
            if mark == "`" { backticks[index] = max(backticks[index], run.count) } else { tildes[index] = max(tildes[index], run.count) }
        }
    }

    /// Whether a fence of `marker` opened on line `index` (counted from 0) is closed below it.
    func closes(_ marker: String, after index: Int) -> Bool {
        (marker.first == "`" ? backticks : tildes)[index + 1] >= marker.count
    }
}
