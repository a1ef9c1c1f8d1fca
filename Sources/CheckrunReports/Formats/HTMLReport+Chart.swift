import CheckrunModel
import Foundation

/// The SVG chart of a check's median time across builds, described in words.
extension HTMLReport {
    /// What every chart of one report shares: the builds along the x axis, their positions and
    /// their label elements, made once rather than once per check.
    struct ChartAxis {
        static let width = 560.0, height = 200.0, left = 60.0, right = 20.0, top = 20.0, bottom = 40.0
        let labels: [String]
        /// Each build's x position, as the SVG writes it.
        let positions: [String]
        /// The `<text>` elements naming the builds under the axis.
        let labelElements: String

        init(labels: [String]) {
            self.labels = labels
            let step = labels.count > 1 ? (Self.width - Self.left - Self.right) / Double(labels.count - 1) : 0
            positions = labels.indices.map { index in
                Decimals.fixed(labels.count > 1 ? Self.left + Double(index) * step : (Self.left + Self.width - Self.right) / 2, places: 1)
            }
            let y = Decimals.fixed(Self.height - Self.bottom + 18, places: 1)
            labelElements = zip(positions, labels).map { x, label in
                "<text x=\"\(x)\" y=\"\(y)\" text-anchor=\"middle\">" + Escaping.html(label) + "</text>"
            }.joined(separator: "\n")
        }
    }

    /// A line chart of the check's median active time per build, described in words for screen readers.
    static func chart(for check: String, _ row: CheckComparison, axis: ChartAxis) -> String? {
        let points = row.builds.enumerated().compactMap { index, figures in figures?.medianSeconds.map { (index, $0) } }
        guard !points.isEmpty else { return nil }
        typealias A = ChartAxis
        let maximum = max(points.map(\.1).max() ?? 1, 1)
        let ys = points.map { Decimals.fixed(A.top + (A.height - A.top - A.bottom) * (1 - $0.1 / maximum), places: 1) }
        let id = "chart-" + Slug.make(check)
        let description = "Median active time per build on \(row.device.isEmpty ? "an unnamed device" : row.device): " + points.map { "build \(axis.labels[$0.0]) \(Durations.spoken($0.1))" }.joined(separator: ", ") + "."
        var svg = ["<figure>",
                   "<svg role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" viewBox=\"0 0 \(Int(A.width)) \(Int(A.height))\" width=\"\(Int(A.width))\" height=\"\(Int(A.height))\" xmlns=\"http://www.w3.org/2000/svg\">",
                   "<title id=\"\(id)-title\">\(Escaping.html("Active time of \(check) on \(row.device.isEmpty ? "an unnamed device" : row.device) across builds"))</title>",
                   "<desc id=\"\(id)-desc\">\(Escaping.html(description))</desc>",
                   "<line x1=\"\(A.left)\" y1=\"\(A.height - A.bottom)\" x2=\"\(A.width - A.right)\" y2=\"\(A.height - A.bottom)\" stroke=\"#555\"/>",
                   "<line x1=\"\(A.left)\" y1=\"\(A.top)\" x2=\"\(A.left)\" y2=\"\(A.height - A.bottom)\" stroke=\"#555\"/>",
                   "<text x=\"\(A.left - 6)\" y=\"\(A.top + 4)\" text-anchor=\"end\">\(Escaping.html(Decimals.fixed(maximum, places: 0) + " s"))</text>",
                   "<text x=\"\(A.left - 6)\" y=\"\(A.height - A.bottom)\" text-anchor=\"end\">0 s</text>"]
        if points.count > 1 {
            svg.append("<polyline fill=\"none\" stroke=\"#1f4e99\" stroke-width=\"2\" points=\"" + zip(points, ys).map { axis.positions[$0.0.0] + "," + $0.1 }.joined(separator: " ") + "\"/>")
        }
        for (point, y) in zip(points, ys) {
            svg.append("<circle cx=\"\(axis.positions[point.0])\" cy=\"\(y)\" r=\"4\" fill=\"#1f4e99\"/>")
        }
        if !axis.labelElements.isEmpty { svg.append(axis.labelElements) }
        svg.append("</svg>")
        svg.append("<figcaption>\(Escaping.html(description))</figcaption>")
        svg.append("</figure>")
        return svg.joined(separator: "\n")
    }
}
