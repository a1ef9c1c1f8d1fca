@testable import CheckrunCLI
import CheckrunModel
import CheckrunTestSupport
import Testing

/// The parser in process, against the commands' own declarations: no binary, no shell.
@Suite struct ArgumentParserTests {
    func parse(_ command: String, _ arguments: [String]) throws -> ParsedArguments {
        let definition = try #require(CheckrunCLI.definition(named: command))
        return try ArgumentParser.parse(arguments, for: definition, global: CheckrunCLI.globalOptions)
    }

    func usageError(_ command: String, _ arguments: [String]) throws -> String {
        let definition = try #require(CheckrunCLI.definition(named: command))
        do {
            _ = try ArgumentParser.parse(arguments, for: definition, global: CheckrunCLI.globalOptions)
            Issue.record("\(arguments) parsed")
            return ""
        } catch {
            #expect(error.command == command, "the error points at the command's help")
            return error.message
        }
    }

    @Test func valuesEitherWayRepeatedOptionsFlagsAndPositionals() throws {
        let parsed = try parse("report", ["--release=2.4", "--format", "html", "--fail-on-failure", "--accessible"])
        #expect(parsed.value(.release) == "2.4" && parsed.value(.format) == "html")
        #expect(parsed.flag(.failOnFailure) && parsed.flag(.accessible) && !parsed.flag(.unverified))
        let record = try parse("record", ["--release", "2.4", "--build", "311", "--check", "a/b", "--expected", "1=pass", "--expected", "2=fail"])
        #expect(record.all(.expected) == ["1=pass", "2=fail"])
        let merge = try parse("merge", ["--", "--odd-name.sqlite", "b.sqlite"])
        #expect(merge.positionals == ["--odd-name.sqlite", "b.sqlite"], "after -- every word is a file")
        #expect(try parse("list", ["-h"]).flag(.help))
        #expect(try parse("lint", ["-"]).positionals == ["-"])
    }

    @Test func mistakesAreUsageErrorsThatSayTheFix() throws {
        #expect(try usageError("list", ["--profil", "x"]).contains("unknown option '--profil' for 'checkrun list'. Did you mean '--profile'?"))
        #expect(try usageError("list", ["--json=yes"]).contains("'--json' is a flag and takes no value"))
        #expect(try usageError("report", ["--release"]).contains("'--release' needs a value: --release R"))
        #expect(try usageError("report", ["--release", "--format", "json"]).contains("'--release' needs a value"))
        #expect(try usageError("report", ["--release", "2.4", "--release", "2.5"]).contains("'--release' is given twice ('2.4' and '2.5')"))
        #expect(try usageError("record", ["--verdict", "pass"]).contains("missing --release R, --build B, --check PROTOCOL/CHECK"), "all at once")
        #expect(try usageError("list", ["-p"]).contains("checkrun's options are long"))
        #expect(try usageError("show", []).contains("missing ID"))
        #expect(try usageError("show", ["a", "b"]).contains("unexpected argument 'b'"))
    }

    @Test func theSameValueTwiceIsNotAMistake() throws {
        #expect(try parse("report", ["--release", "2.4", "--release=2.4"]).value(.release) == "2.4")
    }

    @Test func listAndRunShareTheirCheckFiltersDeclaredOnce() throws {
        for command in ["list", "run"] {
            let parsed = try parse(command, ["--protocol", "p", "--check", "p/c", "--check", "p/c", "--profile", "VoiceOver", "--wcag", "2.5.8"])
            let filter = CheckFilter(parsed)
            #expect(filter.protocols == ["p"] && filter.profile == "VoiceOver" && filter.wcag == "2.5.8")
            #expect(filter.checks == ["p/c", "p/c"])
        }
    }

    @Test func aCheckNamedTwiceOrByTwoNamesIsChosenOnce() throws {
        let library = try ProtocolLibrary.load(directory: Repository.path("protocols"))
        let parsed = try parse("run", ["--check", "touch-one-hand", "--check", "tiny-target/touch-one-hand", "--check", "touch-one-hand"])
        #expect(try CheckFilter(parsed).apply(to: library).map(\.name) == ["tiny-target/touch-one-hand"], "a walk asks each check once")
    }

    @Test func everyDeclaredOptionHasItsName() {
        let declared = Set((CheckrunCLI.commands.flatMap { $0.definition.options } + CheckrunCLI.globalOptions).map(\.name))
        #expect(declared == Set(OptionName.allCases.map(\.rawValue)), "no name is declared nowhere, none declared without a case")
    }

    @Test func everyCommandDeclaresEachOptionOnce() throws {
        for command in CheckrunCLI.commands {
            let names = (command.definition.options + CheckrunCLI.globalOptions).map(\.name)
            #expect(Set(names).count == names.count, "\(command.definition.name): \(names)")
        }
    }

    @Test func globalOptionsMayComeBeforeTheCommand() {
        let place = CheckrunCLI.placingGlobalOptionsAfterTheCommand
        #expect(place(["--protocols", "p", "--accessible", "list", "--json"]) == ["list", "--protocols", "p", "--accessible", "--json"])
        #expect(place(["--protocols=p", "show", "x"]) == ["show", "--protocols=p", "x"])
        #expect(place(["--no-color", "merge", "--db", "t.sqlite", "--", "--odd.sqlite"]) == ["merge", "--no-color", "--db", "t.sqlite", "--", "--odd.sqlite"],
                "before the command's own arguments, so -- still ends the options")
        #expect(place(["--accessible", "--help", "run"]) == ["run", "--accessible", "--help"], "the command's help")
        #expect(place(["--help"]) == ["--help"], "no command: the overview")
        #expect(place(["--accessible", "--help"]) == ["--help"], "no command: the overview")
        #expect(place(["--accessible"]) == ["--accessible"], "no command: left for the error")
        #expect(place(["--protocolsx", "list"]) == ["--protocolsx", "list"], "not a global option: left for the error")
    }

    /// The shell cannot pass a million characters in one argument, so the notes limit `record`
    /// and `amend` share with the walk is shown here, in process.
    @Test func notesOverTheLimitTheWalkKeepsAreRefused() throws {
        let long = try parse("record", ["--release", "1", "--build", "1", "--check", "a/b", "--notes", String(repeating: "x", count: 1_000_001)])
        #expect { try ResultOptions.notes(long) } throws: { "\($0)".contains("the most is 1000000") }
        let fine = try parse("record", ["--release", "1", "--build", "1", "--check", "a/b", "--notes", "Delete fired"])
        #expect(try ResultOptions.notes(fine) == "Delete fired")
    }

    @Test func aCommandsOptionBeforeTheCommandIsShownWhereItGoes() {
        #expect(CheckrunCLI.movedAfterTheCommand(["--db", "my results.sqlite", "report", "--release", "2.4"])
                    == "checkrun report --db 'my results.sqlite' --release 2.4")
        #expect(CheckrunCLI.movedAfterTheCommand(["--accessible", "--db", "x.sqlite", "report"]) == "checkrun report --accessible --db x.sqlite",
                "global options before it too")
        #expect(CheckrunCLI.movedAfterTheCommand(["--db", "export", "report", "--release", "2.4"]) == "checkrun report --db export --release 2.4",
                "an option's value is not taken for the command")
        #expect(CheckrunCLI.movedAfterTheCommand(["--release", "1", "list"]) == nil, "list has no --release: no such advice")
        #expect(CheckrunCLI.movedAfterTheCommand(["--db", "x.sqlite"]) == nil, "no command follows")
        // A server's password is left out, so the command runs as shown (libpq reads the
        // password from PGPASSWORD or ~/.pgpass); masked as "…", it was sent as the password.
        #expect(CheckrunCLI.movedAfterTheCommand(["--db", "postgresql://ana:S3cretPw@/team?host=/tmp/pg", "run", "--release", "1"])
                    == "checkrun run --db 'postgresql://ana@/team?host=/tmp/pg' --release 1")
    }
}
