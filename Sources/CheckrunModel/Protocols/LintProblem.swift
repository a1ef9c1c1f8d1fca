/// One problem in a protocol file, printed as `file:line:column: /json/pointer: message`
/// so that editors and CI annotate the exact place.
package struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var location: SourceLocation
    /// Nil for problems that come before JSON structure exists (unreadable file, syntax error).
    package var pointer: JSONPointer?
    package var message: String

    package init(file: String, location: SourceLocation, pointer: JSONPointer?, message: String) {
        self.file = file
        self.location = location
        self.pointer = pointer
        self.message = message
    }

    /// One line whatever the file holds: a key or a value quoted in the message may hold a
    /// line break, and printed raw it stood as lines of its own ("1 file checked, no problems.").
    package var description: String {
        DisplayText.neutralised("\(file):\(location.line):\(location.column): \(pointer.map { "\($0): " } ?? "")\(message)")
    }
}
