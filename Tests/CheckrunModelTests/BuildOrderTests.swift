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

    /// Commit hashes have digits but no order: compared part by part, a12b4e0 came after
    /// 9f3c2d1 though tested before it, and its pass hid the newer build's failure. They keep
    /// the place their first result gives them, as labels without digits do.
    @Test func commitHashesKeepTheirPlaceInTime() {
        let seen = [(label: "a12b4e0", firstSeen: 1.0), (label: "9f3c2d1", firstSeen: 2.0)]
        #expect(BuildOrder.sorted(seen) == ["a12b4e0", "9f3c2d1"])
        let full = [(label: "e83c5163316f89bfbde7d9ab23ca2e25604af290", firstSeen: 1.0), (label: "1b5a2c2e7d1f0c3b9a8d7e6f5a4b3c2d1e0f9a8b", firstSeen: 2.0)]
        #expect(BuildOrder.sorted(full) == full.map(\.label))
        let mixed = [(label: "311", firstSeen: 1.0), (label: "ffa0013", firstSeen: 2.0), (label: "312", firstSeen: 3.0), (label: "0c1d2e3", firstSeen: 4.0)]
        #expect(BuildOrder.sorted(mixed) == ["311", "ffa0013", "312", "0c1d2e3"])
        // Numbers with a respin letter after them, and words, are no hashes.
        for label in ["20241130a", "311", "2.4.0", "311b", "build 9", "deadbeef", "cafe"] {
            #expect(!BuildOrder.looksLikeCommitHash(label), "\(label)")
        }
        #expect(BuildOrder.sorted([(label: "20241201", firstSeen: 1.0), (label: "20241130a", firstSeen: 2.0)]) == ["20241130a", "20241201"])
    }

    /// A hash after a version, in brackets or after a branch's name says nothing of its age
    /// either: compared by its characters, the pass on 2.4.0-9f3c2d1 hid the failure on
    /// 2.4.0-1a2b3c4 tested after it. Labels that differ only in their hashes keep the order
    /// they were first seen in; the version before a hash still orders.
    @Test func aCommitHashInALabelKeepsItsPlaceInTime() {
        for (first, second) in [("2.4.0-9f3c2d1", "2.4.0-1a2b3c4"), ("2.4.0+9f3c2d1", "2.4.0+1a2b3c4"), ("311 (9f3c2d1)", "311 (1a2b3c4)"),
                                ("main-9f3c2d1", "main-1a2b3c4"), ("9876def", "1234abc")] {
            #expect(BuildOrder.sorted([(first, 1.0), (second, 2.0)]) == [first, second], "\(first) first")
            #expect(BuildOrder.sorted([(second, 1.0), (first, 2.0)]) == [second, first], "\(second) first")
        }
        #expect(BuildOrder.sorted([("2.4.1-1a2b3c4", 1.0), ("2.4.0-9f3c2d1", 2.0)]) == ["2.4.0-9f3c2d1", "2.4.1-1a2b3c4"])
        #expect(BuildOrder.sorted([("311 (ffff000)", 1.0), ("310 (0000aaa)", 2.0)]) == ["310 (0000aaa)", "311 (ffff000)"])
    }

    /// "2.4.0 (rc1)" is a release candidate as "2.4.0-rc1" is: taken for a build after 2.4.0,
    /// its pass hid 2.4.0's failure.
    @Test func aPreReleaseWordInBracketsComesBeforeTheRelease() {
        for candidate in ["2.4.0 (rc1)", "2.4.0 (RC 1)", "2.4.0 [beta]", "2.4.0 {beta 2}"] {
            #expect(BuildOrder.compare(candidate, "2.4.0") == .orderedAscending, "\(candidate)")
        }
        #expect(BuildOrder.compare("2.4.0 (5)", "2.4.0") == .orderedDescending)
    }

    /// Every pair answers one way and every three agree: a sort cannot go round in a circle
    /// and put a release candidate last.
    @Test func theOrderIsTotalOverMixedLabels() {
        let labels = ["2.4.0-rc.1", "2.4.0", "2.4.0-hotfix", "2.4.0 (5)", "2.4.0.1", "1.0rc1", "1.0", "1.0.1", "2.4.0-RC1", "2.4.0-beta.1",
                      "v10", "9", "11", "311", "311a", "build 9", "build 10", "2.4", "2.4.0-rc.10", "1.0.dev2",
                      "2.4 (311)", "2.4.1 (312)", "2.4-hotfix1", "2.4.1", "2.4_311", "311.1", "beta 3", "", "e\u{301}", "\u{e9}.", "2.4.", "v2.4.1",
                      "2.4.0 (rc1)", "2.4.0 [beta]", "2.4.0 (5)", "2.4.0 (rc1", "2.4.0 ((rc"]
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
