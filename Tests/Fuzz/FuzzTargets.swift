import CheckrunModel
import Foundation

// libFuzzer targets for the parts that read what users and other programs hand checkrun: the
// JSON parser, protocol lint, catalog import and export reading. Built and run by `.ci/fuzz`,
// which compiles them with the model's and the store's sources into one instrumented binary;
// CHECKRUN_FUZZ_TARGET (json, lint, import or export) chooses the target.

private let target = ProcessInfo.processInfo.environment["CHECKRUN_FUZZ_TARGET"] ?? "json"
private let linter = ProtocolLinter()
private let importer = CatalogImporter()
private let exportPath = NSTemporaryDirectory() + "checkrun-fuzz-\(getpid()).json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    switch target {
    case "json":
        _ = try? JSONParser.parse(bytes: bytes)
    case "lint":
        _ = linter.lint(bytes: bytes, fileName: "fuzz.json")
    case "import":
        _ = try? importer.importPage(text: String(decoding: bytes, as: UTF8.self), fileName: "fuzz.md")
    case "export":
        guard FileManager.default.createFile(atPath: exportPath, contents: Data(bytes)) else { return 0 }
        let source = ExportFileSource(path: exportPath)
        _ = try? source.forEachEntry { _ in }
        _ = try? source.forEachAttachment { _, _, produce in try produce { _ in } }
    default:
        fatalError("CHECKRUN_FUZZ_TARGET is json, lint, import or export")
    }
    return 0
}
