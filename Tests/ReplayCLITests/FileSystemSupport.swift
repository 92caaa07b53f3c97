import Foundation

// MARK: - Other users

/// The tool that runs a child as another user.
private let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// Why this process cannot run `replay-cli` as another user, or `nil` when it can: it must be root,
/// have `setpriv`, and the binary must be reachable by an unprivileged user.
func otherUsersUnavailable() -> String? {
    guard getuid() == 0 else { return "not running as root" }
    guard setpriv != nil else { return "no setpriv command" }
    do {
        let result = try runCLI(["--version"], in: FileManager.default.temporaryDirectory, asUser: 65534)
        return result.status == 0 ? nil : "replay-cli does not run as user 65534: \(result.stderr)"
    } catch {
        return "\(error)"
    }
}

/// Runs `program` (`replay-cli` unless told otherwise) as user and group `user` (through `setpriv`,
/// with no other groups).
func runCLI(
    _ arguments: [String], in directory: URL, asUser user: UInt32, program: Program = .replayCLI
) throws -> (status: Int32, stdout: String, stderr: String) {
    guard let setpriv else { throw CLITestError(description: "no setpriv command to run \(program.rawValue) as user \(user)") }
    let prefix = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", try program.binary().path]
    return try runProcess(URL(fileURLWithPath: setpriv), prefix + arguments, in: directory)
}

// MARK: - Modes

/// Runs `body` with the process's umask (which children inherit) set to `mask`, then restores it.
func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
    let previous = umask(mask)
    defer { umask(previous) }
    return try body()
}

// MARK: - Read-only file systems

/// A tmpfs mounted on a fresh directory, to be made read-only once the files are in place. Mounting
/// needs privileges: ``make()`` says why it could not.
final class ScratchMount {
    let url: URL

    private init(url: URL) {
        self.url = url
    }

    /// Mounts a new tmpfs, or returns why it cannot.
    static func make() -> Result<ScratchMount, CLITestError> {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayCLIMount-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try run("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", url.path])
            return .success(ScratchMount(url: url))
        } catch {
            try? FileManager.default.removeItem(at: url)
            return .failure(CLITestError(description: "\(error)"))
        }
    }

    /// Makes the whole file system read-only: no process can create or change a file in it.
    func remountReadOnly() throws {
        try Self.run("mount", ["-o", "remount,ro", url.path])
    }

    deinit {
        // Lazily, should a file in it still be open.
        _ = try? Self.run("umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let candidates = ["/usr/bin/\(tool)", "/bin/\(tool)", "/usr/sbin/\(tool)", "/sbin/\(tool)"]
        guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLITestError(description: "no \(tool) command (looked in \(candidates.joined(separator: ", ")))")
        }
        let result = try runProcess(URL(fileURLWithPath: executable), arguments, in: FileManager.default.temporaryDirectory)
        guard result.status == 0 else {
            throw CLITestError(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }
}
