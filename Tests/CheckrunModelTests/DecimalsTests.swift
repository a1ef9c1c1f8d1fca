import CheckrunModel
import Foundation
import Testing

@Suite struct DecimalsTests {
    /// Figures read the same as printf's: reports written before keep their look.
    @Test func matchesPrintfForFiguresReportsShow() {
        let values: [Double] = [0, -0.0, 0.04, 0.05, 0.25, 1, 9.96, 12.5, 12.25, 40, 99.95, 123.456, -3.2, -0.01, 1_234_567.891, 61.0, 0.001]
        for value in values {
            #expect(Decimals.fixed(value, places: 1) == String(format: "%.1f", value), "\(value)")
            #expect(Decimals.fixed(value, places: 2) == String(format: "%.2f", value), "\(value)")
            #expect(Decimals.fixed(value, places: 3) == String(format: "%.3f", value), "\(value)")
            #expect(Decimals.fixed(value, places: 0, plus: true) == String(format: "%+.0f", value), "\(value)")
            #expect(Decimals.fixed(value, places: 1, plus: true) == String(format: "%+.1f", value), "\(value)")
        }
    }

    /// Every half-way case on a fine grid, where rounding mistakes show.
    @Test func roundsHalfWayCasesAsPrintfDoes() {
        for step in 0..<4000 {
            let value = Double(step) * 0.005 - 10
            #expect(Decimals.fixed(value, places: 1) == String(format: "%.1f", value), "\(value)")
            #expect(Decimals.fixed(value, places: 2, plus: true) == String(format: "%+.2f", value), "\(value)")
        }
    }

    @Test func saysWhatIsNotANumber() {
        #expect(Decimals.fixed(.nan, places: 1) == "nan")
        #expect(Decimals.fixed(.infinity, places: 1, plus: true) == "+inf")
        #expect(Decimals.fixed(-.infinity, places: 1) == "-inf")
    }
}
