import CheckrunModel
@testable import CheckrunStore
import CheckrunTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A read-only folder can only be shown to someone who is not root; CI runs as root, so the
/// test drops to the `nobody` user with setpriv. Where it cannot (not root, no setpriv, or a
/// parent folder of the build keeps `nobody` out) it is skipped, and the reason is shown.
@Suite struct ReadOnlyFolderTests {
    static let dropPrivileges = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    static var canRunAsNobody: Bool {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        let probe = try? Subprocess.run("/usr/bin/setpriv", dropPrivileges + ["/bin/sh", "-c", "test -x \"$0\"", Checkrun.executable])
        return probe?.status == 0
    }

    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func aReadOnlyDatabaseFolderIsExplained() throws {
        let folder = try TemporaryFolder()
        defer {
            chmod(folder.path, 0o755)
            folder.remove()
        }
        let locked = folder.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(locked, 0o555)
        try folder.write("source.json", "{}")
        let result = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable, "merge", folder.path("source.json"), "--db", locked + "/results.sqlite"])
        let message = result.stderr
        #expect(result.status == 1)
        #expect(message.contains("the folder \(locked) is read-only; choose a writable place with --db PATH or CHECKRUN_DB"), "\(message)")
        // import making its folder there: the system's reason, not Foundation's "could not be completed".
        try folder.write("page.txt", "Page\nProfile: VoiceOver\nTask: a\nExpected: b\n")
        let imported = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable, "import", folder.path("page.txt"), "--out", locked + "/new/deeper"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("cannot create the folder \(locked)/new (permission denied); nothing was written"), "\(imported.stderr)")
    }
}

extension ReadOnlyFolderTests {
    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func anUnreadableAttachmentIsExplainedAndNothingIsRecorded() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o777)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: folder.path("secret.png")))
        chmod(folder.path("secret.png"), 0o000)
        let result = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [
            Checkrun.executable, "record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
            "--attach", folder.path("secret.png"), "--db", folder.path("results.sqlite"), "--protocols", Repository.path("protocols"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("secret.png: permission denied; make the file readable"), "\(result.stderr)")
        let sessions = try Checkrun.run(["sessions", "--db", folder.path("results.sqlite")])
        #expect(!sessions.stdout.contains("2.4"), "nothing was recorded: \(sessions.stdout)")
    }
}

/// Commands that only read leave nothing beside a database this user may not write: a
/// colleague's `verify` in a shared folder once left `-wal` and `-shm` files of its own there,
/// which locked the file's owner out of it; and a database in a read-only folder reads.
extension ReadOnlyFolderTests {
    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func aReaderLeavesNothingBesideADatabaseItMayNotWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o1777)
        let record = ["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--expected", "1=pass", "--expected", "2=pass",
                      "--count", "hits=10", "--db", folder.path("ana.sqlite"), "--protocols", Repository.path("protocols")]
        #expect(try Checkrun.run(record, in: folder.path).status == 0)
        chmod(folder.path("ana.sqlite"), 0o644)
        for command in [["verify"], ["sessions"], ["report", "--release", "2.4", "--protocols", Repository.path("protocols")],
                        ["export", "--out", folder.path("export.json")], ["attachments", "--release", "2.4"]] {
            let read = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable] + command + ["--db", folder.path("ana.sqlite")])
            #expect(read.status == 0, "\(command): \(read.stderr)")
            let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("ana.sqlite-") }
            #expect(beside.isEmpty, "\(command) left \(beside)")
        }
        let again = try Checkrun.run(record, in: folder.path)
        #expect(again.status == 0 && again.stdout.contains("attempt 2"), "the owner records on: \(again.stderr)")
    }

    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func aDatabaseInAReadOnlyFolderIsVerifiedAndReported() throws {
        let folder = try TemporaryFolder()
        defer {
            chmod(folder.path, 0o755)
            folder.remove()
        }
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--expected", "1=pass",
                                         "--expected", "2=pass", "--count", "hits=10", "--db", folder.path("ana.sqlite"), "--protocols", Repository.path("protocols")],
                                        in: folder.path)
        #expect(recorded.status == 0)
        chmod(folder.path, 0o555)
        let verified = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable, "verify", "--db", folder.path("ana.sqlite")])
        #expect(verified.status == 0 && verified.stdout.contains("Verified"), "\(verified.stdout)\(verified.stderr)")
        let report = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable, "report", "--release", "2.4", "--db", folder.path("ana.sqlite"),
                                                                                  "--protocols", Repository.path("protocols")])
        #expect(report.status == 0 && report.stdout.contains("tiny-target/touch-one-hand"), "\(report.stderr)")
    }
}

/// A colleague who may not write a shared database is refused before SQLite creates anything
/// beside it: the `-wal` and `-shm` files a failed write once left, owned by them, locked the
/// file's owner out. Such files left by an older checkrun are named, with what to do.
extension ReadOnlyFolderTests {
    static let owner = ["--reuid=65532", "--regid=65532", "--clear-groups"]

    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func aColleagueWhoCannotWriteLeavesNothingThatLocksTheOwnerOut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o777)
        let record = [Checkrun.executable, "record", "--release", "2.4", "--build", "311", "--check", "tiny-target/touch-one-hand", "--verdict", "pass",
                      "--db", folder.path("team.sqlite"), "--protocols", Repository.path("protocols")]
        #expect(try Subprocess.run("/usr/bin/setpriv", Self.owner + record).status == 0)
        let refused = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + record)
        #expect(refused.status == 1 && refused.stderr.contains("you cannot write the database \(folder.path("team.sqlite"))"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("team.sqlite-wal")) && !FileManager.default.fileExists(atPath: folder.path("team.sqlite-shm")))
        #expect(try Subprocess.run("/usr/bin/setpriv", Self.owner + record).status == 0, "the owner still saves")

        _ = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + ["/bin/sh", "-c", "umask 022; : > \"$0-wal\"; : > \"$0-shm\"", folder.path("team.sqlite")])
        let locked = try Subprocess.run("/usr/bin/setpriv", Self.owner + record)
        #expect(locked.status == 1 && locked.stderr.contains("-wal is read-only to you (another user's, left when their write failed)")
            && locked.stderr.contains("(the log is empty, so nothing is lost)"), "\(locked.stderr)")
    }

    /// A file from the step before the latest (schema version 5), which this user may not
    /// write: read as it is, since step 6 adds only an index, not refused as needing an upgrade.
    @Test(.enabled(if: canRunAsNobody, "needs root, setpriv, and a build folder the nobody user may enter"))
    func aVersionFiveFileInAReadOnlyFolderIsReadAsItIs() throws {
        let folder = try TemporaryFolder()
        defer {
            chmod(folder.path("locked"), 0o755)
            folder.remove()
        }
        let locked = folder.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        let recorded = try Checkrun.run(["record", "--release", "2.4", "--build", "1", "--check", "tiny-target/touch-one-hand", "--verdict", "skipped",
                                         "--db", locked + "/old.sqlite", "--protocols", Repository.path("protocols")])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let older = try Database(path: locked + "/old.sqlite")
        try older.execute("DROP INDEX results_set_aside; PRAGMA user_version = 5")
        older.close()
        chmod(folder.path, 0o755)
        chmod(locked + "/old.sqlite", 0o644)
        chmod(locked, 0o555)
        let sessions = try Subprocess.run("/usr/bin/setpriv", Self.dropPrivileges + [Checkrun.executable, "sessions", "--db", locked + "/old.sqlite"])
        #expect(sessions.status == 0 && sessions.stdout.contains("2.4"), "\(sessions.stderr)")
        let raw = try Database(path: locked + "/old.sqlite", create: false, readOnly: true)
        #expect(try raw.scalarInt("PRAGMA user_version") == 5, "left as it was")
        raw.close()
    }
}
