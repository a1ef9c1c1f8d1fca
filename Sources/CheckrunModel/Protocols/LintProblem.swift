/// One problem in a protocol file, printed as `file:line:column: /json/pointer: message`
/// so that editors and CI annotate the exact place.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation
    /// Nil for problems that come before JSON structure exists (unreadable file, syntax error).
    public var pointer: JSONPointer?
    public var message: String

    public init(file: String, location: SourceLocation, pointer: JSONPointer?, message: String) {
        self.file = file
        self.location = location
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        "\(file):\(location.line):\(location.column): \(pointer.map { "\($0): " } ?? "")\(message)"
    }
}
