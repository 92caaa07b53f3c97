import ActionLog
import ActionLogViewerPage
import Foundation

/// The viewer report a failed golden leaves behind when `ACTIONLOG_FAILURE_REPORTS` names a folder:
/// one HTML file (see ``ActionLogViewer/ViewerReport``) holding two sessions, `recorded` (the
/// golden as it is) and `replayed` (today's reducer driven through the golden's actions, as
/// re-recording would store it), opening at the diverging entry of the recorded one, with the
/// failure message above. Step both sessions to the same entry to compare the states side by side.
///
/// The file is `<golden name>.html` in that folder (created if missing), replaced by the next
/// failure of the same golden. A reducer golden's report holds both sessions; an asynchronous
/// golden's holds the recorded one (its replay records no session), opening at the divergence.
enum FailureReport {
    /// The environment variable that turns reports on: the folder to write them to.
    static let variable = "ACTIONLOG_FAILURE_REPORTS"

    /// Writes the report when `environment` asks for one; returns the line the failure message
    /// gains (`Report: /path/to/file.html`, or why none was written), or `nil` when none was asked.
    static func write<State: Codable, Action: Decodable, Effect: Encodable>(
        recorded: RecordedSession, replay: ReplayReport, golden: GoldenFile, options: ReplayOptions,
        environment: [String: String], reducer: (inout State, Action) -> Effect?
    ) -> String? {
        guard folder(in: environment) != nil else { return nil }
        // When today's reducer cannot go through the session (an action no longer decodes), the
        // report shows what was recorded.
        let replayed = try? Rerecording.rerecord(recorded, upcasters: options.upcasters, reducer: reducer).recording
        return write(recorded: recorded, replayed: replayed, replay: replay, golden: golden, environment: environment)
    }

    /// Writes the report of a golden whose replayed side is `replayed`, or of the recorded session
    /// alone when there is none: an asynchronous golden's replay does not record a session (its
    /// service answers come from the golden), so its report shows the golden at the diverging
    /// entry, with the failure message (and its diff) above.
    static func write(
        recorded: RecordedSession, replayed: RecordedSession?, replay: ReplayReport, golden: GoldenFile, environment: [String: String]
    ) -> String? {
        guard let folder = folder(in: environment) else { return nil }
        let name = golden.url.deletingPathExtension().lastPathComponent
        let path = URL(fileURLWithPath: folder).appendingPathComponent("\(name).html").path
        var sessions: [(id: String, recording: RecordedSession)] = [("recorded", renamed(recorded, "recorded"))]
        if let replayed { sessions.append(("replayed", renamed(replayed, "replayed"))) }
        let seq = replay.divergence?.seq ?? replay.failure?.entry ?? 0
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try ViewerReport.write(
                sessions: sessions, open: ("recorded", seq), message: "\(replay)", file: golden.url.lastPathComponent, to: path)
            return "Report: \(path)"
        } catch {
            return "Report: not written (\(error))"
        }
    }

    /// The folder `environment` names for reports, if any.
    private static func folder(in environment: [String: String]) -> String? {
        guard let folder = environment[variable], !folder.isEmpty else { return nil }
        return folder
    }

    /// The session with `(recorded)` or `(replayed)` after its name, so that the list tells them apart.
    private static func renamed(_ recording: RecordedSession, _ role: String) -> RecordedSession {
        var copy = recording
        copy.session.name = "\(recording.session.name) (\(role))"
        return copy
    }
}
