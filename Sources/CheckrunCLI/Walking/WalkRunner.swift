import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import CheckrunWalk
import Foundation

/// Drives a `Walk` from a terminal or from piped input, saving every answer as it is given.
/// Output is line-oriented and only appends: no redraws, nothing that ticks.
struct WalkRunner {
    var walk: Walk
    let store: ResultStore
    let context: CommandContext
    /// Each result's latest record as this walk last saved or read it: a save is refused when
    /// another writer saved the result since (see `ResultChangedElsewhere`).
    var seen: [UUID: String]
    /// Set when a save was refused, until keys typed ahead for the question then asked are dropped.
    var refused = false

    /// - Parameter seen: the payloads of the session's latest records when the walk starts,
    ///   read in the same snapshot as its results (`ResultStore.resumeState`); empty for a new
    ///   session.
    init(walk: Walk, store: ResultStore, context: CommandContext, seen: [UUID: String] = [:]) {
        self.walk = walk
        self.store = store
        self.context = context
        self.seen = seen
    }

    enum Ending {
        case finished, quit, endOfInput, interrupted
    }

    /// The most a Linux terminal in line mode hands over of one line (its buffer less the line end).
    static let terminalLineLimit = 4095

    var resumeHint: String {
        context.resumeCommand(walk.session.shortID)
    }

    mutating func run() throws -> Int32 {
        let terminal = Terminal()
        let reader = InputReader()
        installOrdinaryWords()
        defer { terminal?.restore() }

        emit(walk.introduce())
        var ending = Ending.finished
        var lastStopwatchPrompt: String?
        var timerJustStarted = false
        loop: while let prompt = try nextPrompt() {
            // A key already waiting when the last answer has just started the timer, before its
            // keys are said, came with the Enter that started it (see `readStopwatchKey`).
            let cameWithTheStart = timerJustStarted && prompt.mode == .stopwatch && reader.hasKeyWaiting
            timerJustStarted = false
            if !Self.putInMode(of: prompt, terminal, reader) { ending = .interrupted; break loop }
            // While the timer runs, its keys are said once, not after every tally.
            if prompt.mode != .stopwatch || prompt.text != lastStopwatchPrompt {
                context.print(context.out.bold(prompt.text))
            }
            lastStopwatchPrompt = prompt.mode == .stopwatch ? prompt.text : nil
            let input: String
            if prompt.mode == .stopwatch, let terminal {
                switch readStopwatchKey(terminal, reader, prompt, cameWithTheStart: cameWithTheStart) {
                case .input(let key): input = key
                case .askAgain: continue loop
                case .end(let end): ending = end; break loop
                }
            } else {
                if terminal != nil { context.prompt("> ") } else { context.flush() }
                guard let line = reader.readLine() else {
                    if terminal != nil { context.print() }
                    ending = .endOfInput
                    break loop
                }
                if let refusal = Self.refusal(of: line, typedAtTerminal: terminal != nil) {
                    context.print(refusal)
                    continue loop
                }
                input = line
                if terminal == nil { context.print("> " + DisplayText.preview(line, limit: 500)) }
            }
            let timing = walk.isStopwatchRunning
            let events = walk.handle(input, now: ProcessInfo.processInfo.systemUptime, date: context.now())
            timerJustStarted = !timing && walk.isStopwatchRunning
            if let stop = try process(events) { ending = stop; break loop }
            if refused {
                reader.discardTypedAhead()
                refused = false
            }
            emit(walk.introduce())
        }
        terminal?.restore()
        return try finish(ending)
    }

    /// Puts the terminal in the question's mode before the question shows, so a key pressed on
    /// seeing it is read as that question takes keys (Ctrl-C a signal in line mode). False
    /// when a Ctrl-C typed in single-key mode is waiting (see `Terminal.restoreForLine`).
    private static func putInMode(of prompt: Prompt, _ terminal: Terminal?, _ reader: InputReader) -> Bool {
        guard let terminal else { return true }
        if prompt.mode == .stopwatch {
            terminal.enterRawMode()
            return true
        }
        return !terminal.restoreForLine(reader)
    }

    /// What one key read while the timer runs comes to.
    private enum StopwatchKey {
        case input(String), askAgain, end(Ending)
    }

    /// Reads one key in raw mode, which lasts while the stopwatch runs, so quick keys are
    /// never lost between prompts.
    private func readStopwatchKey(_ terminal: Terminal, _ reader: InputReader, _ prompt: Prompt, cameWithTheStart: Bool) -> StopwatchKey {
        context.flush()
        switch terminal.readKey(from: reader, keys: Walk.stopwatchKeys) {
        case .enter where cameWithTheStart:
            // A terminal sending CR LF for one Enter, or a key or switch that bounced: taken as
            // a stop, it saved a timing of nothing, which `t 0` could never give.
            context.print("A second Enter came with the one that started the timer (a terminal sending two for one key, or a key that bounced), so it did not stop it: the timer runs. Enter stops it.")
            return .askAgain
        case .enter: return .input("")
        case .character(let character): return .input(String(character))
        case .pasted(let text):
            // A file dropped on the terminal while the timer runs is attached; other
            // pasted text is no key, and nothing is done with it.
            guard let path = droppedFile(text) else {
                context.print("That was \(text.count == 1 ? "1 character" : "\(text.count) characters") pasted or dropped on the terminal, not keys; nothing was done with them. \(prompt.text)")
                return .askAgain
            }
            return .input("a " + path)
        case .unused:
            context.print("That key does nothing here. \(Walk.stopwatchKeysSaid)")
            return .askAgain
        case .interrupt: return .end(.interrupted)
        case .endOfInput: return .end(.endOfInput)
        }
    }

    /// Why a line read is not taken as an answer, if it is not; the question is asked again.
    static func refusal(of line: String, typedAtTerminal: Bool) -> String? {
        // A terminal in line mode keeps at most 4,095 bytes of a line and drops the rest
        // unseen: such a line is refused whole rather than saved cut short.
        if typedAtTerminal && line.utf8.count >= terminalLineLimit {
            return "That line reached the terminal's limit of 4,095 bytes, so its end was cut off; nothing was saved from it. Put long text such as a log in a ticket and type its link, or pipe the answers in."
        }
        // A NUL is no text (PostgreSQL cannot keep one, and a C string ends at it): refused
        // on either engine, so both keep the same answers.
        if line.utf8.contains(0) {
            return "That line holds a NUL character (a zero byte), which is not text; nothing was saved from it. Type it again without it."
        }
        return nil
    }

    /// Saves, then says: every save commits before anything is said, so no line announces an
    /// answer as kept while its commit could still fail. Returns how the walk ends, if it does.
    private mutating func process(_ events: [WalkEvent]) throws -> Ending? {
        for case .stands(let result) in events {
            let latest = try store.latestPayloads(inSession: walk.session.id)
            guard latest[result.id] != seen[result.id] else { continue }
            // Said to stand, yet another writer changed it meanwhile: what it holds now is said.
            _ = takeChanges(latest)
            return nil
        }
        for case .save(let result) in events {
            do {
                try save(result)
            } catch let changed as ResultChangedElsewhere {
                refuse(events, changed)
                return nil
            }
        }
        var stop: Ending?
        for event in events {
            switch event {
            case .quit: stop = .quit
            case .finished: stop = try takeChangesMadeElsewhere() ? nil : .finished
            case .attach(let request): stop = try process(attach(request)) ?? stop
            default: show(event)
            }
        }
        return stop
    }

    func emit(_ events: [WalkEvent]) {
        events.forEach(show)
    }

    /// A line of the walk, styled by what it is: a check's heading bold, hints dim. Every event
    /// is one line, so a line break in what it quotes (a reason given to `amend`, a label from
    /// a merged file) is shown as " / ": it can never begin a line of its own ("Result: pass").
    private func show(_ event: WalkEvent) {
        switch event {
        case .say(let line): context.printLine(line)
        case .heading(let line): context.print(context.out.bold(DisplayText.neutralised(line)))
        case .hint(let line): context.print(context.out.dim(DisplayText.neutralised(line)))
        case .save, .stands, .quit, .finished, .attach: break
        }
    }

    private mutating func save(_ result: CheckResult) throws {
        // A store another checkrun holds (a file, or a team store's writers' lock) is said within
        // seconds, then waited for (`waitWhileBusy`); every other write of the walk (an
        // attachment, the session's end) waits as any writer does.
        store.waitWhenBusy(seconds: Self.busyBeforeSaying)
        defer { store.waitWhenBusy(seconds: Database.busySeconds) }
        do {
            // A store that does not answer within seconds is said, and Ctrl-C then ends the wait.
            try answerSave.run({
                do {
                    try store.save(result, over: seen[result.id])
                } catch let error as StoreError where error.connectionLost || error.isBusy {
                    // Signals are still held: a Ctrl-C pressed during this save is said as
                    // what it is, not as "everything answered is saved".
                    SignalTrap.install(message: stoppedWhileWaiting(for: error))
                    throw error
                }
            }, saved: { wasSaid in if wasSaid { installOrdinaryWords() } })
        } catch let error as StoreError where error.connectionLost {
            try waitForTheServer(thenSave: result, over: seen[result.id], lost: error)
        } catch let error as StoreError where error.isBusy {
            try waitWhileBusy(thenSave: result, over: seen[result.id])
        } catch let changed as ResultChangedElsewhere {
            // Not saved, and said so; the walk goes on, and a Ctrl-C from now on is an ordinary one.
            installOrdinaryWords()
            throw changed
        } catch {
            let before = (error as? StoreError)?.earlierWritesUncertain == true
                ? "Answers given before it may not all be saved; check with `checkrun sessions`, then" : "Everything answered before it is saved;"
            throw CommandFailure("could not save the last answer: \(error). \(before) resume with: \(resumeHint)")
        }
        seen[result.id] = result.payload
    }

    private func finish(_ ending: Ending) throws -> Int32 {
        let remaining = walk.results.count - walk.doneCount
        switch ending {
        case .finished where walk.leftOutCount > 0:
            // The session is not called complete, so `resume` finds it again.
            let left = walk.leftOutCount
            context.print()
            context.print("Every check walked here is done, but \(left) check\(left == 1 ? " was" : "s were") left out, so session \(walk.session.shortID) stays unfinished. Resume with: \(resumeHint)")
            return 0
        case .finished:
            let ending = SlowSave(context: context, store: store, what: "the end of the session",
                                  ifStopped: "every answer is saved, and `resume` shows whether the session was marked complete",
                                  whenStopped: "every answer is saved, and the session may not be marked complete (resume shows whether it is). Resume with: \(resumeHint)")
            do {
                try ending.run({ try store.finish(sessionID: walk.session.id, at: context.now()) },
                               saved: { wasSaid in if wasSaid { installOrdinaryWords() } })
            } catch let error as StoreError {
                // Every answer is in: only the mark is missing, which `resume` and `sessions` do not need.
                throw CommandFailure("every answer is saved, but session \(walk.session.shortID) could not be marked finished (\(error.message)); `resume` and `sessions` count it complete all the same, and reports count every answer")
            }
            // Each result counted as the report counts it on its own: a skip holding a failure is
            // a failure (a failure in an earlier build behind a skip is the report's to find).
            let counted = zip(walk.results, walk.plan).compactMap { $0.countedAs(against: $1.check) }
            let counts = (Verdict.allCases.map(\.pastTense) + ["not applicable"]).map { word in (word, counted.filter { $0 == word }.count) }.filter { $0.1 > 0 }
            context.print()
            context.print("Session \(walk.session.shortID) complete: \(walk.results.count) check\(walk.results.count == 1 ? "" : "s"), " + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ".")
            return 0
        case .quit:
            context.print("Saved, \(remaining) check\(remaining == 1 ? "" : "s") left. Resume with: \(resumeHint)")
            return 0
        case .endOfInput:
            context.print("End of input with \(remaining) check\(remaining == 1 ? "" : "s") left. Everything answered is saved. Resume with: \(resumeHint)")
            return 1
        case .interrupted:
            context.print("Interrupted. Everything answered is saved. Resume with: \(resumeHint)")
            return 130
        }
    }
}
