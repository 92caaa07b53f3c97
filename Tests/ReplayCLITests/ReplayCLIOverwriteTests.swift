import Foundation
import Testing

@Suite("replay-cli: commands that write a file replace one only with --force")
struct OverwriteTests {
    /// Each command that writes a new file, with the path it writes given as `OUT`, and how its help names that path.
    private static let writers: [(arguments: [String], option: String)] = [
        (["export", "demo.actionlog", "--session", "2", "--output", "OUT"], "--output"),
        (["copy", "demo.actionlog", "OUT"], "DEST"),
        (["report", "demo.actionlog", "--session", "2", "--output", "OUT"], "--output"),
    ]

    private static func run(_ arguments: [String], out: String, force: Bool = false, in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try runCLI(arguments.map { $0 == "OUT" ? out : $0 } + (force ? ["--force"] : []), in: directory)
    }

    @Test("an existing file: the same refusal from export, copy and report, the file untouched; --force replaces it")
    func existingFile() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let out = directory.appendingPathComponent("out.file")
            for (arguments, _) in Self.writers {
                try Data("keep me\n".utf8).write(to: out)
                let refused = try Self.run(arguments, out: "out.file", in: directory)
                #expect(refused.status == 64, "\(arguments)")
                #expect(refused.stdout == "")
                #expect(refused.stderr == "error: out.file: the file exists; pass --force to replace it\n", "\(arguments)")
                #expect(try Data(contentsOf: out) == Data("keep me\n".utf8))

                let forced = try Self.run(arguments, out: "out.file", force: true, in: directory)
                #expect(forced.status == 0, "\(arguments): \(forced.stderr)")
                #expect(try Data(contentsOf: out) != Data("keep me\n".utf8), "\(arguments)")
            }
        }
    }

    @Test("a directory: the same refusal from export, copy and report, with or without --force")
    func directory() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder"), withIntermediateDirectories: false)
            for (arguments, option) in Self.writers {
                for force in [false, true] {
                    let refused = try Self.run(arguments, out: "folder", force: force, in: directory)
                    #expect(refused.status == 64, "\(arguments)")
                    #expect(refused.stderr == "error: folder: a directory; \(option) needs a file\n", "\(arguments)")
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("folder").path) == [])
        }
    }
}
