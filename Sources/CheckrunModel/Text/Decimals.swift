/// Numbers with a fixed count of decimals ("12.5", "+3.0", "-12"), as `String(format: "%.1f")`
/// writes them but without Foundation's formatter: reports and comparisons write tens of
/// thousands of figures, and the formatter cost more than the rest of the rendering.
package enum Decimals {
    private static let scales: [Double] = [1, 10, 100, 1000]

    /// `value` rounded to `places` decimals (0 to 3), half to even; `plus` signs positive values.
    package static func fixed(_ value: Double, places: Int, plus: Bool = false) -> String {
        let places = min(max(places, 0), 3)
        let product = abs(value) * scales[places]
        var scaled = product.rounded(.toNearestOrEven)
        // A product that lands exactly on .5 may hide a value just above or below it (0.05 is
        // 0.05000000000000000277): the fused residual says which way the exact value lies.
        if product - product.rounded(.down) == 0.5 {
            let residual = (-product).addingProduct(abs(value), scales[places])
            if residual > 0 { scaled = product.rounded(.up) } else if residual < 0 { scaled = product.rounded(.down) }
        }
        guard value.isFinite, scaled < 1e15 else {
            return value.isNaN ? "nan" : (value < 0 ? "-inf" : (plus ? "+inf" : "inf"))
        }
        let units = Int(scaled)
        let divisor = Int(scales[places])
        var text = value.sign == .minus ? "-" : (plus ? "+" : "")
        text += String(units / divisor)
        if places > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// `value` with the fewest places, from `first` to 3, whose rounded figure `shows` what it
    /// must (not zero, over a limit); nil when even 3 places do not.
    package static func fewestPlaces(_ value: Double, from first: Int, plus: Bool = false, showing shows: (Double) -> Bool) -> String? {
        for places in max(first, 0)...3 {
            let text = fixed(value, places: places, plus: plus)
            if let shown = Double(text), shows(shown) { return text }
        }
        return nil
    }
}
