import Foundation
@testable import ActionLog

/// The names of the files in `directory`, sorted.
func fileNames(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// The permission bits of the file at `path` (`0o600`), or `nil` when there is no file.
func permissions(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_mode & 0o7777)
}

/// Runs `body` with the process's umask set to `mask`, then restores it.
func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
    let previous = umask(mask)
    defer { umask(previous) }
    return try body()
}

/// Whether the file's header says WAL mode (bytes 18 and 19 are 2) rather than a rollback journal.
func headerSaysWAL(_ path: String) throws -> Bool {
    let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
    return header.count == 20 && header[18] == 2 && header[19] == 2
}

/// Leaves `path` (a journal in rollback mode) in WAL mode with no `-wal` or `-shm` beside it, as an
/// older ActionLog left the journals it closed: a second connection keeps the writer from switching
/// it back when it closes, then the emptied log files are removed.
func leaveInWALModeWithoutLog(_ path: String) throws {
    var writer: Connection? = try Connection(path: path, mode: .readWrite)
    guard try writer?.scalarText("PRAGMA journal_mode = WAL") == "wal" else {
        throw SetupFailure(description: "SQLite refused WAL mode for \(path)")
    }
    let reader = try Connection(path: path, mode: .readOnly)
    _ = try reader.scalarInt("SELECT count(*) FROM sessions")
    writer = nil  // Checkpoints, and cannot switch back: the reader has the file open.
    for suffix in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: path + suffix) }
}

/// A tmpfs mounted on a fresh directory, to be made read-only once the files are in place. Mounting
/// needs privileges: ``make()`` says why it could not.
final class ScratchMount {
    let path: String

    private init(path: String) {
        self.path = path
    }

    /// Mounts a new tmpfs, or returns why it cannot.
    static func make() -> Result<ScratchMount, SetupFailure> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ActionLogMount-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try run(["-t", "tmpfs", "-o", "size=64m", "tmpfs", path])
            return .success(ScratchMount(path: path))
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            return .failure(SetupFailure(description: "\(error)"))
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Makes the whole file system read-only: no process can create or change a file in it.
    func remountReadOnly() throws {
        try Self.run(["-o", "remount,ro", path])
    }

    deinit {
        // Lazily, should a file in it still be open.
        _ = try? Self.run(["-l", path], tool: "umount")
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func run(_ arguments: [String], tool: String = "mount") throws {
        let candidates = ["/usr/bin/\(tool)", "/bin/\(tool)", "/usr/sbin/\(tool)", "/sbin/\(tool)"]
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw SetupFailure(description: "no \(tool) command (looked in \(candidates.joined(separator: ", ")))")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}

/// Something a test needs from the system that it could not get.
struct SetupFailure: Error, CustomStringConvertible {
    let description: String
}
