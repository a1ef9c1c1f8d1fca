import CheckrunModel
import CheckrunStore
import Foundation

/// Attaching evidence, read the same way by `record`, `amend` and the walk: which file, to
/// which outcome, with which description, and how large a file may be.
enum AttachmentOptions {
    /// One file to attach.
    struct Request: Equatable {
        var path: String
        /// Numbered from 1; nil for the whole check.
        var outcome: Int?
        var description: String
    }

    static let attach = OptionDefinition(.attach, .repeated("[N=]FILE[=TEXT]"),
        help: "Attach a screenshot, recording or log: FILE to the check, 2=FILE to expected outcome 2, FILE=TEXT with a description (repeatable).",
        completion: .file)
    static let maxAttachment = OptionDefinition(.maxAttachment, .value("SIZE"),
        help: "The largest file accepted, e.g. 200MB or 999MB (default 500MB; at most 999MB).")

    static let capture = OptionDefinition(.capture, .value("CMD"),
        help: "The command `a` runs to capture a screenshot, with {file} where it writes (default: $CHECKRUN_CAPTURE).")

    /// Refuses an attachment to an outcome the check did not have when the result was answered
    /// (`amend`: its outcomes are numbered as they were then, as `--expected` is).
    static func requireOutcomes(_ requests: [Request], within outcomes: Int) throws {
        for request in requests {
            guard let number = request.outcome, number > outcomes else { continue }
            let file = DisplayText.preview((request.path as NSString).lastPathComponent, limit: 60)
            throw CommandFailure("--attach \(number)=\(file): " + outOfRange(number, outcomes: outcomes, then: true))
        }
    }

    private static func outOfRange(_ number: Int, outcomes: Int, then: Bool) -> String {
        let count = "\(outcomes) expected outcome\(outcomes == 1 ? "" : "s")"
        return (then ? "the check had \(count) when this result was answered" : "the check has \(count)") + "; \(number) is out of range"
    }

    /// `--attach` values: `FILE`, `N=FILE`, `FILE=TEXT`, `N=FILE=TEXT`. A path holding `=` is
    /// read whole when that file exists. `outcomes` is how many the check has; nil where that
    /// is known only later (`amend` numbers them as the result was answered: `requireOutcomes`).
    static func requests(_ items: [String], outcomes: Int?, command: String, home: String?) throws -> [Request] {
        try items.map { item in
            var rest = Substring(item)
            var outcome: Int?
            if let equals = rest.firstIndex(of: "="), let number = Int(rest[..<equals]), rest[..<equals].allSatisfy(\.isASCII) {
                if number < 1 || number > outcomes ?? Int.max {
                    throw CommandFailure("--attach \(DisplayText.preview(item, limit: 80)): " + outOfRange(number, outcomes: outcomes ?? 0, then: false))
                }
                outcome = number
                rest = rest[rest.index(after: equals)...]
            }
            // The shell has unquoted the value already: a file by that exact name comes first,
            // and only otherwise is it read as a pasted path.
            func resolve(_ text: String) -> String? {
                FileManager.default.fileExists(atPath: text) ? text : DroppedPath.resolve(text, home: home)
            }
            var path = String(rest)
            var description = ""
            if !FileManager.default.fileExists(atPath: resolve(path) ?? path), let equals = rest.firstIndex(of: "=") {
                path = String(rest[..<equals])
                description = String(rest[rest.index(after: equals)...])
            }
            guard let resolved = resolve(path) else {
                throw UsageError("--attach '\(DisplayText.preview(item, limit: 80))' names no file; e.g. --attach shot.png or --attach 2=shot.png=\"The Pay button\"", command: command)
            }
            try ResultOptions.requireWithinLimit(description, "the description")
            return Request(path: resolved, outcome: outcome, description: description)
        }
    }

    /// `--max-attachment SIZE`: bytes, or a number with KB, MB or GB (powers of 1000).
    static func limit(_ arguments: ParsedArguments) throws -> Int {
        guard let text = arguments.value(.maxAttachment) else { return ResultStore.defaultAttachmentLimit }
        guard let bytes = size(text), bytes > 0 else {
            throw UsageError("--max-attachment '\(DisplayText.preview(text, limit: 40))' is not a size; use e.g. 200MB, 999MB or a number of bytes")
        }
        guard bytes <= ResultStore.largestAttachmentLimit else {
            throw UsageError("--max-attachment \(DisplayText.preview(text, limit: 40)) is over 999MB, the most one attachment can be (SQLite keeps at most 1GB in a row)")
        }
        return bytes
    }

    static func size(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("B", 1)]
        for (unit, factor) in units where trimmed.hasSuffix(unit) {
            guard let number = Double(trimmed.dropLast(unit.count).trimmingCharacters(in: .whitespaces)), number.isFinite, number >= 0, number <= 1e12 else { return nil }
            return Int(number * factor)
        }
        guard let number = Int(trimmed) else { return nil }
        return number
    }

    /// Stores the file's bytes and describes the attachment; nothing is stored on an error.
    static func attach(_ request: Request, to store: ResultStore, limit: Int, at date: Date) throws -> Attachment {
        let prepared = try prepare(request, limit: limit)
        defer { prepared.close() }
        return try attach(prepared, request, to: store, at: date)
    }

    /// The first read of the file, before any write lock is taken (see `ResultStore.prepareAttachment`).
    static func prepare(_ request: Request, limit: Int) throws -> PreparedAttachment {
        do { return try ResultStore.prepareAttachment(path: request.path, limit: limit) } catch let error as AttachmentError {
            throw CommandFailure(error.description)
        }
    }

    /// Stores a prepared file (inside the caller's transaction) and describes the attachment.
    static func attach(_ prepared: PreparedAttachment, _ request: Request, to store: ResultStore, at date: Date) throws -> Attachment {
        let stored: StoredAttachment
        do { stored = try store.store(prepared) } catch let error as AttachmentError {
            throw CommandFailure(error.description)
        }
        let name = (request.path as NSString).lastPathComponent
        return Attachment(hash: stored.hash, name: name, mediaType: stored.mediaType, size: stored.size,
                          description: request.description, outcome: request.outcome, attachedAt: date)
    }
}
