import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import CheckrunWalk
import Foundation

/// `checkrun run`: start a session for one release, build and device, and walk it.
struct RunCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "run",
        abstract: "Start a test session and walk its checks, saving every answer at once.",
        discussion: """
        For each check: the stopwatch (Enter starts and stops it, p pauses, space or plus (+) tallies a
        stop, minus (-) takes one back, or type t 1:20), then each expected outcome (p pass, f fail, n not
        applicable), each counter, and notes. At every prompt: ? help, b back, s skip, x block, q quit.
        Answers can also be piped on standard input, one per line. A closed terminal loses nothing:
        continue with `checkrun resume`.
        """,
        options: [
            OptionDefinition(.release, .value("R"), help: "The release under test, e.g. 2.4 (asked for on a terminal)."),
            OptionDefinition(.build, .value("B"), help: "The build under test, e.g. 311 (asked for on a terminal)."),
            OptionDefinition(.device, .value("TEXT"), help: "The device, e.g. \"iPhone 15\" (its OS version goes in --os)."),
            OptionDefinition(.os, .value("VERSION"), help: "The OS version, e.g. 18.2."),
            OptionDefinition(.tester, .value("NAME"), help: "Who is testing (default: $USER)."),
            AttachmentOptions.capture,
            AttachmentOptions.maxAttachment,
            StoreOptions.database,
        ] + CheckFilter.options,
        examples: [
            Example("checkrun run --release 2.4 --build 311 --device \"iPhone 15\"", "Walk every check in ./protocols."),
            Example("checkrun run --release 2.4 --build 311 --profile \"Switch Control\" --accessible", "Walk the Switch Control checks with screen-reader-friendly output."),
            Example("printf 't 1:05\\n10\\nf Delete fired\\n\\n' | checkrun run --release 2.4 --build 311 --check tiny-target/touch-one-hand", "Answer from a script."),
            Example("checkrun run --release 2.4 --build 311 --capture \"xcrun simctl io booted screenshot {file}\"", "Walk with the key a taking a screenshot of the simulator."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        _ = try AttachmentOptions.limit(context.arguments)  // a bad --max-attachment is refused before the walk, not ignored in it
        let library = try context.loadProtocols()
        let checks = try CheckFilter(context.arguments).apply(to: library)
        guard !checks.isEmpty else {
            throw CommandFailure("no check matches the filters; see `checkrun list` with the same filters")
        }
        // Until the walk begins (and says how to resume), Ctrl-C stops here with nothing saved.
        SignalTrap.install(message: "\nStopped before the walk began; nothing was started.\n")
        let release: String, build: String, device: String, tester: String, store: ResultStore
        do {
            release = try required(.release, "Release", context)
            build = try required(.build, "Build", context)
            store = try context.openStore()
            // At a terminal, the device and the tester are asked for when not given, offering the
            // last ones this database saw: a session of "unnamed" devices helps no report.
            device = try asked(.device, "Device", offering: try store.lastUsed(.device), context)
            tester = try asked(.tester, "Tester", offering: try store.lastUsed(.tester) ?? SessionLabel.user(context.environment), context)
        } catch is QuitBeforeStarting {
            context.print("Nothing was started.")
            return 0
        }
        var session = Session(
            id: context.newSessionID(), release: release, build: build, device: device,
            osVersion: try SessionLabel.checked(context.arguments.value(.os) ?? "", .os, required: false, command: "run"), tester: tester,
            plan: checks.map(\.name), startedAt: context.now())
        // The newest unfinished session of this tester, OS version and checks, else the newest.
        let unfinished = try store.unfinishedSessions(release: release, build: build, device: device)
        if let earlier = unfinished.last(where: { Self.differences($0.session, session).isEmpty }) ?? unfinished.last {
            switch try offerToResume(earlier, insteadOf: session, context) {
            case .resume: return try ResumeCommand.resume(earlier.session, store: store, context)
            case .quit: return 0
            case .startNew: break
            }
        }
        // The session and the text of every protocol it walks are kept together; Ctrl-C waits
        // for the commit, so what it then says is true: nothing started, or a session to resume.
        // Another checkrun writing (a long merge) is said and waited for, as during the walk.
        let slow = SlowSave(context: context, store: store, what: "the new session",
                            ifStopped: "`\(context.commandHere("sessions"))` then shows whether the session was started",
                            whenStopped: "the session may or may not be started (`\(context.commandHere("sessions"))` shows whether it is).")
        try BusyStore(store: store, context: context).waitingWhileBusy({
            try slow.run({
                try store.batch {
                    // Started when saved, not when typed: an offer to resume or a busy store came between.
                    session.startedAt = context.now()
                    try store.insert(session)
                    try store.keep(uniqueDocuments(checks))
                }
            }, saved: { _ in
                SignalTrap.install(message: TerminalText("\nInterrupted. Session \(session.shortID) was started, and nothing in it is answered yet. Resume with: \(context.resumeCommand(session.shortID))\n").rendered)
            })
        }, waiting: "The database \(context.databaseName) is busy: another checkrun is writing to it, so the session is not started yet. "
            + "Waiting for it to finish; the walk begins then. To stop, press Control-C; nothing is started until then.",
           stopped: "Stopped while waiting for the database; nothing was started.",
           done: "The database is free again, and the session is started.")
        context.printLine("Session \(session.shortID) started: release \(release), build \(build)\(session.device.isEmpty ? "" : ", device \(session.device)")\(session.osVersion.isEmpty ? "" : ", OS \(session.osVersion)"), \(checks.count) check\(checks.count == 1 ? "" : "s"). Results go to \(context.databaseName).")
        context.print("Type question mark (?) at any prompt for the keys.")
        let attempts = try store.nextAttempts(release: release, build: build, device: session.device)
        let walk = Walk(session: session, plan: checks, results: [], nextAttempts: attempts, at: session.startedAt, newID: context.newResultID)
        var runner = WalkRunner(walk: walk, store: store, context: context)
        return try runner.run()
    }

    /// How an unfinished session differs from the one asked for, in words: its tester, OS
    /// version or checks (in any order: the same checks walked in another order are the same).
    private static func differences(_ session: Session, _ asked: Session) -> [String] {
        var differences: [String] = []
        if session.tester != asked.tester { differences.append("its tester") }
        if session.osVersion != asked.osVersion { differences.append("its OS version") }
        if Set(session.plan) != Set(asked.plan) { differences.append("its checks") }
        return differences
    }

    /// What the tester chose when offered an unfinished session.
    private enum Choice { case resume, startNew, quit }

    /// Says that a session for the same release, build and device is unfinished; at a terminal,
    /// asks whether to resume it instead (Enter or y resumes, n starts a new session). One of
    /// another tester, OS version or plan is only named: resuming it would file this tester's
    /// answers under that session's tester and OS, and walk checks other than those asked for.
    private static func offerToResume(_ earlier: ResultStore.SessionSummary, insteadOf asked: Session, _ context: CommandContext) throws -> Choice {
        let session = earlier.session
        let who = [session.tester.isEmpty ? nil : "tester \(session.tester)", session.osVersion.isEmpty ? nil : "OS \(session.osVersion)"].compactMap { $0 }
        context.printLine("Session \(session.shortID) for release \(session.release), build \(session.build)\(session.device.isEmpty ? "" : ", device \(session.device)")"
            + (who.isEmpty ? "" : " (\(who.joined(separator: ", ")))") + " is unfinished: \(earlier.completed) of \(session.plan.count) checks done.")
        let differences = Self.differences(session, asked)
        guard differences.isEmpty else {
            context.print("It differs from this one in \(differences.joined(separator: " and ")), so a new session is started; to go on with that one instead: \(context.resumeCommand(session.shortID))")
            return .startNew
        }
        guard isatty(STDIN_FILENO) == 1 else {
            context.print("Starting a new session; to go on with that one instead: \(context.resumeCommand(session.shortID))")
            return .startNew
        }
        while true {
            context.prompt("Resume it instead of starting a new session? (Enter or y resumes, n starts a new one, q quits) ")
            // End of input answers nothing, as at the questions before it: a second session for
            // the same build and device would split the work.
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw CommandFailure("no answer given; nothing was started. To go on with session \(session.shortID): \(context.resumeCommand(session.shortID))")
            }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "", "y", "yes": return .resume
            case "n", "no": return .startNew
            case "q", "quit":
                context.print("Nothing was started. To go on with session \(session.shortID): \(context.resumeCommand(session.shortID))")
                return .quit
            case "?", "h", "help": context.print("Enter or y resumes session \(session.shortID) where it stopped; n starts a new session; q quits without starting one.")
            default: context.print("Type y to resume it, n to start a new session, or q to quit.")
            }
        }
    }

    /// The option's value; at a terminal, asked for when not given (Enter takes the one
    /// offered); piped, the one offered (the tester: $USER), else none.
    private static func asked(_ option: OptionName, _ label: String, offering offered: String?, _ context: CommandContext) throws -> String {
        if let value = context.arguments.value(option) { return try SessionLabel.checked(value, option, required: false, command: "run") }
        guard isatty(STDIN_FILENO) == 1 else { return option == .tester ? SessionLabel.userSayingWhyNot(context) ?? "" : "" }
        // One read from the database (the last session's) is offered only while it is a label
        // that could be typed: one edited to hold an escape sequence is not carried on.
        let offered = offered.flatMap { SessionLabel.problem($0, required: false) == nil ? $0 : nil }
        while true {
            context.prompt(offered.map { "\(label) (Enter for \(DisplayText.neutralised($0)); ? for help): " } ?? "\(label) (? for help): ")
            guard let line = Swift.readLine(strippingNewline: true) else { throw CommandFailure("no \(label.lowercased()) given; nothing was started") }
            let value = SessionLabel.normalised(line.trimmingCharacters(in: .whitespaces))
            if !value.isEmpty, let label = try typedLabel(value, option, context) { return label }
            if value.isEmpty, let offered { return offered }
            if !value.isEmpty { continue }
            context.print("Name the \(label.lowercased()), e.g. \(option == .device ? "iPhone 15" : "Ana"); every report lists it.")
        }
    }

    /// A value from its option; on a terminal a missing one is asked for, otherwise it is a usage error.
    private static func required(_ option: OptionName, _ label: String, _ context: CommandContext) throws -> String {
        if let value = context.arguments.value(option) { return try SessionLabel.checked(value, option, required: true, command: "run") }
        guard isatty(STDIN_FILENO) == 1 else {
            throw UsageError("missing --\(option.rawValue): name the \(label.lowercased()) under test, e.g. --\(option.rawValue) \(option == .release ? "2.4" : "311")", command: "run")
        }
        while true {
            context.prompt("\(label) under test (? for help): ")
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw CommandFailure("no \(label.lowercased()) given; nothing was started")
            }
            let value = SessionLabel.normalised(line.trimmingCharacters(in: .whitespaces))
            if !value.isEmpty, let label = try typedLabel(value, option, context) { return label }
            if !value.isEmpty { continue }
            context.print("The \(label.lowercased()) is required, e.g. \(option == .release ? "2.4" : "311").")
        }
    }

    /// `q` at a prompt before the walk: nothing is saved yet, so nothing is lost.
    private struct QuitBeforeStarting: Error {}

    /// A label typed at a prompt (already trimmed); one that cannot be a label is explained and
    /// asked for again (nil). The walk's keys are keys here too, never a label: `?` explains the
    /// question, `q` quits, and `b`, `s`, `x` and the answer letters are not taken for a name.
    private static func typedLabel(_ value: String, _ option: OptionName, _ context: CommandContext) throws -> String? {
        let example = option == .release ? "2.4" : option == .build ? "311" : option == .device ? "iPhone 15" : "Ana"
        switch value.lowercased() {
        case "?", "h", "help":
            context.print("Type the \(option.rawValue) and press Enter, e.g. \(example); it names the session in every report. q quits without starting a session.")
            return nil
        case "q", "quit":
            throw QuitBeforeStarting()
        case "b", "back", "s", "x", "p", "f", "n", "a":
            // The walk's keys, typed a question early: never a release, build, device or tester.
            context.print("\(value) is a key of the walk, not a \(option.rawValue); these questions cannot be gone back over (q quits and starts again). Type the \(option.rawValue), e.g. \(example).")
            return nil
        default:
            break
        }
        guard let problem = SessionLabel.problem(value, required: true) else { return value }
        context.print("That \(option.rawValue) \(problem). Type it again.")
        return nil
    }

    /// Each protocol of a plan once, in walking order.
    static func uniqueDocuments(_ checks: [CheckReference]) -> [ProtocolDocument] {
        var seen = Set<String>()
        return checks.map(\.document).filter { seen.insert($0.contentHash).inserted }
    }
}
