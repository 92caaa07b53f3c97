import ActionLog
import ArgumentParser
import Foundation

/// `replay-cli export FILE --session ID [--format jsonl] [--output PATH]`: a session as reviewable text.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a session as text (JSONL): a header line, then one line per entry.",
        discussion: """
            `replay-cli import` reads the text back: export, import and export again give the same bytes. \
            FILE may be a .jsonl file too, which writes it in normal form.
            """
    )

    /// The text forms `export` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case jsonl
    }

    @OptionGroup var source: SessionFileOptions

    @Option(help: "The text format.")
    var format = Format.jsonl

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func run() throws {
        guard let output else {
            try source.exportJSONL(to: FileHandle.standardOutput)
            return
        }
        if !force, FileManager.default.fileExists(atPath: output) {
            Terminal.printError("\(output): the file exists; pass --force to replace it")
            throw ExitCode(64)
        }
        // Written beside the target and renamed over it at the end: a failed export leaves no half file.
        let target = URL(fileURLWithPath: output)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(getpid()).tmp")
        // Mode 0600 whatever the umask, as every file holding recorded data (see PrivateFile). A file of
        // that name can only be left by an earlier process of the same id, which died: it goes.
        try? FileManager.default.removeItem(at: temporary)
        guard let descriptor = try? PrivateFile.create(atPath: temporary.path) else {
            Terminal.printError("\(output): cannot write the file")
            throw ExitCode.failure
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            defer { try? handle.close() }
            try source.exportJSONL(to: handle)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            Terminal.printError("\(output): cannot write the file: \(reason)")
            throw ExitCode.failure
        }
    }
}
