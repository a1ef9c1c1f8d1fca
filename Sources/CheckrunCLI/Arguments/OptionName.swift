/// Every option name checkrun declares, as a type: a declaration and a lookup name the same
/// case, so a misspelt name does not compile, and a lookup of an option the command does not
/// declare stops debug builds (`ParsedArguments`).
package enum OptionName: String, Sendable, CaseIterable {
    case accessible
    case against
    case attach
    case attachments
    case build
    case capture
    case builds
    case check
    case count
    case db
    case device
    case dryRun = "dry-run"
    case expected
    case failOnFailure = "fail-on-failure"
    case failOnRegression = "fail-on-regression"
    case force
    case format
    case from
    case help
    case json
    case maxAttachment = "max-attachment"
    case noColor = "no-color"
    case notes
    case os
    case out
    case product
    case profile
    case protocolFilter = "protocol"
    case protocols
    case reason
    case release
    case seconds
    case tester
    case threshold
    case to
    case unverified
    case verdict
    case wcag
    case withdraw
}
