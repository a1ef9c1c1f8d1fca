/// The folder a path names its file in, worked out here rather than by Foundation's
/// `deletingLastPathComponent`, which on Linux traps on a one-character path ("x", "-"): a
/// database or an output file named so crashed every command that looked for its folder.
package enum FilePaths {
    /// "a/b" → "a", "/x" → "/", "a//b/" → "a"; "." for a bare name, so the answer can always be
    /// looked at.
    package static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}
