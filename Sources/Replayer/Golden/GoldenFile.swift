import ActionLog
import Foundation

/// A golden on disk: a JSONL text file (`.jsonl` in any case, the form to review in `git diff`) or a
/// journal (`.actionlog`, any other extension).
struct GoldenFile {
    /// The file.
    let url: URL
    /// How messages name it: the path as the test wrote it.
    let displayPath: String

    var isText: Bool { RecordedSession.isTextFormPath(url.path) }
    var exists: Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Resolves `path` for a test in `testFile`: an absolute path is used as is. A relative path is
    /// resolved against the nearest directory, from the test file's own upwards, that holds its first
    /// component, so `fixtures/checkout.jsonl` finds the package's `fixtures/` from any test folder;
    /// when none does, against the test file's directory.
    init(path: String, testFile: String) {
        displayPath = path
        if path.hasPrefix("/") {
            url = URL(fileURLWithPath: path)
            return
        }
        let start = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        let first = path.split(separator: "/").first.map(String.init) ?? path
        var directory = start
        while true {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(first).path) {
                url = directory.appendingPathComponent(path)
                return
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        url = start.appendingPathComponent(path)
    }

    /// Reads the golden's session: the only one, or the newest named `session`.
    func read(sessionName name: String?) throws -> RecordedSession {
        if isText {
            let recorded = try RecordedSession(contentsOfJSONL: url)
            if let name, recorded.session.name != name {
                throw ReplayError(.sessionNotFound, file: displayPath, "\(displayPath) holds session \"\(recorded.session.name)\", not \"\(name)\"")
            }
            return recorded
        }
        let journal = try Journal(url: url)
        let sessions = try journal.sessions()
        let chosen: JournalSession?
        if let name {
            chosen = sessions.last { $0.name == name }
            guard let chosen else {
                throw ReplayError(.sessionNotFound, file: displayPath, "\(displayPath) holds no session named \"\(name)\" (it holds \(sessions.quotedNames()))")
            }
            return try journal.recordedSession(chosen.id)
        }
        guard sessions.count == 1 else {
            throw ReplayError(.sessionNotFound, file: displayPath, "\(displayPath) holds \(sessions.count) sessions; pass sessionName: to name the one to replay")
        }
        return try journal.recordedSession(sessions[0].id)
    }

    /// Writes `recorded` as the golden, replacing the file in one step: a crash leaves the old
    /// golden or the new one, never half of one. A journal golden is rewritten with this one session.
    ///
    /// A golden carries no stored uuid: it is a fixture re-recorded at will, from a new live session
    /// each time, so its id is the one derived from its header, and its first line changes only
    /// when what it says of the session does.
    func write(_ recorded: RecordedSession) throws {
        var recorded = recorded
        recorded.session.storedUUID = nil
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if isText {
            try Data(recorded.jsonl().utf8).write(to: url, options: .atomic)
            return
        }
        let scratch = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let staging = scratch.appendingPathExtension("staging")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch.path + suffix) }
            try? FileManager.default.removeItem(at: staging)
        }
        do {
            let journal = try Journal(url: scratch, mode: .readWrite)
            _ = try journal.insert(recorded)
            try journal.copy(to: staging.path)
        }
        // rename(2) replaces the destination atomically.
        guard rename(staging.path, url.path) == 0 else {
            throw ReplayError(.writeFailed, file: displayPath, "cannot replace \(displayPath): \(String(cString: strerror(errno)))")
        }
    }
}
