import CheckrunModel
import CheckrunStore
import Foundation

/// The per-release compliance report: everything each format renders.
package struct ReleaseReport: Sendable {
    package struct ProtocolEntry: Sendable {
        package var id: String
        package var title: String
        package var status: String
        package var contentHash: String
        /// Results made with another version of the protocol: its content changed after testing.
        package var resultsWithOtherHash: Int
        /// The checks whose text differs between the version shown and a version results were
        /// recorded against (kept in the database), by name.
        package var changedChecks: [String] = []
    }

    package struct CheckEntry: Sendable {
        package var reference: CheckReference
        package var results: [ReportedResult]
        package var status: CheckStatus
        /// A check no longer in the protocols, as the version it was answered against had it:
        /// its results still bear on the criteria that version mapped it to.
        package var isRemoved = false
        /// The check as a failure was answered against, which mapped it to criteria the
        /// current version does not (`entriesAsAnswered`): counted against those criteria only.
        package var mappedAsAnswered = false

        /// Skipped or blocked on some device and passed (not only as not applicable) on another.
        var passedOnSomeDevices: Bool {
            (status == .skipped || status == .blocked) && results.contains { $0.standing == .pass && !$0.result.passedOnlyAsNotApplicable }
        }
    }

    package struct CriterionRow: Sendable {
        package var criterion: WCAGCriterion
        package var checks: [String]
        package var conformance: Conformance
        /// How much evidence the term rests on: every format states it.
        package var coverage: Coverage
        /// A and AA criteria without evidence: a gap in coverage, not a conformance term.
        package var isCoverageGap: Bool
        /// The remarks, each failure's notes cut short (the full text is with the result).
        package var remarks: String
        /// The remarks with every failure's notes whole: OpenACR has no section of results to
        /// point to, so its remarks are the only place the lead sees them.
        package var remarksInFull: String
    }

    package struct ProfileRow: Sendable {
        package var profile: String
        package var counts: [CheckStatus: Int]
    }

    package var release: String
    package var build: String?
    package var generatedAt: Date
    package var builds: [String]
    package var devices: [String]
    package var testers: [String]
    package var firstResult: Date?
    package var lastResult: Date?
    package var protocols: [ProtocolEntry]
    package var checks: [CheckEntry]
    /// Results whose check is no longer in the protocol folder: shown, never dropped.
    package var removed: [ReportedResult]
    /// Failed answers in attempts not finished yet, newer than the check's latest finished
    /// result on that device: named in Needs attention, never taken for a verdict.
    package var unfinishedFailures: [UnfinishedFailure] = []
    /// Where each attachment was written, by `AttachedEvidence.key`, as a link from the
    /// report (`report --attachments DIR`); empty when the files were not written.
    package var attachmentPaths: [String: String] = [:]
    package var criteria: [CriterionRow]
    package var profiles: [ProfileRow]
    /// Each session's chain head: a signed report pins the evidence it was made from.
    package var chains: [ResultStore.ChainDigest]
    /// What differs between the results shown, parts and all, and their latest records.
    package var shownResultProblems: [VerificationProblem] = []

    /// The product the report is about (`--product NAME`), named in every format.
    package var product: String?

    /// "Accessibility compliance report: Acme Pay, release 2.4, build 311".
    package var title: String {
        "Accessibility compliance report: " + (product.map { "\($0), " } ?? "") + "release \(release)" + (build.map { ", build \($0)" } ?? "")
    }

    /// The builds the report spans: "311", or "310 to 312".
    package var buildSpan: String {
        if let build { return build }
        guard let first = builds.first, let last = builds.last else { return release }
        return first == last ? first : "\(first) to \(last)"
    }

    /// Problems `verify` found in the sessions this report rests on, when it was written anyway
    /// (`--unverified`); nil when they verified.
    package var unverifiedProblems: [String]?

    /// Failed checks whose WCAG criteria are unknown (`failuresWithUnknownCriteria`), when the
    /// report was written anyway (`--unverified`): the WCAG terms do not count them.
    package var unknownCriteria: [String] = []
    /// For a failure counted against the criteria of the version it was answered against
    /// (`entriesAsAnswered`), those the check does not map to now, by result id: CSV's and
    /// JSON's rows name them beside the current ones, as the WCAG table counts them.
    package var criteriaAsAnswered: [UUID: [String]] = [:]

    /// Whether the report was written with nothing wrong in what it rests on.
    package var isVerified: Bool { unverifiedProblems == nil && unknownCriteria.isEmpty }

    /// The line every format puts at its top when the report was written despite problems.
    package var unverifiedBanner: String? {
        var parts: [String] = []
        if let problems = unverifiedProblems {
            parts.append("\(problems.count) problem\(problems.count == 1 ? "" : "s") in the records this report rests on; run checkrun verify")
        }
        if !unknownCriteria.isEmpty {
            parts.append("\(unknownCriteria.count) failed check\(unknownCriteria.count == 1 ? "" : "s") whose WCAG criteria are unknown (the database keeps no text of the protocol version answered), which the WCAG terms do not count")
        }
        return parts.isEmpty ? nil : "UNVERIFIED: " + parts.joined(separator: "; ")
    }

    /// One digest over what the report rests on and what it shows: every session's chain head,
    /// then every result it reports (which result, where, and its verdict and outcomes), so two
    /// databases that would give different reports never give the same digest. The form is
    /// written down in Schemas/canonical-forms.md.
    package var evidenceDigest: String {
        Self.evidenceDigest(chains: chains, results: checks.flatMap(\.results) + removed)
    }

    /// The digest's canonical form, kept apart so a test can pin it.
    package static func evidenceDigest(chains: [ResultStore.ChainDigest], results: [ReportedResult]) -> String {
        var lines = chains.map { "chain \($0.session.lowercasedText) \($0.records) \($0.head)" }
        for reported in results {
            let result = reported.result
            let outcomes = result.outcomes.map { $0?.verdict.rawValue ?? "-" }.joined(separator: ",")
            // The evidence a result shows, by hash, only when it has any: digests of reports
            // without attachments are what they were.
            var evidence = result.attachments.isEmpty ? "" : " attachments " + result.attachments.map(\.hash).joined(separator: ",")
            if let earlier = reported.failedEarlier {
                evidence += " failed-earlier \(JSONWriter.quoted(earlier.build)) \(earlier.attempt)" + (earlier.elsewhere.map { " " + JSONWriter.quoted($0) } ?? "")
            }
            lines.append("result \(result.id.lowercasedText) \(JSONWriter.quoted(result.check)) \(JSONWriter.quoted(reported.build)) \(JSONWriter.quoted(reported.device)) \(result.verdict?.rawValue ?? "-") \(outcomes) \(reported.amendments)\(evidence)")
        }
        return SHA256.hex(lines.joined(separator: "\n"))
    }

    /// Every check's figures across all the release's builds (for charts and changes).
    package var history: Comparison?

    /// What changed since the previous build, when the release has more than one.
    package var changes: Comparison? {
        guard let history, history.scopes.count > 1 else { return nil }
        return history.lastStep()
    }

    /// Each check no longer in the protocols that has results here, by name, with its standing:
    /// counted in the summary, so a failure of one is never a gate's exit 3 beside "0 failed".
    package var removedStatuses: [String: CheckStatus] {
        Dictionary(grouping: removed, by: \.result.check).mapValues { CheckStatus.combining($0) }
    }

    /// The checks the summary counts: those in the protocols and those removed since.
    package var checkCount: Int { checks.count + removedStatuses.count }

    package var summary: [CheckStatus: Int] {
        var counts = Dictionary(grouping: checks, by: \.status).mapValues(\.count)
        for status in removedStatuses.values { counts[status, default: 0] += 1 }
        return counts
    }

    package var hasFailures: Bool { checks.contains { $0.status == .failed } || removed.contains { $0.standing == .fail } }
}

extension ReleaseReport {
    /// Why a report cannot be made, with what the user can pick instead.
    package struct ScopeError: Error, CustomStringConvertible {
        package var description: String
    }

    /// How much build history a report needs: every build for charts, else the last two for
    /// "changes since the previous build" (reading all of them costs time on a long release).
    package enum History: Sendable {
        case allBuilds, lastTwoBuilds
    }

    package static func make(
        store: ResultStore, library: ProtocolLibrary, release: String, build: String?, threshold: Double = 20,
        history depth: History = .allBuilds, now: Date = Date()
    ) throws -> ReleaseReport {
        try make(store: store, loadingLibrary: { library }, release: release, build: build, threshold: threshold, history: depth, now: now)
    }

    /// Reads everything from the store first and asks for the protocols only then, so a caller
    /// can load and check the protocol files on another core meanwhile.
    package static func make(
        store: ResultStore, loadingLibrary: @escaping () throws -> ProtocolLibrary, release: String, build: String?, threshold: Double = 20,
        history depth: History = .allBuilds, now: Date = Date()
    ) throws -> ReleaseReport {
        do {
            try store.requireRelease(release)
            if let build { try store.requireBuild(build, of: release) }
        } catch {
            throw ScopeError(description: error.message)
        }
        let allBuilds = try store.builds(release: release)
        // The protocols are asked for early only where a skip's count waits to be judged.
        let loaded = LibraryOnce(loadingLibrary)
        let judge = CountFailureJudge(store: store, releases: [release], protocols: loaded.value)
        let latest = try Latest(store, release: release, build: build, judge: judge)
        let (byCheck, shownResultProblems) = (latest.byCheck, latest.problems)
        let builds = build.map { [$0] } ?? (depth == .allBuilds ? allBuilds : Array(allBuilds.suffix(2)))
        let scopes = builds.map { ResultStore.BuildScope(release: release, build: $0) }
        var history = try Comparison.make(store: store, scopes: scopes, threshold: threshold, known: nil, judge: judge)
        let participants = try participants(store, release: release, build: build, shown: byCheck)
        let chains = try store.chainDigests(release: release, through: build)
        let library = try loaded.value()
        // One hash per protocol, not one per check: hashing a document is the costly part.
        var hashes: [String: String] = [:]
        for document in library.documents where hashes[document.id] == nil { hashes[document.id] = document.contentHash }
        let checks = try library.allChecks.map { reference -> CheckEntry in
            var results = byCheck[reference.name] ?? []
            try answeredChecks(of: &results, reference, current: hashes[reference.document.id] ?? reference.document.contentHash, store)
            markFailuresSetAside(&results, reference.check)
            return CheckEntry(reference: reference, results: results, status: CheckStatus.combining(results))
        }
        let known = Set(library.allChecks.map(\.name))
        history.markRemoved(keeping: known)
        history.judge(by: library)
        var removed = byCheck.filter { !known.contains($0.key) }.values.flatMap { $0 }.sorted { $0.result.check < $1.result.check }
        let removedEntries = try removedEntries(&removed, store)
        let protocols = try library.documents.map { document -> ProtocolEntry in
            let hash = hashes[document.id] ?? document.contentHash
            let others = checks.filter { $0.reference.document.id == document.id }.flatMap(\.results).filter { $0.result.protocolHash != hash }
            return ProtocolEntry(id: document.id, title: document.title, status: document.status.rawValue, contentHash: hash,
                                 resultsWithOtherHash: others.count, changedChecks: try changedChecks(document, others.map(\.result.protocolHash), store))
        }
        let answeredEntries = try entriesAsAnswered(checks, current: hashes, store)
        var report = ReleaseReport(
            release: release, build: build, generatedAt: now,
            builds: build.map { [$0] } ?? allBuilds, devices: participants.devices, testers: participants.testers,
            firstResult: latest.first, lastResult: latest.last, protocols: protocols, checks: checks, removed: removed,
            criteria: criteria(checks + removedEntries + answeredEntries, library), profiles: profiles(checks + removedEntries),
            chains: chains, shownResultProblems: shownResultProblems + history.shownResultProblems.filter { !shownResultProblems.contains($0) }, history: history)
        // A removed check's failure names the criteria of the version it failed against, as
        // the WCAG rows count it: the CSV and JSON left them out.
        report.criteriaAsAnswered = criteriaAsAnswered(answeredEntries + removedEntries, beside: checks)
        report.unfinishedFailures = try unfinishedFailures(store, release: release, build: build, builds: allBuilds, latest: byCheck)
        report.criteria = noting(report.unfinishedFailures, in: report.criteria)
        return report
    }

    /// One row per criterion. The term follows the evidence of every check mapped to it in
    /// the report's scope: Supports only when every one passed; failures make it Partially
    /// Supports or Does Not Support; passes with checks not run, skipped or blocked are Incomplete.
    private static func criteria(_ checks: [CheckEntry], _ library: ProtocolLibrary) -> [CriterionRow] {
        let mapped = Set(checks.flatMap(\.reference.criteria))
        return WCAGTable.wcag22.criteria.compactMap { criterion -> CriterionRow? in
            guard criterion.level != .aaa || mapped.contains(criterion.number) else { return nil }
            // A check once: its current mapping first, then the version a failure was answered against.
            var named = Set<String>()
            let relevant = checks.filter { $0.reference.criteria.contains(criterion.number) && named.insert($0.reference.name).inserted }
            let coverage = Coverage(relevant)
            var remarks = [coverage.sentence]
            var inFull = remarks
            for entry in relevant where entry.status == .failed {
                for reported in entry.results where reported.standing == .fail {
                    remarks.append(Attention.describe(entry.reference.name + Coverage.caveat(entry), reported) + ".")
                    inFull.append(Attention.describe(entry.reference.name + Coverage.caveat(entry), reported, notesInFull: true) + "." + AttachedEvidence.remark(reported))
                }
            }
            var rest: [String] = []
            let passed = relevant.filter { $0.status == .passed }
            if !passed.isEmpty { rest.append("Passed: \(passed.map { $0.reference.name + Coverage.caveat($0) }.joined(separator: ", ")).") }
            let notApplicable = relevant.filter { $0.status == .notApplicable }
            if !notApplicable.isEmpty { rest.append("Not applicable: \(notApplicable.map(\.reference.name).joined(separator: ", ")).") }
            let partly = relevant.filter(\.passedOnSomeDevices)
            if !partly.isEmpty { rest.append("Passed on some devices, set aside on others: \(partly.map { "\($0.reference.name) (\($0.status.rawValue))" }.joined(separator: ", ")).") }
            let open = relevant.filter { ![.passed, .failed, .notApplicable].contains($0.status) && !$0.passedOnSomeDevices }
            if !open.isEmpty { rest.append("Without a pass or fail: \(open.map { "\($0.reference.name) (\($0.status.rawValue))" }.joined(separator: ", ")).") }
            if relevant.isEmpty { rest.append("No protocol maps this criterion.") }
            return CriterionRow(
                criterion: criterion, checks: relevant.map(\.reference.name), conformance: coverage.conformance, coverage: coverage,
                isCoverageGap: coverage.conformance == .notEvaluated && criterion.level != .aaa,
                remarks: (remarks + rest).joined(separator: " "), remarksInFull: (inFull + rest).joined(separator: " "))
        }
    }
}
