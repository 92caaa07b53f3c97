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
        let text = try source.recordedSession().jsonl()
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        if !force, FileManager.default.fileExists(atPath: output) {
            Terminal.printError("\(output): the file exists; pass --force to replace it")
            throw ExitCode(64)
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Terminal.printError("\(output): cannot write the file: \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}
