import CheckrunModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

// Small readers the report tests parse output back with: XML, CSV and the YAML subset OpenACR
// is written in.

/// Collects what an XML parser saw.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var attributes: [(key: String, value: String)] = []
    var text = ""
    /// Every element with its parent, for checking the structure a schema allows.
    var nesting: Set<String> = []
    private var open: [String] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements[name, default: 0] += 1
        self.attributes += attributes.map { ($0.key, $0.value) }
        nesting.insert("\(open.last ?? "") > \(name)")
        open.append(name)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}

/// RFC 4180 reading, to prove the CSV round-trips.
enum CSV {
    /// Reads by Unicode scalars, as CSV readers do: a CR or LF outside quotes ends a row, even
    /// where Swift would join it with what follows into one character.
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = String.UnicodeScalarView(), quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        func endField() { row.append(String(field)); field = String.UnicodeScalarView() }
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { field.append("\""); scalars = scalars.dropFirst() } else { quoted = false }
                } else { field.append(scalar) }
            } else if scalar == "\"" { quoted = true }
            else if scalar == "," { endField() }
            else if scalar == "\n" || scalar == "\r" {
                if scalar == "\r", scalars.first == "\n" { scalars = scalars.dropFirst() }
                endField(); rows.append(row); row = []
            } else { field.append(scalar) }
        }
        return rows
    }
}

/// The YAML checkrun writes is JSON-shaped (every scalar a JSON literal): this reads it back.
enum YAMLSubset {
    static func toJSON(_ yaml: String) -> String {
        let lines = yaml.split(separator: "\n").map(String.init)
        var index = 0
        return JSONWriter.write(parse(lines, &index, indent: 0))
    }

    private static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func scalar(_ text: String) -> JSONValue {
        (try? JSONParser.parse(text).value) ?? .string(text)
    }

    /// `"key": rest` → (key, rest), the key read as the JSON string it is.
    private static func splitKey(_ line: String) -> (String, String)? {
        let characters = Array(line)
        guard characters.first == "\"" else { return nil }
        var position = 1
        while position < characters.count, characters[position] != "\"" {
            position += characters[position] == "\\" ? 2 : 1
        }
        guard position + 1 < characters.count, characters[position + 1] == ":",
              let key = try? JSONParser.parse(String(characters[0...position])).stringValue else { return nil }
        return (key, String(characters[(position + 2)...]).trimmingCharacters(in: .whitespaces))
    }

    private static func parse(_ lines: [String], _ index: inout Int, indent: Int) -> JSONValue {
        guard index < lines.count else { return .null }
        let trimmed = lines[index].dropFirst(indent)
        if trimmed.hasPrefix("- ") {
            var items: [JSONNode] = []
            while index < lines.count, indentation(lines[index]) == indent, lines[index].dropFirst(indent).hasPrefix("- ") {
                let rest = String(lines[index].dropFirst(indent + 2))
                if rest.hasPrefix("\"") && !rest.contains("\": ") && !rest.hasSuffix("\":") {
                    items.append(JSONNode(scalar(rest)))
                    index += 1
                } else {
                    var copy = lines
                    copy[index] = String(repeating: " ", count: indent + 2) + rest
                    items.append(JSONNode(parse(copy, &index, indent: indent + 2)))
                }
            }
            return .array(items)
        }
        var members: [JSONMember] = []
        while index < lines.count, indentation(lines[index]) == indent, !lines[index].dropFirst(indent).hasPrefix("- ") {
            guard let (key, rest) = splitKey(String(lines[index].dropFirst(indent))) else { break }
            index += 1
            if rest.isEmpty {
                let childIndent = index < lines.count ? indentation(lines[index]) : indent
                members.append(JSONMember(key, JSONNode(parse(lines, &index, indent: childIndent))))
            } else {
                members.append(JSONMember(key, JSONNode(scalar(rest))))
            }
        }
        return .object(members)
    }
}
