import Foundation
import Testing

/// The commands that only read, with the arguments they take after the file, for a demo journal.
private let readerCommands: [[String]] = [
    ["sessions"], ["sessions", "--json"], ["log", "--session", "1"], ["log", "--session", "2", "--json"],
    ["state", "--session", "2", "--at", "3"], ["verify"], ["export", "--session", "1"], ["diff", "--session", "2", "0", "3"],
]

/// Runs every reader command on `file`; returns a line per command that did not exit 0.
private func runReaders(on file: String, in directory: URL, as user: UInt32? = nil) throws -> [String] {
    var failures: [String] = []
    for command in readerCommands {
        let arguments = [command[0], file] + command.dropFirst()
        let result = try user.map { try runCLI(arguments, in: directory, asUser: $0) } ?? runCLI(arguments, in: directory)
        if result.status != 0 {
            failures.append("\(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr)")
        }
    }
    return failures
}

/// The names of the files in `directory`, sorted.
private func fileNames(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// The permission bits of `name` in `directory`.
private func permissions(_ name: String, in directory: URL) -> Int? {
    var status = stat()
    guard stat(directory.appendingPathComponent(name).path, &status) == 0 else { return nil }
    return Int(status.st_mode & 0o7777)
}

@Suite("replay-cli and the journal's files: readers never write, copies, private modes")
struct FileCommandTests {
    @Test("every reader command on a closed journal exits 0 and leaves no file beside it")
    func readersCreateNothing() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            #expect(fileNames(in: directory) == ["demo.actionlog"], "the demo closed its journal into one file")
            #expect(try runReaders(on: "demo.actionlog", in: directory) == [])
            #expect(fileNames(in: directory) == ["demo.actionlog"])
        }
    }

    @Test("on a read-only file system every reader command works, on a closed journal and on one left in WAL mode")
    func readOnlyFileSystem() throws {
        try withTemporaryDirectory { directory in
            let mount: ScratchMount
            switch ScratchMount.make() {
            case .success(let made): mount = made
            case .failure(let reason):
                print("Skipped: cannot mount a file system to make read-only here: \(reason)")
                return
            }
            try withExtendedLifetime(mount) {
                try runDemo(in: mount.url)
                // The same journal as an older ActionLog left it: in WAL mode, without its log.
                try FileManager.default.copyItem(at: mount.url.appendingPathComponent("demo.actionlog"), to: mount.url.appendingPathComponent("old.actionlog"))
                try runSQLite("PRAGMA journal_mode = WAL", on: "old.actionlog", in: mount.url)
                let files = fileNames(in: mount.url)
                #expect(files == ["demo.actionlog", "old.actionlog"])
                try mount.remountReadOnly()

                for file in ["demo.actionlog", "old.actionlog"] {
                    #expect(try runReaders(on: file, in: mount.url) == [], "\(file)")
                    let verify = try runCLI(["verify", file], in: mount.url)
                    #expect(verify.stdout == "\(file): 4 sessions, 50 entries: OK\n")
                    let copy = directory.appendingPathComponent("copy-of-\(file)").path
                    let copied = try runCLI(["copy", file, copy], in: mount.url)
                    #expect(copied.status == 0, "\(copied.stderr)")
                }
                #expect(fileNames(in: mount.url) == files)
            }
        }
    }

    @Test("another user reads a journal without leaving a file in a shared directory, and the owner records into it again")
    func anotherUser() throws {
        guard let reason = otherUsersUnavailable() else {
            try withTemporaryDirectory { directory in
                let shared = directory.appendingPathComponent("shared")
                try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
                #expect(chmod(shared.path, 0o1777) == 0)
                #expect(chmod(directory.path, 0o755) == 0)
                let owner: UInt32 = 1000
                let reader: UInt32 = 65534

                let demo = try runCLI(["--output", "shared/app.actionlog"], in: directory, asUser: owner, program: .demo)
                try #require(demo.status == 0, "\(demo.stderr)")
                #expect(permissions("shared/app.actionlog", in: directory) == 0o600, "private unless its owner shares it")
                #expect(chmod(shared.appendingPathComponent("app.actionlog").path, 0o644) == 0)
                // The same journal as an older ActionLog left it: in WAL mode, without its log.
                try FileManager.default.copyItem(at: shared.appendingPathComponent("app.actionlog"), to: shared.appendingPathComponent("old.actionlog"))
                try runSQLite("PRAGMA journal_mode = WAL", on: "shared/old.actionlog", in: directory)
                #expect(chown(shared.appendingPathComponent("old.actionlog").path, owner, owner) == 0)
                let files = fileNames(in: shared)
                #expect(files == ["app.actionlog", "old.actionlog"])

                for file in files {
                    #expect(try runReaders(on: "shared/\(file)", in: directory, as: reader) == [], "\(file)")
                }
                #expect(fileNames(in: shared) == files, "the reader left nothing behind")
                for file in files {
                    let again = try runCLI(["--output", "shared/\(file)"], in: directory, asUser: owner, program: .demo)
                    #expect(again.status == 0, "the owner records into \(file) again: \(again.stderr)")
                }
                let sessions = try runCLI(["sessions", "shared/old.actionlog"], in: directory, asUser: reader)
                #expect(sessions.status == 0)
                #expect(lines(sessions.stdout).count == 9, "\(sessions.stdout)")
            }
            return
        }
        print("Skipped: cannot run a child as another user here: \(reason)")
    }

    @Test("a session lock another user's recorder holds cannot be tested, so that user's session reads as recording")
    func anotherUsersLock() throws {
        guard let reason = otherUsersUnavailable() else {
            try withTemporaryDirectory { directory in
                #expect(chmod(directory.path, 0o755) == 0)
                try runDemo(in: directory)
                #expect(chmod(directory.appendingPathComponent("demo.actionlog").path, 0o644) == 0)
                try runSQLite("UPDATE sessions SET status = 'recording', ended_at = NULL WHERE id = 2", on: "demo.actionlog", in: directory)
                // A lock file as a recorder creates it (private), which no process holds: only its owner can tell.
                let lock = directory.appendingPathComponent("demo.actionlog-lock-2").path
                #expect(FileManager.default.createFile(atPath: lock, contents: nil, attributes: [.posixPermissions: 0o600]))
                let statuses = { (result: (status: Int32, stdout: String, stderr: String)) throws -> [String?] in
                    try jsonObjects(result.stdout).map { $0["status"] as? String }
                }
                #expect(try statuses(runCLI(["sessions", "demo.actionlog", "--json"], in: directory)) == ["closed", "interrupted", "closed", "closed"])
                #expect(try statuses(runCLI(["sessions", "demo.actionlog", "--json"], in: directory, asUser: 65534)) == ["closed", "recording", "closed", "closed"])
            }
            return
        }
        print("Skipped: cannot run a child as another user here: \(reason)")
    }

    @Test("copy makes a self-contained private copy, refuses an existing file without --force and the journal itself")
    func copyCommand() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let first = try withUmask(0o022) { try runCLI(["copy", "demo.actionlog", "copy.actionlog"], in: directory) }
            #expect(first.status == 0)
            #expect(first.stdout == "Copied demo.actionlog to copy.actionlog (4 sessions, 50 entries).\n")
            #expect(first.stderr == "")
            #expect(permissions("copy.actionlog", in: directory) == 0o600)
            #expect(try runCLI(["verify", "copy.actionlog"], in: directory).stdout == "copy.actionlog: 4 sessions, 50 entries: OK\n")

            let exists = try runCLI(["copy", "demo.actionlog", "copy.actionlog"], in: directory)
            #expect(exists.status == 64)
            #expect(exists.stdout == "")
            #expect(exists.stderr == "error: copy.actionlog: the file exists; pass --force to replace it\n")

            let itself = try runCLI(["copy", "demo.actionlog", "./demo.actionlog", "--force"], in: directory)
            #expect(itself.status == 64)
            #expect(itself.stderr == "error: demo.actionlog: cannot copy to ./demo.actionlog: it is the journal being copied, or a file of it\n")

            try runDemo(in: directory)
            let forced = try runCLI(["copy", "demo.actionlog", "copy.actionlog", "--force"], in: directory)
            #expect(forced.status == 0)
            #expect(forced.stdout == "Copied demo.actionlog to copy.actionlog (8 sessions, 100 entries).\n")
            #expect(fileNames(in: directory) == ["copy.actionlog", "demo.actionlog"], "no temporary file is left")
        }
    }

    @Test("export, report and copy refuse to write a journal's -wal, -shm or -journal file, also before it exists, and the journal still reads",
          arguments: ["demo.actionlog-journal", "./demo.actionlog-wal", "../work/demo.actionlog-shm"])
    func companionNames(target: String) throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try runDemo(in: directory)
            let suffix = String(target.suffix(from: target.lastIndex(of: "-") ?? target.endIndex))
            let role = suffix == "-wal" ? "the write-ahead log of the journal being read"
                : suffix == "-shm" ? "the shared memory file of the journal being read" : "the rollback journal of the journal being read"
            let runs: [([String], String)] = [
                (["export", "demo.actionlog", "--session", "2", "--output", target, "--force"],
                 "error: --output \(target) is demo.actionlog\(suffix), \(role); export never writes over its input, even with --force\n"),
                (["report", "demo.actionlog", "--session", "2", "--output", target],
                 "error: \(target): the journal being read, or a file of it; --output needs another file\n"),
                (["copy", "demo.actionlog", target, "--force"],
                 "error: demo.actionlog: cannot copy to \(target): it is the journal being copied, or a file of it\n"),
            ]
            for (arguments, message) in runs {
                let result = try runCLI(arguments, in: directory)
                #expect(result.status == 64, "\(arguments)")
                #expect(result.stderr == message)
                #expect(fileNames(in: directory) == ["demo.actionlog"], "\(arguments)")
            }
            #expect(try runCLI(["verify", "demo.actionlog"], in: directory).stdout == "demo.actionlog: 4 sessions, 50 entries: OK\n")
        }
    }

    @Test("export --output and report write a private file under umask 022; report replaces one that was shared only with --force, leaving no other file")
    func privateExport() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let export = try withUmask(0o022) {
                try runCLI(["export", "demo.actionlog", "--session", "1", "--output", "city.jsonl"], in: directory)
            }
            #expect(export.status == 0, "\(export.stderr)")
            #expect(permissions("city.jsonl", in: directory) == 0o600)
            #expect(permissions("demo.actionlog", in: directory) == 0o600)

            #expect(FileManager.default.createFile(
                atPath: directory.appendingPathComponent("city.html").path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
            let refused = try runCLI(["report", "demo.actionlog", "--session", "1", "--output", "city.html"], in: directory)
            #expect(refused.status == 64)
            #expect(refused.stderr == "error: city.html: the file exists; pass --force to replace it\n")
            #expect(try String(contentsOf: directory.appendingPathComponent("city.html"), encoding: .utf8) == "old")
            let report = try withUmask(0o022) {
                try runCLI(["report", "demo.actionlog", "--session", "1", "--output", "city.html", "--force"], in: directory)
            }
            #expect(report.status == 0, "\(report.stderr)")
            #expect(permissions("city.html", in: directory) == 0o600)
            #expect(try String(contentsOf: directory.appendingPathComponent("city.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
            #expect(fileNames(in: directory) == ["city.html", "city.jsonl", "demo.actionlog"])
        }
    }
}
