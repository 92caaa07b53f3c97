import ActionLog
import ActionLogViewer
import Foundation

/// The viewer report a failed golden leaves behind when `ACTIONLOG_FAILURE_REPORTS` names a folder:
/// one HTML file (see ``ActionLogViewer/ViewerReport``) holding two sessions, `recorded` (the
/// golden as it is) and `replayed` (today's reducer driven through the golden's actions, as
/// re-recording would store it), opening at the diverging entry of the recorded one, with the
/// failure message above. Step both sessions to the same entry to compare the states side by side.
///
/// The file is `<golden name>.html` in that folder (created if missing), replaced by the next
/// failure of the same golden. It is written for reducer goldens (`assertReplay(golden:reducer:)`).
enum FailureReport {
    /// The environment variable that turns reports on: the folder to write them to.
    static let variable = "ACTIONLOG_FAILURE_REPORTS"

    /// Writes the report when `environment` asks for one; returns the line the failure message
    /// gains (`Report: /path/to/file.html`, or why none was written), or `nil` when none was asked.
    static func write<State: Codable, Action: Decodable, Effect: Encodable>(
        recorded: RecordedSession, replay: ReplayReport, golden: GoldenFile, options: ReplayOptions,
        environment: [String: String], reducer: (inout State, Action) -> Effect?
    ) -> String? {
        guard let folder = environment[variable], !folder.isEmpty else { return nil }
        let name = golden.url.deletingPathExtension().lastPathComponent
        let path = URL(fileURLWithPath: folder).appendingPathComponent("\(name).html").path
        var sessions: [(id: String, recording: RecordedSession)] = [("recorded", renamed(recorded, "recorded"))]
        // When today's reducer cannot go through the session (an action no longer decodes), the
        // report shows what was recorded.
        if let replayed = try? Rerecording.rerecord(recorded, upcasters: options.upcasters, reducer: reducer) {
            sessions.append(("replayed", renamed(replayed.recording, "replayed")))
        }
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

    /// The session with `(recorded)` or `(replayed)` after its name, so that the list tells them apart.
    private static func renamed(_ recording: RecordedSession, _ role: String) -> RecordedSession {
        let session = recording.session
        var copy = recording
        copy.session = Session(
            id: session.id, name: "\(session.name) (\(role))", startedAt: session.startedAt, endedAt: session.endedAt,
            status: session.status, libraryVersion: session.libraryVersion, appVersion: session.appVersion,
            stateType: session.stateType, actionType: session.actionType, effectType: session.effectType,
            metadata: session.metadata, entryCount: session.entryCount, droppedCount: session.droppedCount,
            lastEntryAt: session.lastEntryAt)
        return copy
    }
}
