import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing

/// A PostgreSQL address that cannot be used (a server that is not there, or a build without the
/// team store) is refused in one line, its password never shown, and nothing is created under a
/// name made of it.
@Suite struct ServerAddressTests {
    /// What the refusal says: this build has no team store, or the server cannot be reached.
    var refusal: String { ResultStore.canUseServers ? "cannot reach the PostgreSQL server" : "is a PostgreSQL address, and this checkrun was built without the team store" }

    @Test func aServerAddressIsRefusedWithoutShowingItsPassword() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let address = "postgresql://ana:s3cret@/checkrun?host=/nonexistent-socket-folder&password=other"
        let masked = "postgresql://ana:…@/checkrun?host=/nonexistent-socket-folder&password=…"
        let runs: [[String]] = [
            ["sessions", "--db", address], ["report", "--release", "2.4", "--db", address], ["verify", "--db", address],
            ["merge", address, "--db", "team.sqlite"], ["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand",
                                                       "--verdict", "pass", "--protocols", Repository.path("protocols"), "--db", address],
        ]
        for arguments in runs {
            let result = try Checkrun.run(arguments, in: folder.path)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(masked) && result.stderr.contains(refusal), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("s3cret") && !(result.stdout + result.stderr).contains("other"))
        }
        let fromEnvironment = try Checkrun.run(["sessions"], in: folder.path, environment: ["CHECKRUN_DB": "postgres://ana:s3cret@/team?host=/nonexistent-socket-folder"])
        #expect(fromEnvironment.status == 1 && fromEnvironment.stderr.contains("postgres://ana:…@/team") && !fromEnvironment.stderr.contains("s3cret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
    }
}

extension ServerAddressTests {
    @Test func aPasswordHoldingSlashesOrQuestionMarksIsMaskedWhole() throws {
        let result = try Checkrun.run(["sessions", "--db", "postgresql://ana:pa/ss?w@rd@/checkrun?host=/nonexistent-socket-folder"])
        #expect(result.status == 1 && result.stderr.contains("postgresql://ana:…@/checkrun"), "\(result.stderr)")
        #expect(!result.stderr.contains("pa/ss"))
    }

    @Test func thePasswordsInAnAddressAreFoundWhereverTheyAre() {
        func passwords(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return ServerAddressText.passwordOffsets(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(passwords("postgresql://ana:s3cret@db/checkrun") == ["s3cret"])
        #expect(passwords("--db=POSTGRES://ana:pa/ss?w@rd@db/x?sslmode=require&Password=two") == ["pa/ss?w@rd", "two"])
        #expect(passwords("postgresql://ana@db/checkrun") == [])
        #expect(passwords("postgresql://ana@/checkrun?host=/tmp&pass%77ord=s3cretpass") == ["s3cretpass"], "a key libpq decodes")
        #expect(passwords("postgresql:/ana:s3cretpass@db/checkrun") == ["s3cretpass"], "one slash")
        #expect(passwords("postgresql://ana:s3cretpass/checkrun") == ["s3cretpass"], "no @: not a port")
        #expect(passwords("postgresql://db:5432/checkrun") == [], "a port is a port")
        #expect(passwords("host=db password=s3cretpass dbname=checkrun") == ["s3cretpass"])
        #expect(passwords("team.sqlite") == [])
        #expect(passwords("postgresql+psycopg2://ana:s3cretpass@db/checkrun") == ["s3cretpass"], "a driver's scheme, digits and all")
        #expect(passwords("jdbc:postgresql://db/checkrun?user=ana&password=s3cretpass") == ["s3cretpass"], "a chain of schemes")
        #expect(passwords("postgresql ://ana:s3cretpass@db/x") == ["s3cretpass"], "a space before the colon")
        #expect(passwords("ana:s3cretpass@db.example.com/checkrun") == ["s3cretpass"], "no scheme at all")
        #expect(passwords("--db=ana:s3cretpass@db/checkrun") == ["s3cretpass"])
        #expect(passwords("host=db user=ana:x@y password=s3cretpass").contains("s3cretpass"), "key=value with a user holding \":\" and \"@\"")
        #expect(passwords("results/2024:v1.sqlite") == [] && passwords("notes: seen at @home") == [], "a path or words are left as they are")
        #expect(ServerAddressText.withoutPassword("postgresql://ana:s3cret@db/x?password=two&sslmode=verify-full") == "postgresql://ana@db/x?sslmode=verify-full")
        #expect(ServerAddressText.withoutPassword("postgresql://ana@db/x?sslmode=verify-full&pass%77ord=two") == "postgresql://ana@db/x?sslmode=verify-full")
        #expect(ServerAddressText.withoutPassword("postgresql://ana:s3/cr@t@db/x?password=two") == "postgresql://ana@db/x")
        #expect(ServerAddressText.withoutPassword("postgresql://ana@db/x?sslmode=require") == "postgresql://ana@db/x?sslmode=require")
        #expect(ServerAddressText.withoutPassword("team.sqlite") == "team.sqlite")
    }
}

extension ServerAddressTests {
    /// Passwords that libpq would quote back (a % not percent-encoded, a space) or that a
    /// mistyped scheme turns into a path: never printed.
    @Test func aPasswordIsNotEchoedByAnAddressThatCannotBeReadOrAMistypedScheme() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for address in ["postgresql://ana:50%offsale@/checkrun?host=/nonexistent-socket-folder", "postgresql://ana:two words@/checkrun?host=/nonexistent",
                        "postgresq://ana:s3cretpass@db/checkrun", "host=db password=s3cretpass dbname=checkrun",
                        "postgresql://ana@/checkrun?host=/nonexistent&pass%77ord=s3cretpass", "postgresql:/ana:s3cretpass@db/checkrun",
                        "postgresql://ana:s3cretpass/checkrun"] {
            let result = try Checkrun.run(["sessions", "--db", address], in: folder.path)
            #expect(result.status != 0, "\(address)")
            for secret in ["50%offsale", "50%off", "two words", "s3cretpass"] {
                #expect(!(result.stdout + result.stderr).contains(secret), "\(address): \(result.stderr)")
            }
        }
    }
}

extension ServerAddressTests {
    /// Where a password ends: a "@" in a parameter's value is no end of the user part, an IPv6
    /// host's colons are no password, and libpq's key=value form may space its "=" or quote.
    @Test func aParameterHoldingAnAtSignAnIPv6HostAndQuotedValuesAreReadAsLibpqReadsThem() {
        func passwords(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return ServerAddressText.passwordOffsets(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(passwords("postgresql://postgres:secret@/t1?host=/tmp/pg&application_name=qa@ci") == ["secret"])
        #expect(ServerAddressText.withoutPassword("postgresql://postgres:secret@/t1?host=/tmp/pg&application_name=qa@ci") == "postgresql://postgres@/t1?host=/tmp/pg&application_name=qa@ci")
        #expect(passwords("postgresql://postgres@[::1]/t1?sslmode=disable") == [])
        #expect(passwords("postgresql://[::1]:5432/t1") == [])
        #expect(ServerAddressText.masked("postgresql://postgres@[::1]/t1?sslmode=disable") == "postgresql://postgres@[::1]/t1?sslmode=disable")
        #expect(passwords("host=/x password='Se Kr1t' dbname=t1") == ["'Se Kr1t'"])
        #expect(passwords("host=/x password = SeKr1t dbname=t1") == ["SeKr1t"])
        #expect(passwords("host=/x password= 'it\\'s' dbname=t1") == ["'it\\'s'"])
        #expect(ServerAddressText.isMisread("postgresql://ana:MyLong99/x@db/t1") && passwords("postgresql://ana:MyLong99/x@db/t1") == ["MyLong99/x"])
        #expect(!ServerAddressText.isMisread("postgresql://ana:pa%2Fss@db/t1"))
        #expect(!ServerAddressText.isMisread("postgresql://ana@db/t1?application_name=qa@ci"))
        // libpq ends the user part at the first "@" before any "/", and a parameter at "&" only.
        #expect(passwords("postgresql://carol:a?x=y@/t4?host=/tmp/pg&port=5498") == ["a?x=y"] && ServerAddressText.isMisread("postgresql://carol:a?x=y@/t4?host=/tmp/pg"))
        #expect(passwords("postgresql://carol:a?x#y@/t4?host=/tmp/pg") == ["a?x#y"] && !ServerAddressText.isMisread("postgresql://carol:a?x#y@/t4?host=/tmp/pg"))
        #expect(ServerAddressText.withoutPassword("postgresql://carol:a?x#y@/t4?host=/tmp/pg&port=5498") == "postgresql://carol@/t4?host=/tmp/pg&port=5498")
        #expect(passwords("postgresql://dave@/t5?password=se?cret&host=/tmp/pg") == ["se?cret"])
        #expect(ServerAddressText.withoutPassword("postgresql://dave@/t5?password=se?cret&host=/tmp/pg") == "postgresql://dave@/t5?host=/tmp/pg")
        // Where libpq's reading and the meant one differ, the longer is masked and the address refused.
        for (address, masked) in [("postgresql://bob:simple1@/qa@team?host=/tmp/pg", "simple1@/qa"), ("postgresql://ana:p@ss@db/x", "p@ss"),
                                  ("postgresql://ana:p@ss/word@db/x", "p@ss/word"), ("postgresql://ana:p@ss?word@db/x", "p@ss?word"),
                                  ("postgresql://ana:2024/07@db/checkrun", "2024/07")] {
            #expect(passwords(address) == [masked] && ServerAddressText.isMisread(address), "\(address)")
        }
        #expect(!ServerAddressText.isMisread("postgresql://bob:simple1@/qa%40team?host=/tmp/pg") && !ServerAddressText.isMisread("postgresql://db:5432/checkrun"))
        // A password= after any "?" or "&", where libpq would not read it as one, is masked too.
        #expect(passwords("postgresql://db.example.com?user=ana@example.com&password=s3cret") == ["s3cret"])
        #expect(passwords("postgresql://db/checkrun?sslmode=require?password=s3cret") == ["s3cret"])
        #expect(ServerAddressText.withLowercaseScheme("Postgresql://bob@db/t2") == "postgresql://bob@db/t2")
        #expect(ServerAddressText.isKeyValueConnectionString("host=db dbname=t1"))
        #expect(ServerAddressText.isKeyValueConnectionString("dbname = t1 password='a b\\'c'"))
        #expect(ServerAddressText.isKeyValueConnectionString("sslpassword=s3cret sslcert=x"))
        #expect(ServerAddressText.isKeyValueConnectionString("host=db password=secret dbnme=checkrun"), "a misspelled key")
        #expect(ServerAddressText.isKeyValueConnectionString("host=db password=my secret"), "a space in an unquoted password")
        for fileName in ["results=2024.sqlite", "team.sqlite", "results port=2.sqlite", "Port=1.sqlite", "my host=db.sqlite", "./user=ana.sqlite"] {
            #expect(!ServerAddressText.isKeyValueConnectionString(fileName), "\(fileName)")
        }
    }

    /// libpq's key=value form is refused in one line that does not repeat it: it would otherwise
    /// be a file name, and a `record` would say "Recorded" into a file named after the password.
    @Test func aKeyValueConnectionStringIsRefusedNotTakenForAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = ["--protocols", Repository.path("protocols")]
        for address in ["dbname=t1 password=SeKr1tpass", "host=/x password = 'Se Kr1tpass' dbname=t1"] {
            for command in [["sessions"], ["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass"] + protocols,
                            ["merge", address, "--db", "mine.sqlite"]] {
                let result = try Checkrun.run(command + (command[0] == "merge" ? [] : ["--db", address]), in: folder.path)
                #expect(result.status == 1 && result.stderr.contains("libpq's key=value form"), "\(command): \(result.stderr)")
                #expect(!(result.stdout + result.stderr).contains("Kr1tpass"), "\(result.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
        // A file of such a name that is there is a file, and ./ names a new one.
        #expect(try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", "./user=ana.sqlite"] + protocols,
                                 in: folder.path).status == 0)
        #expect(try Checkrun.run(["sessions", "--db", "user=ana.sqlite"], in: folder.path).stdout.contains("release 1, build 1"))
    }
}

extension ServerAddressTests {
    /// An "@" libpq would take as the user part's end inside a parameter, or a third slash, makes
    /// libpq read the password as a user, host, port or database name: refused. Several hosts
    /// keep their ports, and a client key's passphrase is masked too.
    @Test func addressesLibpqWouldMisreadAreRefusedAndSecretsOfEveryKindMasked() {
        func passwords(_ text: String) -> [String] {
            let bytes = Array(text.utf8)
            return ServerAddressText.passwordOffsets(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        for address in ["postgresql://db.example.com?password=p@ss:word", "postgresql://ana?password=Sup3rS3cret@/checkrun?host=/x",
                        "postgresql:///bob:hunter22@/bobdb?host=/x", "postgresql://h?application_name=a@b&password=hunter:22x"] {
            #expect(ServerAddressText.isMisread(address), "\(address)")
        }
        #expect(passwords("postgresql://127.0.0.1:5497,localhost/bobdb?user=bob") == [])
        #expect(!ServerAddressText.isMisread("postgresql://127.0.0.1:5497,localhost/bobdb?user=bob"))
        #expect(ServerAddressText.withoutPassword("postgresql://127.0.0.1:5497,localhost/bobdb?user=bob") == "postgresql://127.0.0.1:5497,localhost/bobdb?user=bob")
        #expect(passwords("postgresql://h/db?sslpassword=s3cretkey") == ["s3cretkey"])
        #expect(passwords("sslpassword=s3cret sslcert=x") == ["s3cret"])
        #expect(passwords("postgresql:ana:hunter22@db.example.com") == ["hunter22"] && passwords(" postgresql://ana:hunter22@h/db") == ["hunter22"])
        #expect(ServerAddressText.isMistypedServer("postgresql:ana:hunter22@db") && ServerAddressText.isMistypedServer("postgresql//ana:hunter22@h/db"))
        #expect(ServerAddressText.isMistypedServer(" postgresql://ana:hunter22@h/db") && !ServerAddressText.isMistypedServer("postgresql://ana@h/db"))
        #expect(!ServerAddressText.isMistypedServer("postgres.sqlite") && !ServerAddressText.isMistypedServer("postgresfile.sqlite"))
        #expect(passwords("postgresql;//u:s3cret@/h2_x") == ["s3cret"] && passwords("postgres;//u:s3cret@db/x") == ["s3cret"])
        #expect(passwords("postgresql.//u:s3cret@db/x") == ["s3cret"] && passwords("postgresql;u:s3cret@db") == ["s3cret"])
        // A name written as a path is a file, whatever it holds; a plain name without credentials too.
        #expect(ServerAddressText.holdsLooseCredentials("postgresq:u:s3cret@db") && !ServerAddressText.holdsLooseCredentials("./a:b@c.sqlite"))
        #expect(!ServerAddressText.holdsLooseCredentials("team@2024.sqlite") && !ServerAddressText.holdsLooseCredentials("postgres.backup.sqlite"))
        // A file's name holding a time and an "@" is a file's name: not refused, and shown as it
        // is where it cannot be an address (a "user:secret@host" one is masked, harmlessly).
        for name in ["dbs/2024-05-01T10:30@ipad.sqlite", "run 10:30@ipad.sqlite", "/tmp/QA 10:30@ipad/team.sqlite"] {
            #expect(!ServerAddressText.holdsLooseCredentials(name) && passwords(name).isEmpty, "\(name)")
        }
        #expect(!ServerAddressText.holdsLooseCredentials("file:qa@team.sqlite") && !ServerAddressText.holdsLooseCredentials("release-2.4:build@311.sqlite"))
    }

    /// A mistyped scheme is refused, not made a file named after the password; and no echo of
    /// what was typed shows a password, however short, or hidden behind a control character.
    @Test func noEchoOfATypedAddressShowsItsPassword() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let protocols = ["--protocols", Repository.path("protocols")]
        // A scheme's colon typed as another mark, or the scheme misspelled past recognising, too.
        for address in ["postgresql:ana:hunter22@db.example.com", " postgresql://ana:hunter22@h/db", "postgres:/bob:hunter22@h",
                        "postgresql;//ana:hunter22@/db", "postgresql.//ana:hunter22@h/db", "postgresql;ana:hunter22@db", "postgresq:ana:hunter22@db"] {
            let recorded = try Checkrun.run(["record", "--release", "1", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "pass", "--db", address] + protocols,
                                            in: folder.path)
            #expect(recorded.status == 1 && recorded.stderr.contains("looks like a PostgreSQL address"), "\(address): \(recorded.stderr)")
            let merged = try Checkrun.run(["merge", address, "--db", "x.sqlite"], in: folder.path)
            #expect(merged.status == 1 && !(recorded.stdout + recorded.stderr + merged.stdout + merged.stderr).contains("hunter22"), "\(merged.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
        for arguments in [["--db", "postgresql://ana:ab@h/db", "sessions"], ["sessions", "postgresql://ana:ab@h/db"], ["lint", "postgresql://ana:hunter\u{202E}22@h/db"],
                          ["lint", "postgresql://ana:hunter\u{1B}22@h/db"]] {
            let result = try Checkrun.run(arguments, in: folder.path)
            #expect(result.status != 0)
            #expect(!(result.stdout + result.stderr).contains(":ab@") && !(result.stdout + result.stderr).contains("hunter"), "\(arguments): \(result.stderr)")
        }
    }
}

extension ServerAddressTests {
    /// Addresses copied from other tools' settings (a driver's scheme, JDBC, a scheme typed with a
    /// space, or no scheme at all) are not checkrun's, but their passwords are still never shown.
    @Test func anAddressCopiedFromAnotherToolsSettingsNeverShowsItsPassword() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let addresses = ["postgresql+psycopg2://ana:Sup3rS3cret@db.example.com/checkrun", "jdbc:postgresql://db/checkrun?user=ana&password=Sup3rS3cret",
                         "postgresql ://ana:Sup3rS3cret@db/x", "ana:Sup3rS3cret@db.example.com/checkrun",
                         // Other programs' connection strings, taken for file names once: echoed, and made files.
                         "x;password=Sup3rS3cret", "pgsql:host=db;dbname=team;user=ana;password=Sup3rS3cret",
                         "Server=db;Database=team;User Id=ana;Password=Sup3rS3cret;", "team.sqlite?password=Sup3rS3cret",
                         // An "@" and then a "?" in a password: shown from its first "@" on, once.
                         "postgresql://ana:p@Sup3rS3cret?&@db.example.com/team", "postgresql://ana:x@My$Sup3rS3cret/pw?a=b@db.example.com/team",
                         "postgresql://ana:p@ss:Sup3rS3cret/o%rd?&#x y@db.example.com/team",
                         // A network path's form, masked as the same address without its slashes is.
                         "//ana:Sup3rS3cret@db.example.com/team"]
        for address in addresses {
            for command in [["sessions"], ["verify"], ["report", "--release", "2.4"], ["merge", address]] {
                let arguments = command == ["merge", address] ? ["merge", address, "--db", "team.sqlite"] : command + ["--db", address]
                let result = try Checkrun.run(arguments, in: folder.path)
                #expect(result.status != 0, "\(arguments)")
                #expect(!(result.stdout + result.stderr).contains("Sup3rS3cret"), "\(arguments): \(result.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was created")
    }
}

extension ServerAddressTests {
    /// A password that is also a word ("checkrun", "pass") is hidden where it stands as a
    /// password, not cut out of checkrun's own words: every "checkrun" once became "…" in a
    /// resume hint, which then ran nothing, and "Result: pass" read "Result: …". (What libpq
    /// says back still loses it wherever it is.)
    @Test func aPasswordThatIsAlsoAWordIsHiddenOnlyWhereItIsAPassword() {
        let addresses = ["postgresql://ana:checkrun@db/x", "postgresql://ana@db/x?password=pass"]
        let output = "checkrun: note: Result: pass. Resume with: checkrun resume 1a2b --db 'postgresql://ana:checkrun@db/x', or ana:checkrun@db, password=pass"
        let shown = ServerAddressText.scrubbed(output, hiding: ServerAddressText.hiding(addresses, bare: false))
        #expect(shown == "checkrun: note: Result: pass. Resume with: checkrun resume 1a2b --db 'postgresql://ana:…@db/x', or ana:…@db, password=…", "\(shown)")
        #expect(ServerAddressText.scrubbed("libpq: checkrun refused", passwordsOf: addresses) == "libpq: … refused")
    }
}
