/// Whether a fence opened on a line of a page is closed further down: one never closed is
/// text, so what follows it is read. Known for every line in one pass from the end: looked
/// for line by line, a page of many unclosed fences took minutes.
///
/// A fence closes only with a line at its own quote depth, as a Markdown reader sees it: one
/// opened inside a quote (`> ```…`) ends with the quote, so a fence further down the page
/// never closes it, and a quoted fence line never closes one opened outside the quote (it is
/// a line of that code). Paired across the quote's end, a fence left open in a note hid every
/// check down to the page's next code block.
struct LongestClosers {
    /// For each line, the longest run of backticks and of tildes alone on a later line at the
    /// same quote depth, before the quote that line is in ends.
    private var backticks: [Int]
    private var tildes: [Int]

    /// `plains`: the page's lines without their indentation, quote marks or heading marks;
    /// `depths`: how many quote marks each began with; `closing`: whether a line may close a
    /// fence at all (indented three columns at most, after spaces or tabs).
    init(_ plains: [String], depths: [Int], closing: [Bool]) {
        backticks = Array(repeating: 0, count: plains.count)
        tildes = backticks
        // The longest closers seen so far (from the end) at each depth, within the quotes open
        // there; a line at a lesser depth ends the deeper ones. Each line costs its depth at
        // most, so the pass stays linear in the page's text.
        var open: [(backticks: Int, tildes: Int)] = [(0, 0)]
        for index in plains.indices.reversed() {
            let depth = depths[index]
            if open.count > depth + 1 { open.removeLast(open.count - depth - 1) }
            while open.count < depth + 1 { open.append((0, 0)) }
            backticks[index] = open[depth].backticks
            tildes[index] = open[depth].tildes
            guard closing[index], let run = PageScan.closerRun(plains[index]) else { continue }
            if run.mark == "`" { open[depth].backticks = max(open[depth].backticks, run.count) } else { open[depth].tildes = max(open[depth].tildes, run.count) }
        }
    }

    /// Whether a fence of `marker` opened on line `index` (counted from 0) is closed below it.
    func closes(_ marker: String, after index: Int) -> Bool {
        (marker.first == "`" ? backticks : tildes)[index] >= marker.count
    }
}
