import CheckrunModel
import Foundation
import Testing

/// Builds in build order: numbers as numbers, whenever their results were recorded.
@Suite struct BuildOrderTests {
    @Test(arguments: [("99", "310"), ("310", "311"), ("2.4.9", "2.4.10"), ("1.2 (45)", "1.2 (100)"), ("311", "311a"),
                      ("build 9", "build 10"), ("1.0", "1.0.1"), ("007", "8"), ("123456789012345678901234567890", "123456789012345678901234567891"),
                      // A release candidate, beta or dev build comes before its release; a hotfix after it.
                      ("2.4.0-rc.2", "2.4.0"), ("2.4.0-beta.1", "2.4.0-rc.1"), ("2.4.0-rc.2", "2.4.0-rc.10"), ("1.0rc1", "1.0"),
                      ("1.0.dev2", "1.0"), ("2.4.0 RC 1", "2.4.0"), ("2.4.0", "2.4.0-hotfix"), ("2.4.0-rc.1", "2.4.1-beta.1"),
                      // A leading v is not a word: v10 is after 9 and before 11.
                      ("9", "v10"), ("v10", "11"),
                      // Never a circle: a candidate is older than a hotfix of its release too.
                      ("2.4.0-rc.1", "2.4.0-hotfix"), ("1.0rc1", "1.0.1"), ("2.4.0-rc.1", "2.4.0 (5)"), ("2.4.0-beta.1", "2.4.0-RC1"),
                      ("2.4.0-prerelease", "2.4.0"),
                      // The version a label starts with decides first, a longer one after a shorter
                      // one, whatever follows either (a build number, a hotfix, an underscore).
                      ("2.4 (311)", "2.4.1 (312)"), ("2.4 build 311", "2.4.1 build 312"), ("2.4-hotfix1", "2.4.1"), ("2.4_311", "2.4.1_312"),
                      ("2.4.0-hotfix", "2.4.0.1"), ("2.4.0 (5)", "2.4.0.1"), ("311a", "311.1"), ("2.4.0 (5)", "2.4.0-hotfix"),
                      ("2024.11.30", "2024.12.1"), ("1.2.3+build.5", "1.2.3+build.6")])
    func theFirstComesBeforeTheSecond(earlier: String, later: String) {
        #expect(BuildOrder.compare(earlier, later) == .orderedAscending)
        #expect(BuildOrder.compare(later, earlier) == .orderedDescending)
    }

    @Test func recordingOrderDoesNotReorderNumberedBuilds() {
        let seen = [(label: "311", firstSeen: 1.0), (label: "310", firstSeen: 2.0), (label: "312", firstSeen: 3.0), (label: "99", firstSeen: 4.0)]
        #expect(BuildOrder.sorted(seen) == ["99", "310", "311", "312"])
    }

    @Test func labelsWithoutDigitsKeepTheirPlaceInTime() {
        let seen = [(label: "alpha", firstSeen: 0.0), (label: "2", firstSeen: 1.0), (label: "beta", firstSeen: 1.5), (label: "1", firstSeen: 2.0)]
        #expect(BuildOrder.sorted(seen) == ["alpha", "1", "2", "beta"])
    }

    /// Every pair answers one way and every three agree: a sort cannot go round in a circle
    /// and put a release candidate last.
    @Test func theOrderIsTotalOverMixedLabels() {
        let labels = ["2.4.0-rc.1", "2.4.0", "2.4.0-hotfix", "2.4.0 (5)", "2.4.0.1", "1.0rc1", "1.0", "1.0.1", "2.4.0-RC1", "2.4.0-beta.1",
                      "v10", "9", "11", "311", "311a", "build 9", "build 10", "2.4", "2.4.0-rc.10", "1.0.dev2",
                      "2.4 (311)", "2.4.1 (312)", "2.4-hotfix1", "2.4.1", "2.4_311", "311.1", "beta 3", "", "e\u{301}", "\u{e9}.", "2.4.", "v2.4.1"]
        for a in labels {
            #expect(BuildOrder.compare(a, a) == .orderedSame)
            for b in labels where a != b {
                let ab = BuildOrder.compare(a, b), ba = BuildOrder.compare(b, a)
                #expect(ab == .orderedSame ? ba == .orderedSame : ab != ba, "\(a) and \(b)")
                for c in labels where BuildOrder.compare(a, b) == .orderedAscending && BuildOrder.compare(b, c) == .orderedAscending {
                    #expect(BuildOrder.compare(a, c) == .orderedAscending, "\(a) < \(b) < \(c)")
                }
            }
        }
        let seen = ["2.4.0-rc.1", "2.4.0", "2.4.0-hotfix"].enumerated().map { (label: $0.element, firstSeen: Double($0.offset)) }
        #expect(BuildOrder.sorted(seen) == ["2.4.0-rc.1", "2.4.0", "2.4.0-hotfix"])
    }
}
