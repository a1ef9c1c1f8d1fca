import Foundation

/// Command output to standard output, or to `--out FILE` through `AtomicFile`: a reader never
/// sees half a report, and a failed write leaves the old file as it was.
enum OutputFile {
    static func write(_ text: String, to path: String?, _ context: CommandContext) throws {
        guard let path else {
            context.printData(text)
            return
        }
        var file = try AtomicFile(path: path)
        try file.write(text)
        try file.commit()
        context.printError("Wrote \(path).")
    }

    /// Refuses an `--out` that cannot name a file before any work is done, so a long report
    /// or export never ends in "is a folder".
    /// `example` is a file name the message offers (the command's usual output).
    static func check(_ path: String?, example: String) throws {
        if let path { _ = try AtomicFile.checkedTarget(path, example: example) }
    }
}
