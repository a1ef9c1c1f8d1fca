import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun amend`: correct a recorded result with a new record that says why.
struct AmendCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "amend",
        abstract: "Correct a recorded result: a new record that supersedes it, with a reason.",
        discussion: "Nothing is overwritten: the earlier records stay in the session's chain, and reports show the latest result marked as amended, with the reason.",
        options: [
            OptionDefinition(.release, .value("R"), help: "The release of the result.", required: true),
            OptionDefinition(.build, .value("B"), help: "The build of the result.", required: true),
            OptionDefinition(.check, .value("PROTOCOL/CHECK"), help: "The check of the result.", required: true),
            OptionDefinition(.device, .value("TEXT"), help: "The device, when the check was tested on several."),
            OptionDefinition(.os, .value("VERSION"), help: "The device's OS version, when the check was tested on several, e.g. 18.1."),
            OptionDefinition(.reason, .value("TEXT"), help: "Why the result is corrected (required).", required: true),
            OptionDefinition(.verdict, .value("V"), help: "The corrected verdict: pass, fail, blocked or skipped.", completion: .values(Verdict.allCases.map(\.rawValue))),
            OptionDefinition(.expected, .repeated("N=VERDICT"), help: "A corrected outcome (from 1): pass, fail or na."),
            OptionDefinition(.count, .repeated("NAME=N"), help: "A corrected counter value, or NAME=none to take a count back (its outcome keeps its answer)."),
            OptionDefinition(.seconds, .value("N"), help: "A corrected active time."),
            OptionDefinition(.notes, .value("TEXT"), help: "Corrected notes."),
            AttachmentOptions.attach,
            OptionDefinition(.withdraw, .repeated("N|NAME|HASH"), help: "Withdraw an attachment, named by its number in the result's list, its file name or the start of its hash; its bytes stay in the database (repeatable)."),
            AttachmentOptions.maxAttachment,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun amend --release 2.4 --build 311 --check tiny-target/touch-one-hand --verdict pass --expected 2=pass --reason \"Delete fired from a test build's debug overlay\"", "Correct a verdict, saying why."),
            Example("checkrun amend --release 2.4 --build 311 --check tiny-target/touch-one-hand --withdraw shot.png --attach 2=retake.png=\"Delete fired from a 20-point button\" --reason \"The first screenshot showed another screen\"", "Replace a screenshot; the first stays in the record."),
            Example("checkrun amend --release 2.4 --build 312 --check tiny-target/touch-one-hand --expected 1=na --count hits=none --reason \"Build 312 closes the sheet with a swipe; there is no button to hit\"", "Take a count back and mark its outcome not applicable."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        guard let release = arguments.value(.release), let build = arguments.value(.build), let name = arguments.value(.check) else {
            throw UsageError("name the result with --release R --build B --check PROTOCOL/CHECK", command: "amend")
        }
        guard let reason = try ResultOptions.reason(arguments), !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UsageError("missing --reason TEXT: a correction must say why", command: "amend")
        }
        let store = try context.openStore(.existingOnly)
        let library = try context.loadProtocols()
        let withdrawals = arguments.all(.withdraw)
        let limit = try AttachmentOptions.limit(arguments)
        // Files to attach are read and hashed before the write lock is taken; the outcomes they
        // name are checked once the version the result was answered against is known.
        let requests = try library.check(named: name) == nil ? []
            : AttachmentOptions.requests(arguments.all(.attach), outcomes: nil, command: "amend", home: context.environment["HOME"])
        let prepared = try requests.map { try AttachmentOptions.prepare($0, limit: limit) }
        defer { prepared.forEach { $0.close() } }
        // Read, change and write inside one write transaction: two amends at once each see the
        // other's change, so neither is lost.
        let (result, reference) = try store.batch { () throws -> (CheckResult, CheckReference) in
            let matches = try store.latestResults(check: name, release: release, build: build, device: arguments.value(.device),
                                                  osVersion: arguments.value(.os))
            guard var result = matches.first else {
                let device = arguments.value(.device).map { $0.isEmpty ? " on no device named" : " on \(DisplayText.neutralised($0))" } ?? ""
                let place = device + (arguments.value(.os).map { $0.isEmpty ? " with no OS version named" : " with OS \(DisplayText.neutralised($0))" } ?? "")
                throw CommandFailure("no finished result of \(name) in release \(release), build \(build)\(place); `checkrun report --release \(release)` lists the results")
            }
            try Self.requireOnePlace(of: matches, name, store, arguments)
            guard let current = library.check(named: name) else {
                throw CommandFailure("no check \"\(name)\" in \(library.directory); corrections of a removed check are not possible")
            }
            let namesOutcomes = !arguments.all(.expected).isEmpty || !arguments.all(.count).isEmpty || requests.contains { $0.outcome != nil }
            let reference = try answered(current, result, store, correctsOutcomes: namesOutcomes)
            try AttachmentOptions.requireOutcomes(requests, within: reference.check.expected.count)
            result = try corrected(result, by: arguments, reference: reference, reason: reason, changesEvidence: !requests.isEmpty || !withdrawals.isEmpty,
                                   at: context.now())
            // Every name is resolved against the list as it was, then removed from the end, so
            // numbers keep meaning what the tester saw.
            let indices = Set(try withdrawals.map { try Self.attachmentIndex($0, in: result) })
            for index in indices.sorted(by: >) { result.attachments.remove(at: index) }
            for (request, file) in zip(requests, prepared) { result.attachments.append(try AttachmentOptions.attach(file, request, to: store, at: context.now())) }
            // A correction is not an answer: the time the result was last answered stays, so an
            // amended older attempt never becomes the latest (the amendment's record has its own time).
            try store.amend(result, reason: reason, at: context.now())
            return (result, reference)
        }
        context.print("Amended \(name) (release \(release), build \(build)): now \(result.verdict?.rawValue ?? "in progress"). Reason: \(DisplayText.neutralised(reason)). The earlier record is kept.")
        try sayWhatElseChanged(result, reference, current: library.check(named: name), context)
        return 0
    }

    /// Refuses to guess which result is meant when the check has results on several devices,
    /// or on several OS versions of one device: each is a result of its own in reports, and the
    /// newest of them is not the one a lead necessarily means.
    private static func requireOnePlace(of matches: [CheckResult], _ name: String, _ store: ResultStore, _ arguments: ParsedArguments) throws {
        let sessions = try matches.compactMap { try store.session(id: $0.sessionID) }
        let devices = Set(sessions.map(\.device))
        if devices.count > 1 && arguments.value(.device) == nil {
            // The unnamed device is named too, with the option that chooses it.
            let named = devices.sorted().map { $0.isEmpty ? "no device named (--device \"\")" : "\"\(DisplayText.neutralised($0))\"" }
            throw UsageError("\(name) has results on several devices: \(named.joined(separator: ", ")); choose one with --device", command: "amend")
        }
        let versions = Set(sessions.map(\.osVersion))
        if versions.count > 1 && arguments.value(.os) == nil {
            let named = versions.sorted().map { $0.isEmpty ? "no OS version named (--os \"\")" : "\"\(DisplayText.neutralised($0))\"" }
            throw UsageError("\(name) has results on several OS versions of this device: \(named.joined(separator: ", ")); choose one with --os", command: "amend")
        }
    }

    /// The counts taken back, the numbering of a check changed since, and a failure that no
    /// outcome gives any more, in words after the amendment.
    private static func sayWhatElseChanged(_ result: CheckResult, _ reference: CheckReference, current: CheckReference?, _ context: CommandContext) throws {
        for (counter, value) in try ResultOptions.counts(context.arguments.all(.count), for: reference, command: "amend", removable: true) where value == nil {
            context.print("\(counter): count taken back; the outcome it decided keeps its answer.")
        }
        if let current, current.check != reference.check {
            let numbered = reference.check.expected.enumerated().map { "\($0.offset + 1). \($0.element.text)" }.joined(separator: "; ")
            context.print("Its check has changed since it was answered: expected outcomes are numbered as they were then (\(DisplayText.neutralised(numbered))).")
        }
        if result.verdict == .fail && result.derivedVerdict(against: reference.check) == .pass {
            context.print("No expected outcome or count fails now; the verdict stays fail until it is given: --verdict pass.")
        }
        for sentence in result.countingSentences(against: reference.check) { context.print(sentence) }
    }

    /// How to correct an outcome to not applicable while a count still decides it: the count
    /// must be taken back too. Empty when no such outcome is left.
    private static func countToTakeBack(_ result: CheckResult, _ check: Check) -> String {
        let counters = check.expected.enumerated().compactMap { index, outcome -> String? in
            guard let counter = outcome.target?.counter, index < result.outcomes.count, result.outcomes[index]?.verdict == .notApplicable,
                  result.counters[counter] != nil else { return nil }
            return counter
        }
        guard !counters.isEmpty else { return "" }
        return ". To take the count back as well, add " + Set(counters).sorted().map { "--count \($0)=none" }.joined(separator: " ")
    }

    /// The check as `result` was answered: answers to expected outcomes are kept by position,
    /// so `--expected N` means what N meant then. When the protocol has changed since, that is
    /// the version the database keeps; with none kept, outcomes and counts cannot be corrected.
    private static func answered(_ current: CheckReference, _ result: CheckResult, _ store: ResultStore, correctsOutcomes: Bool) throws -> CheckReference {
        guard result.protocolHash != current.document.contentHash else { return current }
        if let kept = try store.keptCheck(named: current.name, version: result.protocolHash) { return kept }
        guard !correctsOutcomes else {
            throw CommandFailure("\(current.name) was answered against a version of its protocol that the database does not keep, so its expected outcomes may be numbered otherwise now; correct it with --verdict, --notes and --attach FILE (to the whole check) only, or walk the check again in a new session")
        }
        return current
    }

    /// The result with the corrections the options give; refuses a call that corrects nothing.
    private static func corrected(_ original: CheckResult, by arguments: ParsedArguments, reference: CheckReference, reason: String,
                                  changesEvidence: Bool, at now: Date) throws -> CheckResult {
        var result = original
        let check = reference.check
        let given = try arguments.value(.verdict).map { try ResultOptions.verdict($0, command: "amend") }
        let outcomes = try ResultOptions.outcomes(arguments.all(.expected), for: reference, command: "amend")
        let counts = try ResultOptions.counts(arguments.all(.count), for: reference, command: "amend", removable: true)
        for (index, verdict) in outcomes {
            while result.outcomes.count <= index { result.outcomes.append(nil) }
            // Not applicable holds no number: the count beside it is refused below, with how to take it back.
            let value = verdict == .notApplicable ? nil : result.outcomes[index]?.value
            result.outcomes[index] = OutcomeAnswer(verdict, value: value, note: result.outcomes[index]?.note, answeredAt: now)
        }
        try applyCounts(counts, to: &result, check: check, answeredByExpected: Set(outcomes.map(\.index)), at: now)
        if let text = arguments.value(.seconds) {
            result.stopwatch.append(StopwatchEvent(.typed, at: 0, typedSeconds: try ResultOptions.seconds(text, command: "amend"), recordedAt: now))
        }
        if let notes = try ResultOptions.notes(arguments) {
            result.notes = notes
            result.notesAnsweredAt = now
        }
        if let given {
            result.verdict = given
            result.blockedReason = given == .blocked ? reason : nil
        } else if !outcomes.isEmpty || !counts.isEmpty, original.verdict == .pass {
            // A pass that an outcome or count now fails is a failure. A failure is never turned
            // into a pass without `--verdict pass`: it may be the tester's own judgement, which
            // the notes explain and no outcome shows, and no correction of outcomes can tell.
            result.verdict = result.derivedVerdict(against: check)
        }
        guard given != nil || !outcomes.isEmpty || !counts.isEmpty || arguments.value(.seconds) != nil || arguments.value(.notes) != nil || changesEvidence else {
            throw UsageError("nothing to correct: give --verdict, --expected, --count, --seconds, --notes, --attach or --withdraw", command: "amend")
        }
        // As the walk asks again for notes written before a failure answered after them: notes
        // of a result that had not failed (a pass's "all good") are not the new failure's reason.
        if arguments.value(.notes) == nil, original.verdict != .fail, result.notesPredateAnUnexplainedFailure(check), let notes = result.notes {
            throw CommandFailure("the correction fails the check, and its notes were written before it (\"\(DisplayText.preview(notes, limit: 80))\"): "
                + "give --notes saying why it fails (the same text again keeps them). Nothing was amended", exitCode: 2)
        }
        let contradictions = Judgement.contradictions(of: result, against: check)
        guard contradictions.isEmpty else {
            throw CommandFailure("the corrected result contradicts itself: \(contradictions.joined(separator: "; ")). Nothing was amended\(countToTakeBack(result, check))", exitCode: 2)
        }
        return result
    }

    /// The counts given, each with the outcomes its counter decides: judged again by the new
    /// count, or holding it beside the verdict `--expected` gave them.
    private static func applyCounts(_ counts: [(String, Int?)], to result: inout CheckResult, check: Check, answeredByExpected: Set<Int>, at now: Date) throws {
        for (name, value) in counts {
            if value == nil && result.counters[name] == nil {
                throw UsageError("--count \(name)=none: the result has no count of \(name) to take back", command: "amend")
            }
            result.counters[name] = value.map { CounterValue($0, answeredAt: now) }
            for (index, outcome) in check.expected.enumerated() where outcome.target?.counter == name {
                guard index < result.outcomes.count, let target = outcome.target else { continue }
                guard let value else {
                    // The count is taken back: the outcome keeps the tester's answer, without the number.
                    result.outcomes[index]?.value = nil
                    continue
                }
                guard result.outcomes[index]?.verdict != .notApplicable else { continue }
                // An outcome answered by --expected too holds the new count beside the verdict
                // given (which the count must not contradict: see `corrected`); any other whose target
                // counts this counter is judged again by the new count.
                if answeredByExpected.contains(index) {
                    result.outcomes[index]?.value = value
                    continue
                }
                result.outcomes[index] = OutcomeAnswer(target.isMet(by: value) ? .pass : .fail, value: value, note: result.outcomes[index]?.note, answeredAt: now)
            }
        }
    }

    /// The attachment `name` names: its number in the result's list (from 1), its file name,
    /// or the start of its hash (8 digits or more).
    private static func attachmentIndex(_ name: String, in result: CheckResult) throws -> Int {
        let attachments = result.attachments
        if let number = Int(name), name.count < 8 {
            guard attachments.indices.contains(number - 1) else {
                throw CommandFailure("--withdraw \(number): the result has \(attachments.count) attachment\(attachments.count == 1 ? "" : "s"); \(listed(attachments))")
            }
            return number - 1
        }
        let lowered = name.lowercased()
        let matches = attachments.indices.filter { attachments[$0].name == name || (lowered.count >= 8 && attachments[$0].hash.hasPrefix(lowered)) }
        guard matches.count == 1, let index = matches.first else {
            throw CommandFailure(matches.isEmpty
                ? "--withdraw \(DisplayText.preview(name, limit: 80)): the result has no such attachment (name one by its number, its file name or at least 8 characters of its hash); \(listed(attachments))"
                : "--withdraw \(DisplayText.preview(name, limit: 80)) names several attachments; give the number of the one to withdraw: \(listed(attachments))")
        }
        return index
    }

    /// The result's attachments, numbered as `--withdraw N` takes them.
    private static func listed(_ attachments: [Attachment]) -> String {
        guard !attachments.isEmpty else { return "it has none" }
        return "its attachments: " + attachments.enumerated().map { number, attachment in
            "\(number + 1). \(DisplayText.neutralised(attachment.name)) (\(attachment.outcome.map { "expected outcome \($0)" } ?? "the check"), \(attachment.hash.prefix(12)))"
        }.joined(separator: "; ")
    }
}
