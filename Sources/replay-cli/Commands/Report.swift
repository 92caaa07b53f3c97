import ActionLog
import ActionLogViewer
import ArgumentParser
import CommandLineSupport
import Foundation

/// `replay-cli report FILE [--session ID] --output PATH [--force] [--max-bytes SIZE]`: the viewer as one HTML file.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a session as one self-contained HTML file: the viewer of `serve`, with the data inside.",
        discussion: """
            The file opens in any browser, from disk, and makes no request: the session's entries are \
            embedded as the journal stores them (keyframes and deltas), and the page rebuilds each state \
            as you step. It is about as large as the session's rows in the journal; a report over \
            --max-bytes of data (64MiB unless given; sizes as 800kB, 20MB, 1GiB) is refused, naming the \
            entry where it stopped. An existing --output is replaced only with --force, and never when \
            it is the journal itself.

            Examples:
              replay-cli report app.actionlog --session checkout --output checkout.html
              replay-cli report app.actionlog -s 3 -o s3.html --max-bytes 200MB --force
            """
    )

    @OptionGroup var source: SessionFileOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file to write.", valueName: "path"))
    var output: String

    @Flag(help: "Replace --output if it exists.")
    var force = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The most data to embed: bytes, or a size such as 800kB, 20MB or 1GiB.", valueName: "size"))
    var maxBytes = ByteSize(bytes: ViewerReport.defaultMaximumBytes, description: "64MiB")

    func validate() throws {
        try refuseEmptyPath(output, "--output")
        guard maxBytes.bytes > 0 else { throw ValidationError("--max-bytes must be 1 or more, not \(maxBytes)") }
    }

    func run() throws {
        // The page is written from the journal's path: a text form's temporary journal keeps its path.
        let (opened, session) = try source.open(keepingPath: true)
        if JournalFile.isFile(output, ofJournal: source.file) {
            let what = source.isTextForm ? "the file being read" : "the journal being read, or a file of it"
            Terminal.printError("\(output.displayEscaped): \(what); --output needs another file")
            throw ExitCode(64)
        }
        try OutputFile.refuseReplacing(output, force: force, option: "--output")
        let progress = ProgressLine("report", total: session.entryCount, unit: "entries")
        try reportingErrors { () throws(ActionLogError) in
            try ViewerReport.write(
                journalPath: opened.journal.path, session: session.id, to: output, maximumBytes: maxBytes.bytes, progress: progress.update)
        }
        progress.finish()
        let shown = opened.shownID(session).map { "session \($0)" } ?? opened.displayName(session)
        try BufferedOutput.print("Wrote \(output.displayEscaped): \(shown.displayEscaped) (\(session.entryCount) entries).")
    }
}
