import ActionLog
import ArgumentParser
import CommandLineSupport
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `replay-cli export FILE --session ID [--format jsonl] [--output PATH]`: a session as reviewable text.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a session as text (JSONL): a header line, then one line per entry.",
        discussion: """
            `replay-cli import` reads the text back: export, import and export again give the same bytes. \
            FILE may be a .jsonl file too, which writes it in normal form. --output never writes over the \
            file being read (the same file by device and inode, whatever the path), even with --force. \
            When standard error is a terminal and the text goes elsewhere, a long export shows how many \
            entries it has written on standard error.

            Examples:
              replay-cli export app.actionlog --session checkout --output checkout.jsonl
              replay-cli export app.actionlog --session 3 | jq -c '.label'
              replay-cli export edited.jsonl --output normal.jsonl --force
            """
    )

    /// The text forms `export` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case jsonl
    }

    @OptionGroup var source: SessionFileOptions

    @Option(help: ArgumentHelp("The text format.", valueName: "format"))
    var format = Format.jsonl

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"), completion: .file())
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if let output { try refuseEmptyPath(output, "--output") }
    }

    func run() throws {
        guard let output else {
            // Text going to a terminal shows its own progress; a line drawn over it would garble it.
            try source.exportJSONL(showingProgress: !Terminal.isInteractive, write: OutputTarget.standardOutput.write)
            return
        }
        try refuseInputByName(output)
        var existing = stat()
        if stat(output, &existing) == 0 { try refuseInput(existing) }
        if try OutputFile.refuseReplacing(output, force: force, option: "--output") {
            // A device or a pipe (/dev/stdout, /dev/null, a FIFO): written to, never replaced.
            try writeDirectly(to: output)
            return
        }
        try writeReplacing(output)
    }

    /// Refuses an `--output` that is the file being read (or one of a journal's companion files),
    /// compared by device and inode, so another path, a symbolic link or a hard link to it is caught.
    private func refuseInput(_ target: stat) throws {
        for (path, role) in source.filesRead {
            var read = stat()
            guard stat(path, &read) == 0, read.st_dev == target.st_dev, read.st_ino == target.st_ino else { continue }
            Terminal.printError(
                "--output \(output?.displayEscaped ?? "") is \(path.displayEscaped), \(role); export never writes over its input, even with --force"
            )
            throw ExitCode(64)
        }
    }

    /// Refuses an `--output` that names a journal's companion file that does not exist yet
    /// (`-wal`, `-shm`, `-journal`): SQLite would take what export writes there for the journal's own.
    private func refuseInputByName(_ output: String) throws {
        guard !source.isTextForm, JournalFile.names(output, fileOf: source.file) else { return }
        let suffix = JournalFile.companionSuffixes.first { output.hasSuffix($0) } ?? ""
        let (path, role) = source.filesRead.first { $0.path == source.file + suffix } ?? source.filesRead[0]
        Terminal.printError("--output \(output.displayEscaped) is \(path.displayEscaped), \(role); export never writes over its input, even with --force")
        throw ExitCode(64)
    }

    /// Writes to a device or a pipe as it is: there is no file to replace.
    private func writeDirectly(to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        let target = OutputTarget(descriptor: descriptor, name: path)
        guard descriptor >= 0 else { throw target.failure(errno) }
        defer { close(descriptor) }
        try source.exportJSONL(write: target.write)
    }

    /// Writes beside the target and renames over it at the end: a failed export (a full disk, a
    /// damaged entry) leaves no half file, and an existing file stays as it was.
    private func writeReplacing(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        // Mode 0600 whatever the umask, as every file holding recorded data (see PrivateFile). A file of
        // that name can only be left by an earlier process of the same id, which died: it goes.
        unlink(temporary)
        let descriptor: Int32
        do {
            descriptor = try PrivateFile.create(atPath: temporary)
        } catch {
            throw OutputTarget(descriptor: -1, name: path).failure(error.errno)
        }
        let target = OutputTarget(descriptor: descriptor, name: path)
        var isOpen = true
        do {
            try source.exportJSONL(write: target.write)
            // A full disk may show only when the data reaches it, or when the file is closed.
            guard fsync(descriptor) == 0 else { throw target.failure(errno) }
            isOpen = false
            guard close(descriptor) == 0 else { throw target.failure(errno) }
            guard rename(temporary, path) == 0 else { throw target.failure(errno) }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }
}
