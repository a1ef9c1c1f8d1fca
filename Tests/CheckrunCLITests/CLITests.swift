import CheckrunModel
import CheckrunTestSupport
import Foundation
import Testing

/// The command line as a user meets it: the built binary, its output and its exit codes.
@Suite struct CommandLineTests {
    @Test func versionAndHelpForEveryCommand() throws {
        let version = try Checkrun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("checkrun "))
        let overview = try Checkrun.run(["--help"])
        let commands = ["run", "resume", "sessions", "record", "report", "compare", "amend", "verify", "export", "merge",
                        "lint", "import", "list", "show", "completion", "help"]
        for command in commands {
            #expect(overview.stdout.contains("  \(command) "), "overview lists \(command)")
            let help = try Checkrun.run([command, "--help"])
            let viaHelp = try Checkrun.run(["help", command])
            #expect(help.status == 0)
            #expect(help.stdout == viaHelp.stdout)
            #expect(help.stdout.contains("Usage: checkrun \(command)"))
            #expect(help.stdout.contains("Examples:\n  checkrun "), "\(command) help has a real example")
        }
    }

    @Test func mistakesAreUsageErrorsWithSuggestions() throws {
        let command = try Checkrun.run(["lnt"])
        #expect(command.status == 2)
        #expect(command.stderr.contains("unknown command 'lnt'. Did you mean 'lint'?"))
        let option = try Checkrun.run(["list", "--profil", "VoiceOver"], in: Repository.root.path)
        #expect(option.status == 2)
        #expect(option.stderr.contains("unknown option '--profil' for 'checkrun list'. Did you mean '--profile'?"))
        #expect(option.stderr.contains("See 'checkrun list --help'."))
        let missing = try Checkrun.run(["show"], in: Repository.root.path)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing ID"))
        #expect(!missing.stderr.contains("Fatal error"))
    }

    @Test func optionsTakeValuesEitherWay() throws {
        let spaced = try Checkrun.run(["list", "--profile", "switch control"], in: Repository.root.path)
        let joined = try Checkrun.run(["list", "--profile=switch control"], in: Repository.root.path)
        #expect(spaced.status == 0)
        #expect(spaced.stdout == joined.stdout)
        #expect(spaced.stdout.contains("over-grouped-control/switch-control"))
        #expect(!spaced.stdout.contains("Profile: VoiceOver"))
    }

    @Test func lintIsCleanOnTheRepositoryAndFailsWithEveryProblem() throws {
        let clean = try Checkrun.run(["lint"], in: Repository.root.path)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stderr.contains("5 files checked, no problems."))

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("bad.json", "{\n  \"id\": \"bad\",\n  \"title\": 3,\n  \"colour\": \"red\"\n}\n")
        try folder.write("broken.json", "{\"id\": \"broken\",,}")
        let dirty = try Checkrun.run(["lint", folder.path])
        #expect(dirty.status == 1)
        let lines = dirty.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(folder.path("bad.json")):3:12: /title: expected a string, found a number — The catalog entry's title, e.g. \"Tiny Target\"."))
        #expect(lines.contains { $0.hasPrefix("\(folder.path("bad.json")):4:3: /colour: unknown key \"colour\".") })
        #expect(lines.contains { $0.hasPrefix("\(folder.path("bad.json")):1:1: /: missing \"status\"") })
        #expect(lines.contains { $0.hasPrefix("\(folder.path("broken.json")):1:17: invalid JSON:") })
        #expect(dirty.stderr.contains("2 files checked"))

        // A file named twice, in its folder and by itself, is one file, not a duplicate id.
        let twice = try Checkrun.run(["lint", "protocols", "protocols/tiny-target.json", "./protocols/tiny-target.json"], in: Repository.root.path)
        #expect(twice.status == 0 && twice.stderr.contains("5 files checked, no problems."), "\(twice.stdout)\(twice.stderr)")

        let nowhere = try Checkrun.run(["lint", "/no/such/place"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("/no/such/place: no such file or folder"))
    }

    @Test func theProtocolFolderComesFromTheFlagOrTheEnvironment() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Repository.path("protocols/tiny-target.json"), toPath: folder.path("tiny-target.json"))
        let flag = try Checkrun.run(["list", "--protocols", folder.path])
        let environment = try Checkrun.run(["list"], environment: ["CHECKRUN_PROTOCOLS": folder.path])
        #expect(flag.stdout.contains("1 check") == false)
        #expect(flag.stdout.hasSuffix("3 checks.\n"))
        #expect(flag.stdout == environment.stdout)
    }

    @Test func listFiltersAndPrintsJSON() throws {
        let result = try Checkrun.run(["list", "--wcag", "2.2.1", "--json"], in: Repository.root.path)
        #expect(result.status == 0)
        let items = try #require(try JSONParser.parse(result.stdout).arrayValue)
        #expect(items.compactMap { $0["check"]?.stringValue } == ["motor-accessibility/switch-control-checkout-time"])
        let unknown = try Checkrun.run(["list", "--protocol", "tiny-targt"], in: Repository.root.path)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no protocol \"tiny-targt\"") && unknown.stderr.contains("Did you mean \"tiny-target\"?"))
        // A number --wcag cannot take is a usage error, with a suggestion only where one is near.
        let badCriterion = try Checkrun.run(["list", "--wcag", "2.5.9"], in: Repository.root.path)
        #expect(badCriterion.status == 2)
        #expect(badCriterion.stderr.contains("--wcag 2.5.9: not a WCAG 2.2 success criterion. Did you mean 2.5.8?"), "\(badCriterion.stderr)")
        let farOff = try Checkrun.run(["list", "--wcag", "9.9.9"], in: Repository.root.path)
        #expect(farOff.status == 2)
        #expect(farOff.stderr.contains("--wcag 9.9.9: not a WCAG 2.2 success criterion. Success criteria are numbered 1.1.1 to 4.1.3"), "\(farOff.stderr)")
        #expect(try Checkrun.run(["list", "--wcag", "2.9.9"], in: Repository.root.path).stderr.contains("Did you mean 2."))
        #expect(try Checkrun.run(["list", "--wcag", "2.5"], in: Repository.root.path).stderr.contains("Did you mean 2.5.1?"))
        #expect(try Checkrun.run(["list", "--wcag", " 2.2.1 "], in: Repository.root.path).status == 0)
        let empty = try Checkrun.run(["list", "--wcag", ""], in: Repository.root.path)
        #expect(empty.status == 2 && empty.stderr.contains("--wcag is empty; name a success criterion, e.g. --wcag 2.5.8"), "\(empty.stderr)")
    }

    @Test func showPrintsAProtocolOrACheck() throws {
        let document = try Checkrun.run(["show", "tiny-target"], in: Repository.root.path)
        #expect(document.status == 0)
        #expect(document.stdout.contains("Check 2 of 3: tiny-target/touch-one-hand"))
        #expect(document.stdout.contains("    1. 10 out of 10 hits (counter hits, at least 10 of 10)"))
        #expect(document.stdout.contains("WCAG: 2.5.8 Target Size (Minimum) (AA); 2.5.5 Target Size (Enhanced) (AAA); 4.1.2 Name, Role, Value (A)"))
        let check = try Checkrun.run(["show", "tiny-target/touch-one-hand", "--json"], in: Repository.root.path)
        #expect(try JSONParser.parse(check.stdout)["id"]?.stringValue == "touch-one-hand")
        let typo = try Checkrun.run(["show", "tiny-target/touch-one-han"], in: Repository.root.path)
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("Did you mean \"tiny-target/touch-one-hand\"?"))
    }

    @Test func aBrokenProtocolFolderIsRefusedWithItsProblems() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("x.json", "")
        let result = try Checkrun.run(["list", "--protocols", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("x.json:1:1: the file is empty"))
        #expect(result.stderr.contains("checkrun lint"))
    }

    @Test func bashCompletionIsValidAndBuiltFromTheDeclarations() throws {
        let result = try Checkrun.run(["completion", "bash"])
        #expect(result.status == 0)
        for word in ["lint", "import", "--dry-run", "--force", "--wcag", "--protocols"] {
            #expect(result.stdout.contains(word))
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = try folder.write("checkrun.bash", result.stdout)
        let bash = try Subprocess.run("/bin/bash", ["-c", "source \(script) && COMP_WORDS=(checkrun import --dr) COMP_CWORD=2 && _checkrun && echo \"${COMPREPLY[@]}\""])
        #expect(bash.stdout == "--dry-run\n")
        for shell in ["zsh", "fish"] {
            let other = try Checkrun.run(["completion", shell])
            #expect(other.status == 0 && other.stdout.contains("dry-run"))
        }
        #expect(try Checkrun.run(["completion", "tcsh"]).status == 2)
    }

    @Test func noColourWithoutATerminal() throws {
        let result = try Checkrun.run(["lint"], in: Repository.root.path, environment: ["TERM": "xterm-256color"])
        #expect(!result.stderr.contains("\u{1B}["))
        #expect(!result.stdout.contains("\u{1B}["))
    }
}
