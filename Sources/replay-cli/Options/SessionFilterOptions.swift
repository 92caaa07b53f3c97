import ActionLog
import ActionLogPostgres
import ActionLogViewer
import ArgumentParser
import CommandLineSupport
import Foundation

/// `sessions`' filters: what a team looks for among many sessions. In a journal they are checked
/// session by session (`--label` reads the session's labels, without its states); for a team store
/// they are part of the query, so only the sessions kept are read.
struct SessionFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only sessions of this app version (exactly).", valueName: "version"))
    var appVersion: String?

    @Option(help: ArgumentHelp("Only sessions started at or after this time (ISO 8601: 2026-11-28 or 2026-11-28T14:00:00Z).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only sessions started before this time (ISO 8601).", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Only sessions whose name matches this pattern (* any run of characters, ? one).", valueName: "pattern"))
    var name: String?

    @Option(help: ArgumentHelp("Only sessions with an entry whose label matches this pattern (* any run of characters, ? one).", valueName: "pattern"))
    var label: String?

    @Flag(help: "Only sessions that lost actions (a gap: the writer dropped some).")
    var hasGaps = false

    func validate() throws {
        _ = try filter()
        for (pattern, option) in [(name, "--name"), (label, "--label")] {
            guard let pattern else { continue }
            do { _ = try LabelPattern(pattern) } catch { throw ValidationError("\(option): \(error.description)") }
        }
    }

    /// The filter, its times read.
    func filter() throws -> SessionFilter {
        var filter = SessionFilter()
        filter.appVersion = appVersion
        filter.since = try since.map { try Self.time($0, option: "--since") }
        filter.until = try until.map { try Self.time($0, option: "--until") }
        filter.name = name
        filter.label = label
        filter.hasGaps = hasGaps ? true : nil
        return filter
    }

    /// Whether `session` of `journal` passes the filter.
    func keeps(_ session: JournalSession, in journal: Journal) throws -> Bool {
        let filter = try filter()
        if let version = filter.appVersion, session.appVersion != version { return false }
        if let since = filter.since, session.startedAt < since { return false }
        if let until = filter.until, session.startedAt >= until { return false }
        if let name, !(try LabelPattern(name)).matches(session.name) { return false }
        if hasGaps, session.droppedCount == 0 { return false }
        if let label {
            let pattern = try LabelPattern(label)
            var cursor = try reportingErrors { () throws(ActionLogError) in try journal.timelineCursor(in: session.id) }
            // Labels only: an entry is parsed only when its label matches (and then it is kept).
            while let entry = try reportingErrors({ () throws(ActionLogError) in
                try cursor.next { _, label in label.map(pattern.matches) ?? false }
            }) {
                if case .kept = entry { return true }
            }
            return false
        }
        return true
    }

    /// An ISO 8601 time or date (a date is its midnight UTC).
    static func time(_ text: String, option: String) throws -> Date {
        let full = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard let date = full.date(from: text) ?? fractional.date(from: text) ?? day.date(from: text) else {
            throw ValidationError("\(option): \"\(text)\" is not an ISO 8601 time (2026-11-28, or 2026-11-28T14:00:00Z)")
        }
        return date
    }
}
