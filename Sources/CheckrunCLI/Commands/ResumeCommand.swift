import CheckrunModel
import CheckrunStore
import CheckrunWalk

/// `checkrun resume`: continue a session at its first unanswered step.
struct ResumeCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "resume",
        abstract: "Continue the newest unfinished session, or the one named, where it stopped.",
        arguments: [ArgumentDefinition("SESSION", help: "A session id or its first characters (see `checkrun sessions`).", optional: true)],
        options: [AttachmentOptions.capture, AttachmentOptions.maxAttachment, StoreOptions.database],
        examples: [
            Example("checkrun resume", "Continue the newest unfinished session."),
            Example("checkrun resume 3f2a91c4", "Continue that session."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        _ = try AttachmentOptions.limit(context.arguments)  // a bad --max-attachment is refused before the walk, not ignored in it
        let store = try context.openStore(.existingOnly)
        let session: Session
        if let id = context.arguments.positionals.first {
            // The id as typed, whole: a mistyped one ("nosuch") once kept its hex letters ("c")
            // and walked on in whatever session began with them.
            guard id.count >= 4, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw CommandFailure("\"\(DisplayText.preview(id, limit: 40))\" is not a session id: type at least 4 of its digits (0 to 9 and a to f), as `\(context.commandHere("sessions"))` lists them")
            }
            guard let found = try store.session(matching: id) else {
                throw CommandFailure("no session \"\(id)\" in \(context.databaseName); `\(context.commandHere("sessions"))` lists them")
            }
            session = found
        } else {
            guard let found = try store.latestUnfinishedSession() else {
                throw CommandFailure("no unfinished session in \(context.databaseName); start one with `\(context.commandHere("run --release R --build B"))`")
            }
            session = found
        }
        return try resume(session, store: store, context)
    }

    /// Walks a session on from its first unanswered step (also what `run` offers for a session
    /// left unfinished).
    static func resume(_ session: Session, store: ResultStore, _ context: CommandContext) throws -> Int32 {
        let library = try context.loadProtocols(orStoredIn: store)
        let (results, seen) = try store.resumeState(inSession: session.id)
        var plan: [CheckReference] = []
        var missing: [String] = []
        var kept: [String] = []
        for name in session.plan {
            if let reference = library.check(named: name) {
                plan.append(reference)
            } else if let reference = try AnsweredVersions.kept(name, results: results, store: store) {
                // Renamed or removed since it was answered: its answers go on with the text kept.
                plan.append(reference)
                kept.append(name)
            } else {
                missing.append(name)
            }
        }
        if !kept.isEmpty {
            context.warn("these checks of the session are no longer in \(library.directory), and go on with the text they were answered against, kept in \(context.databaseName): \(kept.map { DisplayText.neutralised($0) }.joined(separator: ", "))")
        }
        if plan.isEmpty && !session.plan.isEmpty {
            throw CommandFailure("none of the checks of session \(session.shortID) is in \(library.directory); name the protocol folder it was walked with, with --protocols DIR")
        }
        if !missing.isEmpty {
            context.warn("these checks of the session are no longer in \(library.directory) and are left out: \(missing.joined(separator: ", "))")
        }
        try keepTexts(of: plan, session, store, context)
        plan = try AnsweredVersions.plan(plan, results: results, store: store, context: context)
        if plan.isEmpty && !session.plan.isEmpty {
            throw CommandFailure("no check of session \(session.shortID) can be walked on (see the warning above)")
        }
        let attempts = try store.nextAttempts(release: session.release, build: session.build, device: session.device)
        let walk = Walk(session: session, plan: plan, results: results, nextAttempts: attempts, at: context.now(), newID: context.newResultID)
        // Complete is what the answers say, not a column: every check of the plan is done.
        if walk.isFinished && walk.leftOutCount > 0 {
            let leftOut = walk.leftOutCount == 1 ? "1 of its checks was" : "\(walk.leftOutCount) of its checks were"
            context.print("Every check of session \(session.shortID) that can be walked here is done, but \(leftOut) left out (see the warning above), so it stays unfinished. Resume it naming, for DIR, the protocol folder it was walked with: \(context.commandHere("resume \(session.shortID)", otherProtocols: true))")
            return 0
        }
        // A result given with `record` (a verdict, no time) is done, as `sessions` and `run`
        // count it, though the walk would ask its steps again; one the judge would refuse as it
        // stands (a draft check's failure whose notes were not given yet) is walked on.
        let complete = walk.results.indices.allSatisfy { index in
            walk.isDone(index) || walk.results[index].verdict != nil && Judgement.contradictions(of: walk.results[index], against: plan[index].check).isEmpty
        }
        if walk.isFinished || complete && walk.leftOutCount == 0 {
            let device = session.device.isEmpty ? "" : " --device \(CommandContext.shellQuoted(session.device))"
            context.print("Session \(session.shortID) is complete. To walk a check again, start a new session: "
                + context.commandHere("run --release \(CommandContext.shellQuoted(session.release)) --build \(CommandContext.shellQuoted(session.build))\(device) --check ID"))
            return 0
        }
        let done = walk.doneCount
        context.printLine("Resuming session \(session.shortID): release \(session.release), build \(session.build)\(session.device.isEmpty ? "" : ", device \(session.device)"); \(done) of \(plan.count) checks done.")
        var runner = WalkRunner(walk: walk, store: store, context: context, seen: seen)
        return try runner.run()
    }

    /// Keeps the text of every protocol the walk goes on with: a write, so another checkrun
    /// writing (a long merge) is said and waited for, as in `run`.
    private static func keepTexts(of plan: [CheckReference], _ session: Session, _ store: ResultStore, _ context: CommandContext) throws {
        try BusyStore(store: store, context: context).waitingWhileBusy({ try store.keep(RunCommand.uniqueDocuments(plan)) },
            waiting: "The database \(context.databaseName) is busy: another checkrun is writing to it, so session \(session.shortID) is not resumed yet. "
                + "Waiting for it to finish; the walk goes on then. To stop, press Control-C; nothing is lost.",
            stopped: "Stopped while waiting for the database; nothing was changed. Resume with: \(context.resumeCommand(session.shortID))",
            done: "The database is free again, and the walk goes on.")
    }
}
