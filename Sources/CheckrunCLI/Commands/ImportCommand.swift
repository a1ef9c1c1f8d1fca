import CheckrunModel
import CheckrunTerminal
import Foundation

/// `checkrun import`: catalog pages in, protocol files out. All pages are read and checked
/// before anything is written, so a bad page leaves the folder as it was.
struct ImportCommand: CheckrunCommand {
    static let definition = CommandDefinition(
        name: "import",
        abstract: "Turn catalog pages (plain text or Markdown) into protocol files.",
        discussion: """
        Every Profile/Task/Expected block becomes a check; an Expected label takes the indented lines
        under it, one outcome a line. The title comes from the first line or heading, the status from
        "Status:", the WCAG numbers from the "WCAG mapping" list. A one-line "Check: …" sentence
        becomes a draft check marked for review, with a warning. Ids come from the title and the
        profiles, so importing a page twice gives the same ids. Existing files are never overwritten
        without --force; nothing is written when any page fails.
        """,
        arguments: [
            ArgumentDefinition("FILE", help: "Catalog pages to import.", repeating: true, completion: .file),
        ],
        options: [
            OptionDefinition(.out, .value("DIR"), help: "Where to write the protocols (default: the protocol folder).", completion: .directory),
            OptionDefinition(.dryRun, .flag, help: "Print the protocol JSON instead of writing files."),
            OptionDefinition(.force, .flag, help: "Overwrite protocol files that already exist."),
        ],
        examples: [
            Example("checkrun import catalog/tiny-target.md --dry-run", "Show the protocol a page would become."),
            Example("checkrun import catalog/*.txt --out imported", "Every page into a new folder, to compare with the reviewed protocols before replacing any."),
        ])

    static func run(_ context: CommandContext) throws -> Int32 {
        let outDirectory = context.arguments.value(.out) ?? context.protocolsDirectory
        guard !outDirectory.isEmpty else { throw UsageError("--out needs a folder, e.g. --out protocols", command: "import") }
        let dryRun = context.arguments.flag(.dryRun)
        let force = context.arguments.flag(.force)
        // Every protocol is written at the end, all together: until then Ctrl-C loses nothing.
        // (A dry run writes none, and its output read by `head` ends it as any output would.)
        if !dryRun { SignalTrap.install(message: "\nImport stopped; no protocol was written.\n") }
        let importer = CatalogImporter()
        let linter = ProtocolLinter()
        var failures: [String] = []
        var planned: [(path: String, import: CatalogImport)] = []

        for file in context.arguments.positionals {
            do {
                let result = try importer.importPage(text: try pageText(file), fileName: file)
                let path = (outDirectory as NSString).appendingPathComponent("\(result.document.id).json")
                if let problem = refusal(of: result, from: file, at: path, planned: planned, linter: linter, dryRun: dryRun, force: force) {
                    failures += problem
                    continue
                }
                planned.append((path, result))
            } catch {
                failures.append("\(error)")
            }
        }

        for item in planned {
            for warning in item.import.warnings { context.printError(context.err.warning(warning.description)) }
        }
        guard failures.isEmpty else {
            for failure in failures { context.printError("checkrun: error: \(failure)") }
            throw CommandFailure("nothing was written; fix the problem\(failures.count == 1 ? "" : "s") above and import again")
        }
        if dryRun {
            for item in planned { context.printData(item.import.document.fileText) }
            return 0
        }
        try createDirectory(outDirectory, context)
        try writeAll(planned.map { ($0.path, $0.import.document.fileText) })
        for item in planned {
            let document = item.import.document
            context.print("Wrote \(item.path): \(document.title), \(document.checks.count) check\(document.checks.count == 1 ? "" : "s"), status \(document.status.rawValue).")
        }
        return 0
    }

    /// Every target is checked and every temporary file written before the first is renamed
    /// into place, so a failed write leaves the folder as it was.
    private static func writeAll(_ files: [(path: String, text: String)]) throws {
        var staged: [AtomicFile] = []
        do {
            for file in files { _ = try AtomicFile.checkedTarget(file.path) }
            for file in files {
                var atomic = try AtomicFile(path: file.path)
                staged.append(atomic)
                try atomic.write(file.text)
                staged[staged.count - 1] = atomic
            }
        } catch let failure as CommandFailure {
            for index in staged.indices { staged[index].discard() }
            throw CommandFailure("\(failure.message); nothing was written", exitCode: failure.exitCode)
        }
        // The renames are not cut half way by Ctrl-C, and once done the way out no longer
        // says nothing was written.
        try SignalTrap.deferringSignals {
            defer { SignalTrap.install(message: "") }
            for index in staged.indices { try staged[index].commit() }
        }
    }

    /// A page's text: readable, of a page's size, UTF-8 without NUL characters.
    private static func pageText(_ file: String) throws -> String {
        if file.isEmpty { throw CommandFailure("an empty path was given as a page; name each page file, e.g. catalog/tiny-target.md") }
        if PathKind.of(file) == .folder {
            throw CommandFailure("\(file) is a folder; name the page files in it, e.g. \((file as NSString).appendingPathComponent("*.md"))")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("\(file): cannot read the page (\(PathKind.of(file) == .missing ? "no such file" : "no permission to read it")); check the path")
        }
        if data.count > 4 << 20 {
            throw CommandFailure("\(file): the page is \(data.count >> 20) MB; a catalog page is text of a few pages — is this the right file?")
        }
        guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
            throw CommandFailure("\(file): not UTF-8 text; save the page as UTF-8 and import it again")
        }
        // Text saved as UTF-16 without a byte order mark is valid UTF-8 with a zero byte in
        // every other place: its encoding is what is wrong, not one character.
        if data.count >= 2, data.filter({ $0 == 0 }).count * 4 >= data.count {
            throw CommandFailure("\(file): not UTF-8 text (a zero byte in every other place, as UTF-16 text has); save the page as UTF-8 and import it again")
        }
        if data.contains(0) {
            let line = CatalogImporter.line(ofFirst: "\u{0}", in: text).map { ":\($0)" } ?? ""
            throw CommandFailure("\(file)\(line): a NUL character (a zero byte), which is no text; remove it and import the page again")
        }
        return text
    }

    /// Why the protocol a page gave may not be written to `path`, if it may not: another page
    /// gives the same id, it fails lint, or the target is no file or exists without --force.
    private static func refusal(of result: CatalogImport, from file: String, at path: String, planned: [(path: String, import: CatalogImport)],
                                linter: ProtocolLinter, dryRun: Bool, force: Bool) -> [String]? {
        if let earlier = planned.first(where: { $0.path == path }) {
            return ["\(file): gives the protocol id \"\(result.document.id)\", like \(earlier.import.document.source); import them separately or retitle one page"]
        }
        let problems = linter.lint(bytes: Array(result.document.fileText.utf8), fileName: path).problems
        if !problems.isEmpty {
            // Said at the page's line, in the page's order: the protocol's file is never
            // written, so its lines and columns point nowhere a user can look.
            let placed = problems.map { (line: result.pageLine(of: $0.pointer), problem: $0) }
            return placed.sorted { ($0.line ?? .max) < ($1.line ?? .max) }.map { line, problem in
                let place = line.map { "\(file):\($0)" } ?? file
                let fromTitle = problem.pointer?.tokens == ["id"] ? " (the id is made from the page's title: shorten the title)" : ""
                return DisplayText.neutralised("\(place): the protocol made from this page does not pass lint: \(problem.pointer.map { "\($0): " } ?? "")\(problem.message)\(fromTitle)")
            }
        }
        // A link whose file is missing is something there all the same: written through, the
        // protocol landed wherever it pointed, outside the folder, without a word.
        var link = stat()
        let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        guard !dryRun, PathKind.of(path) != .missing || isLink else { return nil }
        if PathKind.of(path) == .folder {
            return ["\(path) is a folder where the protocol from \(file) would be written; move it aside, or import into another folder with --out DIR"]
        }
        do { _ = try AtomicFile.checkedTarget(path) } catch let failure as CommandFailure {
            return [failure.message]
        } catch {
            return ["\(error)"]
        }
        let what = isLink ? "exists already, as a link to \((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "another file")" : "exists already"
        return force ? nil : ["\(path) \(what); pass --force to overwrite it, or --out DIR to write elsewhere"]
    }

    private static func createDirectory(_ path: String, _ context: CommandContext) throws {
        switch PathKind.of(path) {
        case .folder: return
        // The option names what it cannot: a usage error, as a report's --out naming a folder is.
        case .file, .other: throw CommandFailure("--out \(path) is a file, not a folder; choose a folder with --out DIR", exitCode: 2)
        case .inaccessible: throw CommandFailure("\(path) cannot be reached (a folder on the way is closed to you); choose another folder with --out DIR")
        case .missing: break
        }
        // mkdir's own reason (permission, a read-only disk, a full one), in the system's words.
        var made: [String] = []
        var folder = path
        while PathKind.of(folder) == .missing, !folder.isEmpty, folder != "/" {
            made.insert(folder, at: 0)
            folder = (folder as NSString).deletingLastPathComponent
        }
        if !folder.isEmpty, [.file, .other].contains(PathKind.of(folder)) {
            throw CommandFailure("--out \(path): \(folder) is a file, not a folder, so no folder can be made in it; choose a folder with --out DIR", exitCode: 2)
        }
        for step in made where mkdir(step, 0o777) != 0 && errno != EEXIST {
            throw CommandFailure("cannot create the folder \(step) (\(String(cString: strerror(errno)).lowercased())); nothing was written. Choose a folder you may write with --out DIR")
        }
        // A link to nothing is there, so mkdir makes nothing: said, not "created".
        guard PathKind.of(path) == .folder else {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " is a link to \($0), which" } ?? ""
            throw CommandFailure("--out \(path)\(target) is not a folder and could not be made one; nothing was written. Create the folder, or choose another with --out DIR")
        }
        context.printError("Created the folder \(path).")
    }
}

