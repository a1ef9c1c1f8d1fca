/// The media type of a file, told from its first bytes rather than its name: a screenshot
/// saved as `shot.txt` is still shown as a picture, and a log named `.png` is not.
package enum MediaType {
    /// How many leading bytes `sniff` looks at.
    package static let prefixLength = 32

    /// The media type the bytes begin like; `application/octet-stream` when none is known.
    package static func sniff(_ prefix: [UInt8]) -> String {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + signature.count && Array(prefix[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("%PDF-".utf8)) { return "application/pdf" }
        if starts(Array("ftyp".utf8), at: 4) { return isoMediaType(prefix) }
        return isText(prefix) ? "text/plain" : "application/octet-stream"
    }

    /// ISO base media files (MP4, QuickTime, HEIC) name their kind in the `ftyp` box's brand.
    private static func isoMediaType(_ prefix: [UInt8]) -> String {
        guard prefix.count >= 12 else { return "application/octet-stream" }
        let brand = String(decoding: prefix[8..<12], as: UTF8.self)
        switch brand {
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": return "image/heic"
        case "qt  ": return "video/quicktime"
        default: return "video/mp4"
        }
    }

    /// Text: valid UTF-8 (a multi-byte character cut off at the end of the prefix allowed) with
    /// no control characters but tab, line feed, carriage return and form feed.
    private static func isText(_ prefix: [UInt8]) -> Bool {
        guard !prefix.isEmpty else { return false }
        // Escape (0x1B) too: logs keep terminal colours.
        for byte in prefix where byte < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(byte) || byte == 0x7F { return false }
        var trimmed = prefix[...]
        // Drop an incomplete character at the end: the prefix may stop inside one.
        for _ in 0..<3 where !trimmed.isEmpty && String(validating: trimmed, as: UTF8.self) == nil {
            trimmed = trimmed.dropLast()
        }
        return String(validating: trimmed, as: UTF8.self) != nil
    }

    /// The type in words, as the walk and every report say it: "PNG image", "MP4 video".
    package static func words(_ mediaType: String) -> String {
        switch mediaType {
        case "image/png": "PNG image"
        case "image/jpeg": "JPEG image"
        case "image/gif": "GIF image"
        case "image/heic": "HEIC image"
        case "video/mp4": "MP4 video"
        case "video/quicktime": "QuickTime video"
        case "application/pdf": "PDF"
        case "text/plain": "text"
        default: "file of unknown type"
        }
    }

    /// The extension a file of this type is extracted with, when its own name has none.
    package static func fileExtension(_ mediaType: String) -> String {
        switch mediaType {
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/heic": "heic"
        case "video/mp4": "mp4"
        case "video/quicktime": "mov"
        case "application/pdf": "pdf"
        case "text/plain": "txt"
        default: "bin"
        }
    }
}
