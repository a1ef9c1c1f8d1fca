import CheckrunModel
import CheckrunStore

extension Comparison {
    /// One check's results on one device, gathered build by build.
    ///
    /// Builds are compared per device, whatever OS version each was tested on (testers update
    /// their phones between builds, and a time or verdict compared across that is still the
    /// app's). Within one build, though, each OS version has its own latest result, as in a
    /// report: the build's verdict on the device is a failure on any of them, never hidden by a
    /// pass answered later on another.
    struct DeviceFigures {
        typealias Latest = (verdict: Verdict, hash: String, at: Double, row: Int64, setAsideCounts: [String: Int])
        var times: [[Double]]
        var counters: [[String: [Double]]]
        /// Per build, the latest result on each OS version.
        var latestOnOS: [[String: Latest]]
        /// Per build, the latest result that passed or failed on each OS version: a pass set
        /// aside afterwards still clears a failure that stood there, as reports count it.
        var latestAnsweredOnOS: [[String: (verdict: Verdict, at: Double, row: Int64)]]
        var counts: [Int]

        init(scopes: Int) {
            times = Array(repeating: [], count: scopes)
            counters = Array(repeating: [:], count: scopes)
            latestOnOS = Array(repeating: [:], count: scopes)
            latestAnsweredOnOS = Array(repeating: [:], count: scopes)
            counts = Array(repeating: 0, count: scopes)
        }

        mutating func add(_ row: ResultStore.TimingRow) {
            counts[row.scope] += 1
            // The medians are of attempts that passed or failed: a skip after 100 s made a build
            // whose every run took 10 s a time regression, and a blocked count moved its median.
            if !row.setAside {
                if let seconds = row.activeSeconds { times[row.scope].append(seconds) }
                for (name, value) in row.counters { counters[row.scope][name, default: []].append(Double(value)) }
            }
            // The attempt answered last is the latest, as in a report (amendments aside).
            if (latestOnOS[row.scope][row.osVersion]?.at ?? -.infinity) <= row.answeredAt {
                let setAside = row.verdict.isSetAside
                latestOnOS[row.scope][row.osVersion] = (row.verdict, row.protocolHash, row.answeredAt, row.row, setAside ? row.counters : [:])
            }
            if row.verdict == .pass || row.verdict == .fail, (latestAnsweredOnOS[row.scope][row.osVersion]?.at ?? -.infinity) <= row.answeredAt {
                latestAnsweredOnOS[row.scope][row.osVersion] = (row.verdict, row.answeredAt, row.row)
            }
        }

        /// A skip or block is no evidence of a fix, in a comparison as in a report: in each build
        /// where a failure stands behind it on its own OS version (`standing`: that OS version's
        /// latest result that passed or failed, in that build or one before it, failed), it counts
        /// as failed there. Before, pass, then fail and a skip, read "changed" and passed the
        /// gate. A failure on another OS version is that OS version's own, as in a report: read
        /// into this skip, a skip after a pass was a "regression" no answer showed.
        mutating func countFailuresBehindSetAside(check: String, device: String, _ standing: StandingFailures) throws {
            for index in latestOnOS.indices where latestOnOS[index].values.contains(where: \.verdict.isSetAside) {
                let places = try standing.places(inScope: index)
                for (osVersion, latest) in latestOnOS[index] where latest.verdict.isSetAside {
                    guard places.contains(TestedOn.Place(check: check, device: device, osVersion: osVersion)) else { continue }
                    latestOnOS[index][osVersion] = (.fail, latest.hash, latest.at, latest.row, [:])
                }
            }
        }

        /// The OS versions tested in a build, and those failed on (all of them when the verdict
        /// is a failure no OS version's latest result holds: a count judged over its ceiling).
        func osVersions(in scope: Int, verdict: Verdict) -> BuildFigures.OSVersions {
            let tested = Set(latestOnOS[scope].keys)
            let failed = Set(latestOnOS[scope].filter { $0.value.verdict == .fail }.keys)
            let passed = Set(latestOnOS[scope].filter { $0.value.verdict == .pass }.keys)
            // Set aside after a pass (and not counted failed by what stands behind it).
            let setAsideAfterAPass = latestOnOS[scope].filter { $0.value.verdict.isSetAside && latestAnsweredOnOS[scope][$0.key]?.verdict == .pass }
            // The pass behind each OS version that passed, kept or set aside afterwards.
            var passedRows: [String: Int64] = [:]
            if tested.count > 1 {
                for (osVersion, latest) in latestOnOS[scope] where latest.verdict == .pass { passedRows[osVersion] = latest.row }
                for osVersion in setAsideAfterAPass.keys { passedRows[osVersion] = latestAnsweredOnOS[scope][osVersion]?.row }
            }
            return BuildFigures.OSVersions(tested: tested, failed: verdict == .fail && failed.isEmpty ? tested : failed, passed: passed, answeredFail: failed,
                                           passedThenSetAside: Set(setAsideAfterAPass.keys), passedRows: passedRows)
        }

        /// The result that stands for the device in a build: the newest failure among the OS
        /// versions' latest results, else the newest set aside holding counts (judged against
        /// their ceilings by the caller), else the newest.
        func standing(in scope: Int) -> Latest? {
            let latest = latestOnOS[scope].values.sorted { $0.at > $1.at }
            return latest.first { $0.verdict == .fail } ?? latest.first { !$0.setAsideCounts.isEmpty } ?? latest.first
        }
    }

    /// Per compared build, the places where a failure stands behind a skip or block
    /// (`ResultStore.placesWithStandingFailures`, with the skips holding a count over its
    /// ceiling): asked once per build, and only for a build where a device's latest result was
    /// set aside.
    final class StandingFailures {
        private let store: ResultStore
        private let scopes: [ResultStore.BuildScope]
        private let judge: CountFailureJudge
        private var known: [Int: Set<TestedOn.Place>] = [:]

        init(store: ResultStore, scopes: [ResultStore.BuildScope], judge: CountFailureJudge) {
            self.store = store
            self.scopes = scopes
            self.judge = judge
        }

        func places(inScope index: Int) throws -> Set<TestedOn.Place> {
            if let places = known[index] { return places }
            let places = try store.placesWithStandingFailures(release: scopes[index].release, through: scopes[index].build, countFailures: try judge.countFailures())
            known[index] = places
            return places
        }
    }
}
