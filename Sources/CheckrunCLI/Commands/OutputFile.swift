import Foundation

/// Writes command output to standard output, or atomically to `--out FILE`: a reader never sees
/// half a report, and a failed write leaves the old file as it was.
enum OutputFile {
    static func write(_ text: String, to path: String?, _ context: CommandContext) throws {
        guard let path else {
            context.print(text, terminator: "")
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("cannot write \(path): the folder \(folder) does not exist; create it first, or choose another --out")
        }
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
        }
        context.printError("Wrote \(path).")
    }
}
