import Foundation
import Testing
@testable import ActionLog

/// What every command prints when its standard output is `/dev/full`.
private let fullOutputMessage = "error: cannot write to standard output: No space left on device\n"

/// A counter session of `entries` entries in text form: about 80 bytes a line.
private func counterJSONL(entries: Int) -> String {
    var text = #"{"actionlog":"session","format":1,"name":"big","status":"closed","startedAt":1000,"endedAt":1001,"libraryVersion":"0.1.0","stateType":"S","actionType":"A","dropped":0,"metadata":{}}"# + "\n"
    text += #"{"seq":0,"kind":"keyframe","time":1000,"state":{"n":0}}"# + "\n"
    for seq in 1..<entries {
        text += #"{"seq":\#(seq),"kind":"keyframe","label":"add","time":1000,"action":{"add":{"_0":"padding padding padding"}},"state":{"n":\#(seq)}}"# + "\n"
    }
    return text
}

/// Writes `big.jsonl` (20,000 entries, about 2 MB) and imports it into `big.actionlog`.
private func makeBigJournal(in directory: URL) throws {
    let text = directory.appendingPathComponent("big.jsonl")
    try counterJSONL(entries: 20_000).write(to: text, atomically: true, encoding: .utf8)
    try Journal.importJSONL(at: text, into: directory.appendingPathComponent("big.actionlog").path)
}

/// Whether `/dev/full` exists (Linux); the tests that write to it print why they are skipped without it.
private func hasDevFull(_ test: String) -> Bool {
    guard FileManager.default.fileExists(atPath: "/dev/full") else {
        print("Skipped \(test): this system has no /dev/full")
        return false
    }
    return true
}

/// Runs `script` with bash in `directory`, with `$CLI` the replay-cli binary; returns what it printed.
private func bash(_ script: String, in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
    let cli = try replayCLIBinary().path
    return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", "CLI=\"$0\"; \(script)", cli], in: directory)
}

@Suite("replay-cli tells output it cannot write")
struct OutputFailureTests {
    @Test("every command exits 1 and says so when standard output is /dev/full", arguments: [
        ["sessions", "demo.actionlog"], ["sessions", "demo.actionlog", "--json"],
        ["log", "demo.actionlog", "--session", "2"], ["log", "demo.actionlog", "--session", "2", "--json"],
        ["state", "demo.actionlog", "--session", "2"], ["diff", "demo.actionlog", "--session", "2", "0", "3"],
        ["diff", "demo.actionlog", "--session", "2", "0", "3", "--json"], ["verify", "demo.actionlog"],
        ["export", "demo.actionlog", "--session", "2"], ["export", "--output", "/dev/full", "demo.actionlog", "--session", "2"],
        ["--help"], ["--version"], ["help", "log"],
    ])
    func fullStandardOutput(arguments: [String]) throws {
        guard hasDevFull("\(#function)") else { return }
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(arguments, in: directory, standardOutputTo: "/dev/full")
            #expect(result.status == 1)
            let expected = arguments.contains("--output") ? "error: cannot write to /dev/full: No space left on device\n" : fullOutputMessage
            #expect(result.stderr == expected)
        }
    }

    @Test("import and demo do their work, then exit 1 when they cannot say so")
    func fullAfterWriting() throws {
        guard hasDevFull("\(#function)") else { return }
        try withTemporaryDirectory { directory in
            let demo = try runCLI([], in: directory, standardOutputTo: "/dev/full", program: .demo)
            #expect(demo.status == 1)
            #expect(demo.stderr == fullOutputMessage)
            #expect(try Journal(path: directory.appendingPathComponent("demo.actionlog").path).sessions().count == 4)

            try #require(try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "checkout.jsonl"], in: directory).status == 0)
            let imported = try runCLI(["import", "checkout.jsonl", "--into", "new.actionlog"], in: directory, standardOutputTo: "/dev/full")
            #expect(imported.status == 1)
            #expect(imported.stderr == fullOutputMessage)
            #expect(try Journal(path: directory.appendingPathComponent("new.actionlog").path).sessions().count == 1, "the import itself is kept")
        }
    }

    @Test("an error still reaches standard error when standard output is full")
    func errorWithFullOutput() throws {
        guard hasDevFull("\(#function)") else { return }
        try withTemporaryDirectory { directory in
            let result = try runCLI(["sessions", "nope.actionlog"], in: directory, standardOutputTo: "/dev/full")
            #expect(result.status == 64)
            #expect(result.stderr == "error: nope.actionlog: no such file (looked for nope.actionlog)\n")
        }
    }

    @Test("--output /dev/full leaves the device as it was, and --output /dev/null needs no --force")
    func outputToDevices() throws {
        guard hasDevFull("\(#function)") else { return }
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let full = try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "/dev/full", "--force"], in: directory)
            #expect(full.status == 1)
            #expect(full.stderr == "error: cannot write to /dev/full: No space left on device\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/full")
            #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial, "a device is written to, never replaced")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") } == [], "no temporary file left")

            let null = try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "/dev/null"], in: directory)
            #expect(null.status == 0)
            #expect(null.stderr == "")
        }
    }

    @Test("a closed pipe ends the command quietly, by SIGPIPE, as it ends git")
    func closedPipe() throws {
        try withTemporaryDirectory { directory in
            try makeBigJournal(in: directory)
            for command in ["log big.actionlog --session 1", "log big.actionlog --session 1 --json", "export big.actionlog"] {
                let result = try bash(#"$CLI \#(command) 2>stderr.txt | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"; cat stderr.txt"#, in: directory)
                #expect(result.stdout == "141\n", "\(command): terminated by SIGPIPE (128 + 13), nothing on standard error")
            }
            // Also when the parent left SIGPIPE ignored: the CLI restores its default action.
            let ignoring = try bash(#"trap "" PIPE; $CLI log big.actionlog --session 1 2>stderr.txt | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"; cat stderr.txt"#, in: directory)
            #expect(ignoring.stdout == "141\n")
        }
    }
}

// MARK: - A full disk

/// Mounts a 256 KiB tmpfs at `directory/small` for `body`, then unmounts it. Returns `false`, after
/// printing why, when it cannot be mounted (not root, no tmpfs, a container without the capability).
private func withSmallDisk(in directory: URL, _ body: (URL) throws -> Void) throws -> Bool {
    let mountPoint = directory.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
    guard FileManager.default.isExecutableFile(atPath: "/bin/mount") else {
        print("Skipped the full-disk test: no /bin/mount")
        return false
    }
    let mount = try runProcess(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path], in: directory)
    guard mount.status == 0 else {
        print("Skipped the full-disk test: cannot mount a small tmpfs (mount exited \(mount.status): \(mount.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
        return false
    }
    defer { _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), [mountPoint.path], in: directory) }
    try body(mountPoint)
    return true
}

@Suite("replay-cli on a full disk")
struct FullDiskTests {
    @Test("export to a full disk fails with a message, leaves no partial file, and keeps the file it would replace")
    func exportToFullDisk() throws {
        try withTemporaryDirectory { directory in
            try makeBigJournal(in: directory)
            _ = try withSmallDisk(in: directory) { small in
                let fresh = try runCLI(["export", "big.actionlog", "--output", "small/big.jsonl"], in: directory)
                #expect(fresh.status == 1)
                #expect(fresh.stderr == "error: cannot write to small/big.jsonl: No space left on device\n")
                #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == [], "no partial file, no temporary file")

                try "kept\n".write(to: small.appendingPathComponent("old.jsonl"), atomically: false, encoding: .utf8)
                let replacing = try runCLI(["export", "big.actionlog", "--output", "small/old.jsonl", "--force"], in: directory)
                #expect(replacing.status == 1)
                #expect(replacing.stderr == "error: cannot write to small/old.jsonl: No space left on device\n")
                #expect(try String(contentsOf: small.appendingPathComponent("old.jsonl"), encoding: .utf8) == "kept\n")
                #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["old.jsonl"])
            }
        }
    }

    @Test("import into a new journal on a full disk fails with a message and leaves no journal behind")
    func importToFullDisk() throws {
        try withTemporaryDirectory { directory in
            try makeBigJournal(in: directory)
            _ = try withSmallDisk(in: directory) { small in
                let result = try runCLI(["import", "big.jsonl", "--into", "small/new.actionlog"], in: directory)
                #expect(result.status == 1)
                #expect(result.stdout == "")
                // The import is one transaction that fits in SQLite's page cache: the disk fills when it commits.
                #expect(result.stderr == "error: new.actionlog: SQLite error 13: database or disk is full — while executing COMMIT\n")
                #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == [], "no 0-byte or half journal")
            }
        }
    }
}

// MARK: - The file being read

@Suite("export --output never writes over the file it reads")
struct OutputIsInputTests {
    @Test("the same journal by another path, a symbolic link or a hard link is refused, even with --force", arguments: [
        ("./demo.actionlog", "--output ./demo.actionlog is demo.actionlog, the journal being read"),
        ("link.actionlog", "--output link.actionlog is demo.actionlog, the journal being read"),
        ("hard.actionlog", "--output hard.actionlog is demo.actionlog, the journal being read"),
        ("sub/../demo.actionlog", "--output sub/../demo.actionlog is demo.actionlog, the journal being read"),
        ("demo.actionlog-wal", "--output demo.actionlog-wal is demo.actionlog-wal, the write-ahead log of the journal being read"),
    ])
    func sameJournal(output: String, message: String) throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let journal = directory.appendingPathComponent("demo.actionlog")
            // A live recorder keeps the journal in WAL mode, with its write-ahead log beside it.
            let live = try Recorder<Int, Int, Never>(path: journal.path, sessionName: "live", initialState: 0)
            defer { live.close() }
            live.record(action: 1, state: 1)
            live.flush()
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.actionlog").path, withDestinationPath: "demo.actionlog")
            try FileManager.default.linkItem(at: journal, to: directory.appendingPathComponent("hard.actionlog"))
            let before = try Data(contentsOf: journal)
            let wal = directory.appendingPathComponent("demo.actionlog-wal")
            try #require(FileManager.default.fileExists(atPath: wal.path), "a live journal has its write-ahead log")
            let walBefore = try Data(contentsOf: wal)

            let result = try runCLI(["export", "demo.actionlog", "--session", "2", "--output", output, "--force"], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(result.stderr == "error: \(message); export never writes over its input, even with --force\n")
            #expect(try Data(contentsOf: journal) == before)
            #expect(try Data(contentsOf: wal) == walBefore)
            #expect(try Journal(path: journal.path).sessions().count == 5)
        }
    }

    @Test("a text file exported onto itself is refused too")
    func sameTextFile() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try #require(try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "checkout.jsonl"], in: directory).status == 0)
            let before = try Data(contentsOf: directory.appendingPathComponent("checkout.jsonl"))
            let result = try runCLI(["export", "checkout.jsonl", "--output", "checkout.jsonl", "--force"], in: directory)
            #expect(result.status == 64)
            #expect(result.stderr == "error: --output checkout.jsonl is checkout.jsonl, the file being read; export never writes over its input, even with --force\n")
            #expect(try Data(contentsOf: directory.appendingPathComponent("checkout.jsonl")) == before)
        }
    }

    @Test("a directory as --output is a usage error")
    func directoryOutput() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["export", "demo.actionlog", "--session", "2", "--output", "."], in: directory)
            #expect(result.status == 64)
            #expect(result.stderr == "error: .: a directory; --output needs a file\n")
        }
    }
}
