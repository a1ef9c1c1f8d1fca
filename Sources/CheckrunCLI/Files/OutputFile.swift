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

    /// Whether a file's opening is a protocol file's: it names protocol.schema.json as its
    /// `$schema`, whichever member that is and after a byte order mark. In JSON a key's quotes
    /// are bare; an export or a report that quotes a protocol's text holds them escaped
    /// (`\"$schema\"`), so it is not one, and may be written over.
    static func opensAsProtocol(_ start: String) -> Bool {
        var rest = Substring(start)
        while let key = rest.range(of: "\"$schema\"") {
            let escaped = rest[..<key.lowerBound].last == "\\"
            rest = rest[key.upperBound...]
            guard !escaped else { continue }
            var value = rest.drop { $0.isWhitespace }
            guard value.first == ":" else { continue }
            value = value.dropFirst().drop { $0.isWhitespace }
            guard value.first == "\"" else { continue }
            if value.dropFirst().prefix(while: { $0 != "\"" }).hasSuffix("protocol.schema.json") { return true }
        }
        return false
    }

    /// Refuses an `--out` that cannot name a file before any work is done, so a long report
    /// or export never ends in "is a folder".
    /// `example` is a file name the message offers (the command's usual output). A protocol
    /// file is refused too: a report written over the file it was made from leaves every later
    /// command without its protocol (`import` alone writes protocol files).
    static func check(_ path: String?, example: String, protocolFolder: String) throws {
        guard let path else { return }
        let target = try AtomicFile.checkedTarget(path, example: example)
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        let inProtocolFolder = target.hasSuffix(".json") && resolved(AtomicFile.folder(of: target)) == resolved(protocolFolder)
        let start = FileHandle(forReadingAtPath: target).map { handle in defer { try? handle.close() }; return handle.readData(ofLength: 512) }
        if inProtocolFolder || start.map({ opensAsProtocol(String(decoding: $0, as: UTF8.self)) }) == true {
            throw CommandFailure("\(path) is a protocol file; name another file for the output, e.g. \(example)", exitCode: 2)
        }
    }
}
