import CheckrunModel
import CheckrunStore
import Foundation

/// `checkrun record`: one result without the walk, for results gathered elsewhere and for scripts.
struct RecordCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "record",
        abstract: "Record one check's result without the walk.",
        discussion: """
        The result is saved in a session of its own, as the next attempt at the check for that release,
        build and device. It is judged as the walk judges: without --verdict the outcomes and counts
        decide it, and a result that contradicts itself (a pass with a failed outcome, a count beyond
        what is possible, a failure with no reason) is refused with exit 2 and nothing is recorded.
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release under test.", required: true),
            OptionDefinition(.build, .value("B"), help: "The build under test.", required: true),
            OptionDefinition(.check, .value("PROTOCOL/CHECK"), help: "The check, e.g. tiny-target/touch-one-hand.", required: true),
            OptionDefinition(.verdict, .value("V"), help: "pass, fail, blocked or skipped (default: judged from the outcomes and counts).", completion: .values(Verdict.allCases.map(\.rawValue))),
            OptionDefinition(.seconds, .value("N"), help: "Active time, as seconds or m:ss."),
            OptionDefinition(.count, .repeated("NAME=N"), help: "A counter's value, e.g. stops=14 (repeatable)."),
            OptionDefinition(.expected, .repeated("N=VERDICT"), help: "Expected outcome N (from 1): pass, fail or na (repeatable)."),
            OptionDefinition(.notes, .value("TEXT"), help: "Notes."),
            OptionDefinition(.reason, .value("TEXT"), help: "Why the check is blocked (with --verdict blocked)."),
            OptionDefinition(.tester, .value("NAME"), help: "Who tested (default: $USER)."),
            OptionDefinition(.device, .value("TEXT"), help: "The device."),
            OptionDefinition(.os, .value("VERSION"), help: "The device's OS version, e.g. 18.1."),
            AttachmentOptions.attach,
            AttachmentOptions.maxAttachment,
            StoreOptions.database,
        ],
        examples: [
            Example("checkrun record --release 2.4 --build 311 --check tiny-target/touch-one-hand --verdict fail --expected 1=pass --expected 2=fail --count hits=10 --notes \"Delete fired once\"", "Record a failed check with its outcomes."),
            Example("checkrun record --release 2.4 --build 311 --check motor-accessibility/switch-control-stops-to-pay --verdict pass --count stops=14 --seconds 1:05", "Record a count and a time."),
            Example("checkrun record --release 2.4 --build 311 --check tiny-target/touch-one-hand --verdict fail --expected 2=fail --notes \"Delete fired\" --attach 2=shot.png=\"Delete fired from a 20-point button\"", "Record a failure with a screenshot as evidence of outcome 2."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let arguments = context.arguments
        var missing: [String] = []
        if arguments.value(.release) == nil { missing.append("--release R") }
        if arguments.value(.build) == nil { missing.append("--build B") }
        if arguments.value(.check) == nil { missing.append("--check PROTOCOL/CHECK") }
        guard missing.isEmpty, let release = arguments.value(.release), let build = arguments.value(.build), let name = arguments.value(.check) else {
            throw UsageError("missing \(missing.joined(separator: ", "))", command: "record")
        }
        let verdict = try arguments.value(.verdict).map { try ResultOptions.verdict($0, command: "record") }
        let library = try context.loadProtocols()
        guard let reference = library.check(named: name) else {
            let hint = library.suggestions(forCheck: name).first.map { " Did you mean \"\($0)\"?" } ?? ""
            throw CommandFailure("no check \"\(name)\".\(hint) Run `checkrun list` to see them all.")
        }
        let now = context.now()
        let label = { (option: OptionName, value: String, required: Bool) in try SessionLabel.checked(value, option, required: required, command: "record") }
        let session = Session(
            id: context.newSessionID(), release: try label(.release, release, true), build: try label(.build, build, true),
            device: try label(.device, arguments.value(.device) ?? "", false), osVersion: try label(.os, arguments.value(.os) ?? "", false),
            tester: try label(.tester, arguments.value(.tester) ?? SessionLabel.userSayingWhyNot(context) ?? "", false), plan: [reference.name], startedAt: now, finishedAt: now)
        var result = try answers(arguments, reference: reference, session: session, at: now)
        // The answers are judged first on their own (a count beyond what is possible), then
        // with the verdict given or derived.
        try refuseContradictions(in: result, against: reference.check)
        result.verdict = try judgedVerdict(verdict, of: result, against: reference)
        try refuseContradictions(in: result, against: reference.check)
        let requests = try AttachmentOptions.requests(arguments.all(.attach), outcomes: reference.check.expected.count, command: "record",
                                                      home: context.environment["HOME"])
        let limit = try AttachmentOptions.limit(arguments)
        // Files are read and hashed before the write lock is taken: a long recording must not
        // keep other testers' answers waiting.
        let prepared = try requests.map { try AttachmentOptions.prepare($0, limit: limit) }
        defer { prepared.forEach { $0.close() } }
        let store = try context.openStore()
        // The bytes go in first, each file in a transaction of its own, so a long upload to a
        // team store keeps no other tester's answer waiting; stored by content, bytes that no
        // record names (this command killed next) change nothing anyone reads.
        let attachments = try zip(requests, prepared).map { request, file in try AttachmentOptions.attach(file, request, to: store, at: now) }
        // The attempt is numbered, the session written and the result saved in one write
        // transaction: two records at once cannot take the same attempt, and a kill leaves
        // either all of it or none.
        try store.batch {
            result.attempt = try store.nextAttempt(check: reference.name, release: release, build: build, device: session.device)
            try store.insert(session)
            try store.keep([reference.document])
            result.attachments = attachments
            try store.save(result)
        }
        let evidence = result.attachments.isEmpty ? "" : ", with \(result.attachments.count) attachment\(result.attachments.count == 1 ? "" : "s")"
        context.print("Recorded \(reference.name): \(result.verdict?.rawValue ?? "in progress"), attempt \(result.attempt), in session \(session.shortID)\(evidence).")
        for sentence in result.countingSentences(against: reference.check) { context.print(sentence) }
        return 0
    }

    private static func refuseContradictions(in result: CheckResult, against check: Check) throws {
        let contradictions = Judgement.contradictions(of: result, against: check)
        guard contradictions.isEmpty else {
            throw CommandFailure("the result contradicts itself: \(contradictions.joined(separator: "; ")). Nothing was recorded", exitCode: 2)
        }
    }

    /// The result the options describe, without its verdict.
    private static func answers(_ arguments: ParsedArguments, reference: CheckReference, session: Session, at now: Date) throws -> CheckResult {
        let check = reference.check
        var result = CheckResult(
            id: .timeOrdered(at: now), sessionID: session.id, check: reference.name, protocolHash: reference.document.contentHash,
            attempt: 1, outcomeCount: check.expected.count, startedAt: now)
        if let text = arguments.value(.seconds) {
            let seconds = try ResultOptions.seconds(text, command: "record")
            result.stopwatch = [StopwatchEvent(.typed, at: 0, typedSeconds: seconds, recordedAt: now)]
        }
        for (name, value) in try ResultOptions.counts(arguments.all(.count), for: reference, command: "record") {
            result.counters[name] = value.map { CounterValue($0, answeredAt: now) }
        }
        for (index, outcome) in try ResultOptions.outcomes(arguments.all(.expected), for: reference, command: "record") {
            let value = check.expected[index].target.flatMap { result.counters[$0.counter]?.value }
            result.outcomes[index] = OutcomeAnswer(outcome, value: value, answeredAt: now)
        }
        Judgement.fillOutcomesFromCounts(&result, against: check)
        if arguments.value(.verdict) == "blocked" || arguments.value(.reason) != nil {
            result.blockedReason = try ResultOptions.reason(arguments) ?? ResultOptions.notes(arguments)
        }
        result.notes = try ResultOptions.notes(arguments)
        result.notesAnsweredAt = result.notes == nil ? nil : now
        result.updatedAt = now
        return result
    }

    /// The verdict given, or the one every answered outcome adds up to.
    private static func judgedVerdict(_ given: Verdict?, of result: CheckResult, against reference: CheckReference) throws -> Verdict {
        if let given { return given }
        let check = reference.check
        guard !check.expected.isEmpty, result.outcomes.allSatisfy({ $0 != nil }) else {
            let missing = result.outcomes.enumerated().filter { $0.element == nil }.map { String($0.offset + 1) }
            throw UsageError(check.expected.isEmpty
                ? "\(reference.name) has no expected outcomes to judge; give --verdict pass, fail, blocked or skipped"
                : "give --verdict, or every expected outcome so checkrun can judge it (missing: --expected \(missing.joined(separator: ", ")))", command: "record")
        }
        return result.derivedVerdict(against: check)
    }
}
