@testable import CheckrunStore
import Testing

/// A server gives a join's rows in whatever order its plan makes: stopwatch events and
/// attachments still come back in their stored order, which their payload (and hash) follows.
@Suite struct PartsInPlaceTests {
    @Test func partsComeBackByResultAndPlaceWhateverOrderTheyArrivedIn() {
        var parts = PartsInPlace<String>()
        for (result, place, part) in [(2, 1, "c1"), (0, 1, "a1"), (2, 0, "c0"), (0, 0, "a0"), (1, 5, "b5"), (0, 2, "a2")] {
            parts.add(part, result: result, place: place)
        }
        var seen: [[String]] = [[], [], []]
        parts.inOrder { seen[$0].append($1) }
        #expect(seen == [["a0", "a1", "a2"], ["b5"], ["c0", "c1"]])
    }

    @Test func partsAlreadyInOrderStayAsTheyCame() {
        var parts = PartsInPlace<Int>()
        for place in 0..<100 { parts.add(place, result: place / 10, place: place) }
        var seen: [Int] = []
        parts.inOrder { _, part in seen.append(part) }
        #expect(seen == Array(0..<100))
    }
}
