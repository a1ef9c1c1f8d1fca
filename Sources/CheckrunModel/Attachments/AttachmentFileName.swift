import Foundation

/// Where an attachment is written out, relative to the folder given (`attachments --out`,
/// `report --attachments`): a folder per check and a name that says whose evidence it is,
/// e.g. `tiny-target--touch-one-hand/311-iphone-15-attempt-1-outcome-2-shot-1.png`. Made of
/// visible ASCII only, so no name can climb out of the folder or hide a control character.
package enum AttachmentFileName {
    package static func relativePath(check: String, build: String, device: String, attempt: Int, attachment: Attachment) -> String {
        let folder = check.split(separator: "/").map { Slug.make(String($0)) }.filter { !$0.isEmpty }.joined(separator: "--")
        var parts = [Slug.make(build), Slug.make(device), "attempt-\(attempt)"].filter { !$0.isEmpty }
        if let outcome = attachment.outcome { parts.append("outcome-\(outcome)") }
        let (stem, suffix) = split(attachment.name)
        parts.append(stem.isEmpty ? hexPrefix(attachment.hash, 12) : stem)
        let fileExtension = suffix.isEmpty ? MediaType.fileExtension(attachment.mediaType) : suffix
        return (folder.isEmpty ? "check" : folder) + "/" + parts.joined(separator: "-") + "." + fileExtension
    }

    /// `path`, or when it is taken already, the same path with the hash's start before the
    /// extension, then with a number too: every file written out gets a name of its own.
    package static func unique(_ path: String, hash: String, among used: Set<String>) -> String {
        guard used.contains(path) else { return path }
        let dot = path.lastIndex(of: ".") ?? path.endIndex
        let stem = String(path[..<dot]) + "-" + hexPrefix(hash, 8), suffix = String(path[dot...])
        var candidate = stem + suffix
        var number = 2
        while used.contains(candidate) {
            candidate = stem + "-\(number)" + suffix
            number += 1
        }
        return candidate
    }

    /// A name's stem and extension, each as a slug (at most 80 and 10 characters).
    private static func split(_ name: String) -> (stem: String, suffix: String) {
        let base = (name as NSString).lastPathComponent
        let dot = base.lastIndex(of: ".")
        let stem = dot.map { String(base[..<$0]) } ?? base
        let suffix = dot.map { String(base[base.index(after: $0)...]) } ?? ""
        return (String(Slug.make(stem).prefix(80)), String(Slug.make(suffix).replacingOccurrences(of: "-", with: "").prefix(10)))
    }

    /// The start of a hash, hexadecimal digits only: a hash read from a database is not trusted
    /// to be one.
    private static func hexPrefix(_ hash: String, _ count: Int) -> String {
        String(hash.lowercased().filter { $0.isHexDigit && $0.isASCII }.prefix(count))
    }
}
