import CheckrunModel
import CheckrunStore
import CheckrunTerminal
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What every command gets: the environment, the output streams with their styles, and the
/// global choices (protocol folder, accessible mode).
package final class CommandContext {
    package let environment: [String: String]
    package let arguments: ParsedArguments
    package let out: TextStyle
    package let err: TextStyle
    package let accessible: Bool
    /// The passwords of the addresses this command was given, found once: nothing it prints
    /// may repeat them.
    private let passwords: [(String, String)]
    /// The stores this command opened, closed when it ends (`closeStores`).
    private var openedStores: [ResultStore] = []
    private let storesLock = NSLock()

    init(arguments: ParsedArguments, environment: [String: String]) {
        self.environment = environment
        self.arguments = arguments
        // Only a command that declares --db may read it (the parser holds checkrun to that).
        let database = arguments.declared.contains(OptionName.db.rawValue) ? arguments.value(.db) : nil
        passwords = ServerAddressText.hiding([database, environment["CHECKRUN_DB"]].compactMap { $0 } + arguments.positionals, bare: false)
        let accessible = arguments.flag(.accessible) || ["1", "true", "yes"].contains(environment["CHECKRUN_ACCESSIBLE"]?.lowercased() ?? "")
        self.accessible = accessible
        out = TextStyle.detect(fileDescriptor: 1, environment: environment, accessible: accessible, noColorFlag: arguments.flag(.noColor))
        err = TextStyle.detect(fileDescriptor: 2, environment: environment, accessible: accessible, noColorFlag: arguments.flag(.noColor))
    }

    func remember(_ store: ResultStore) {
        storesLock.withLock { openedStores.append(store) }
    }

    /// Whether a store this command read as it stands was written to meanwhile.
    var storeChangedWhileRead: Bool {
        storesLock.withLock { openedStores.contains(where: \.changedWhileRead) }
    }

    /// Refuses to stand by a reading, without SQLite's locks, of a file its owner wrote to
    /// meanwhile: called before a command states its finding, and when it ends.
    func requireReadingUnchanged() throws {
        if storeChangedWhileRead { throw CommandFailure(Self.changedWhileRead(databaseName)) }
    }

    static func changedWhileRead(_ name: String) -> String {
        "\(name) was written to while it was read (it is read as it stands, since you may not write it), so what was read may not be one consistent state; nothing is claimed of it. Run the command again"
    }

    /// Closes every store the command opened, letting SQLite refresh its statistics: the
    /// process ends with `exit`, which runs no deinitialiser.
    func closeStores() {
        let stores = storesLock.withLock { () -> [ResultStore] in
            defer { openedStores.removeAll() }
            return openedStores
        }
        for store in stores { store.close() }
    }

    /// `--protocols DIR`, else `CHECKRUN_PROTOCOLS`, else `./protocols`.
    package var protocolsDirectory: String {
        arguments.value(.protocols) ?? environment["CHECKRUN_PROTOCOLS"].flatMap { $0.isEmpty ? nil : $0 } ?? "protocols"
    }

    /// A line on standard output. Plain strings are neutralised on the way (see `TerminalText`).
    package func print(_ text: String = "") {
        print(TerminalText(text))
    }

    /// One line on standard output, for a sentence that quotes labels or notes: a line break in
    /// them is shown as " / ", so what they hold never stands as a line of its own.
    package func printLine(_ text: String) {
        print(DisplayText.neutralised(text))
    }

    /// In accessible mode, symbols speech reads badly are said in words (no colour is on then,
    /// so the text holds no escape codes to disturb).
    package func print(_ text: TerminalText) {
        let shown = withoutPasswords(text.rendered)
        Swift.print(accessible ? SpokenWords.replacingSymbols(shown) : shown)
        StandardOutput.noteFailure()
    }

    /// The one place output loses any password it would repeat (an address echoed in a path,
    /// say): messages name servers masked already; this catches what came from elsewhere.
    func withoutPasswords(_ text: String) -> String {
        passwords.isEmpty ? text : ServerAddressText.scrubbed(text, hiding: passwords)
    }

    /// Writes text without a line end and flushes, for an answer typed on the same line.
    package func prompt(_ text: String) {
        Swift.print(TerminalText(text).rendered, terminator: "")
        fflush(nil)
        StandardOutput.noteFailure()
    }

    /// Flushes standard output, so everything said so far is on screen before input is read.
    package func flush() {
        fflush(nil)
    }

    /// Data a command produces (a report, an export, JSON) on standard output: byte for byte
    /// when it goes to a file or a pipe, neutralised when it goes to a terminal.
    package func printData(_ text: String) {
        Swift.print(isatty(1) == 1 ? TerminalText(text).rendered : text, terminator: "")
        StandardOutput.noteFailure()
    }

    /// Writes to standard error: diagnostics, warnings and progress, never data.
    package func printError(_ text: String) {
        printError(TerminalText(text))
    }

    package func printError(_ text: TerminalText) {
        FileHandle.standardError.write(Data((withoutPasswords(text.rendered) + "\n").utf8))
    }

    package func warn(_ text: String) {
        printError(err.warning("warning: ") + text)
    }

    /// The wall clock: read here, at the edge, and handed to the walk, the model and the store,
    /// none of which reads one of its own.
    func now() -> Date { Date() }

    /// A new result's id, ordered by the time it is made (results made together are stored
    /// together).
    func newResultID() -> UUID { .timeOrdered(at: now()) }

    /// A new session's id: random, since testers type its first eight digits to resume it, and
    /// ids ordered by time would share those digits for a minute at a time.
    func newSessionID() -> UUID { UUID() }

    /// A checkrun command line as the user can run it from where they are: `swift run checkrun …`
    /// after the README's `swift run`, `checkrun …` when that is on the PATH, else the binary's
    /// full path. Hints must work as printed.
    func command(_ rest: String) -> String {
        let invoked = CommandLine.arguments.first ?? "checkrun"
        // Started by its bare name, the shell found it on the PATH, where that name finds it again.
        if !invoked.contains("/") { return "\(Self.shellQuoted(invoked)) \(rest)" }
        let binary = URL(fileURLWithPath: invoked).resolvingSymlinksInPath().path
        if let build = binary.range(of: "/.build/") {
            // `swift run` finds the package from its own folder only; anywhere else the built
            // binary is named by its path.
            let package = String(binary[..<build.lowerBound])
            let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
            let inPackage = here == package && PathKind.of(package + "/Package.swift") == .file
            return (inPackage ? "swift run checkrun" : Self.shellQuoted(binary)) + " " + rest
        }
        let onPath = (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("checkrun").resolvingSymlinksInPath().path }
        return (onPath.first { FileManager.default.isExecutableFile(atPath: $0) } == binary ? "checkrun" : Self.shellQuoted(binary)) + " " + rest
    }

    /// `resume ID` as the user can run it from here, with the database and the protocol folder
    /// this command was given, so it reads the same session from the same place.
    func resumeCommand(_ shortID: String) -> String {
        commandHere("resume \(shortID)")
    }

    /// A command as the user can run it from here (see `command`), with the database and the
    /// protocol folder this command was given: a hint that dropped them would read, or file
    /// answers in, another database.
    /// With `otherProtocols`, the folder is left for the user to name (`--protocols DIR`): the
    /// one given lacks what the command needs.
    func commandHere(_ words: String, otherProtocols: Bool = false) -> String {
        var words = words
        // A server's password is never printed: libpq finds it again in PGPASSWORD or ~/.pgpass.
        if let database = arguments.value(.db) { words += " --db \(Self.shellQuoted(ServerAddressText.withoutPassword(database)))" }
        if otherProtocols {
            words += " --protocols DIR"
        } else if let protocols = arguments.value(.protocols) {
            words += " --protocols \(Self.shellQuoted(protocols))"
        }
        return command(words)
    }

    /// `word` in bash's `$'…'` quoting, each marked character as the `\x` escapes of its bytes.
    static func ansiCQuoted(_ word: String) -> String {
        var quoted = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "'": quoted += "\\'"
            case _ where DisplayText.isMarked(scalar):
                // Each UTF-8 byte as `\xHH` (U+0085 is two): bash writes those bytes in any
                // locale, where `\u` is left as typed outside a UTF-8 one.
                for byte in String(scalar).utf8 {
                    quoted += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }

    /// A word as a POSIX shell reads it back: quoted when it holds anything but plain characters.
    /// One holding a character a terminal is never shown raw (a control, a line or direction
    /// mark) is written in `$'…'` with escapes, which bash, zsh and ksh read back as the
    /// character: shown as a `\u{…}` mark, the hint named a file that is not there.
    static func shellQuoted(_ word: String) -> String {
        if word.unicodeScalars.contains(where: DisplayText.isMarked) { return ansiCQuoted(word) }
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The protocol folder, or, when there is none and none was named, the protocol versions the
    /// database keeps: a lead sent a team database can report on it, resume it and compare it
    /// without the folder, and sees exactly the text the testers saw.
    func loadProtocols(orStoredIn store: ResultStore) throws -> ProtocolLibrary {
        guard usesStoredProtocols else { return try loadProtocols() }
        let library = try store.storedLibrary()
        if !library.problems.isEmpty {
            // checkrun keeps only texts that pass lint: a kept text that fails was changed since.
            for problem in library.problems { printError(problem.description) }
            throw CommandFailure("\(library.problems.count) problem\(library.problems.count == 1 ? "" : "s") in the protocol versions kept in \(databaseName), above: checkrun keeps only texts that pass lint, so they were changed behind checkrun's back. Run `\(commandHere("verify"))`, or name a protocol folder with --protocols DIR")
        }
        guard !library.documents.isEmpty else {
            throw CommandFailure("no protocol folder at \(protocolsDirectory), and \(databaseName) keeps no protocol texts to use instead; name the protocol folder with --protocols DIR")
        }
        printError("No protocol folder at \(protocolsDirectory): using the \(library.documents.count) protocol version\(library.documents.count == 1 ? "" : "s") kept in \(databaseName).")
        return try checked(.success(library))
    }

    /// No protocol folder was named and the default one is not here.
    var usesStoredProtocols: Bool {
        arguments.value(.protocols) == nil && (environment["CHECKRUN_PROTOCOLS"] ?? "").isEmpty
            && PathKind.of(protocolsDirectory) == .missing
    }

    /// Loads the protocol folder; a folder with broken files is refused with the problems listed.
    package func loadProtocols() throws -> ProtocolLibrary {
        try checked(Self.load(protocolsDirectory))
    }

    private static func load(_ directory: String) -> Result<ProtocolLibrary, ProtocolLibrary.LoadError> {
        do throws(ProtocolLibrary.LoadError) {
            return .success(try ProtocolLibrary.load(directory: directory))
        } catch {
            return .failure(error)
        }
    }

    /// Starts loading the protocol folder on another thread, for a command that has store work
    /// to do first; `checked` the value when it is needed.
    func loadProtocolsInBackground() -> BackgroundWork<Result<ProtocolLibrary, ProtocolLibrary.LoadError>> {
        let directory = protocolsDirectory
        return BackgroundWork { Self.load(directory) }
    }

    /// A loaded folder, or the command's failure: broken files are listed and refused.
    func checked(_ loaded: Result<ProtocolLibrary, ProtocolLibrary.LoadError>) throws -> ProtocolLibrary {
        let library: ProtocolLibrary
        switch loaded {
        case .success(let value): library = value
        case .failure(let error):
            if protocolsDirectory.isEmpty { throw UsageError("--protocols needs a folder; an empty one names none, e.g. --protocols protocols") }
            throw CommandFailure(error.description)
        }
        if !library.problems.isEmpty {
            for problem in library.problems { printError(problem.description) }
            throw CommandFailure("\(library.problems.count) problem\(library.problems.count == 1 ? "" : "s") in the protocol files above; fix them (see `checkrun lint \(protocolsDirectory)`) and try again")
        }
        return library
    }
}

/// A command that could not do its job: printed as `checkrun: error: …`, exit code 1 by default.
package struct CommandFailure: Error, CustomStringConvertible {
    package var message: String
    package var exitCode: Int32

    package init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    package var description: String { message }
}

/// A checkrun subcommand: a declaration and what it does.
protocol CheckrunCommand: Sendable {
    static var definition: CommandDefinition { get }
    static func run(_ context: CommandContext) throws -> Int32
}
