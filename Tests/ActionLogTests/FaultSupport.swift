import Foundation
@testable import ActionLog

#if canImport(Glibc)
import Glibc
#endif

/// Where a fault test's journal lives, and how the test makes the disk fail under it.
///
/// Where the machine allows it (Linux, as root — a container's root will do), the faults are real:
/// a tmpfs of a few hundred KiB mounted for the test, filled with a file to make the disk full, and,
/// for a file that turns read-only, a small ext4 image on a loop device whose file system is made to
/// abort (`mount -o remount,abort`: every write fails with EROFS from then on, open files included).
/// Elsewhere, or when `ACTIONLOG_FAULT_SEAM=1` asks for it, the writer's fault seam (``WriteFaults``)
/// fails its transactions the same way, and the test says so on standard error.
protocol FaultyDisk: AnyObject {
    /// A folder on the disk.
    var directory: String { get }
    /// What makes the faults, for the test's output.
    var kind: String { get }
    /// Leaves no room on the disk.
    func fill() throws
    /// Gives the room back.
    func free() throws
    /// Makes every write fail from now on.
    func makeReadOnly() throws
    /// Sets what a recorder on this disk needs (the seam, when there is one).
    func configure(_ configuration: inout RecorderConfiguration)
}

extension FaultyDisk {
    func path(_ name: String) -> String { directory + "/" + name }
}

struct FaultSetupError: Error, CustomStringConvertible {
    let description: String
}

/// Whether `ACTIONLOG_FAULT_SEAM` asks for the seam even where real faults can be made.
private var seamForced: Bool {
    ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment["ACTIONLOG_FAULT_SEAM"]?.lowercased() ?? "")
}

/// A disk that can be filled: a real tmpfs when one can be mounted, else the seam.
func makeFillableDisk(in parent: TemporaryDirectory, bytes: Int) -> any FaultyDisk {
    if seamForced { return SeamDisk(in: parent) }
    do {
        return try SmallTmpfs(in: parent, bytes: bytes)
    } catch {
        FileHandle.standardError.write(Data("fault tests: no tmpfs (\(error)); the writer's fault seam makes the disk full instead\n".utf8))
        return SeamDisk(in: parent)
    }
}

/// A disk that can turn read-only: an aborted ext4 image when one can be mounted, else the seam.
func makeAbortableDisk(in parent: TemporaryDirectory) -> any FaultyDisk {
    if seamForced { return SeamDisk(in: parent) }
    do {
        return try LoopExt4(in: parent)
    } catch {
        FileHandle.standardError.write(Data("fault tests: no ext4 loop mount (\(error)); the writer's fault seam makes the file read-only instead\n".utf8))
        return SeamDisk(in: parent)
    }
}

// MARK: - tmpfs

/// A tmpfs of `bytes`, mounted on a fresh folder; unmounted when the value goes away.
final class SmallTmpfs: FaultyDisk {
    let directory: String
    var kind: String { "tmpfs" }
    private var filler: String { directory + "/filler" }

    init(in parent: TemporaryDirectory, bytes: Int) throws {
        #if os(Linux)
        directory = parent.path("tmpfs")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard mount("tmpfs", directory, "tmpfs", 0, "size=\(bytes)") == 0 else {
            throw FaultSetupError(description: "mount -t tmpfs: \(String(cString: strerror(errno)))")
        }
        #else
        throw FaultSetupError(description: "mounting a tmpfs needs Linux")
        #endif
    }

    deinit {
        #if os(Linux)
        umount2(directory, Int32(MNT_DETACH))
        #endif
    }

    func fill() throws {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw FaultSetupError(description: "cannot create \(filler): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x5A, count: 1024)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw FaultSetupError(description: "filling \(filler): \(String(cString: strerror(errno)))") }
    }

    func free() throws {
        guard unlink(filler) == 0 else { throw FaultSetupError(description: "cannot remove \(filler): \(String(cString: strerror(errno)))") }
    }

    func makeReadOnly() throws {
        throw FaultSetupError(description: "a tmpfs cannot turn read-only under an open file; use makeAbortableDisk")
    }

    func configure(_ configuration: inout RecorderConfiguration) {}
}

// MARK: - ext4 on a loop device

/// A 4 MiB ext4 image mounted through a loop device; its file system can be made to abort.
final class LoopExt4: FaultyDisk {
    let directory: String
    var kind: String { "ext4 on a loop device" }
    private let image: String

    init(in parent: TemporaryDirectory) throws {
        #if os(Linux)
        image = parent.path("ext4.img")
        directory = parent.path("ext4")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image, contents: nil), truncate(image, 4 << 20) == 0 else {
            throw FaultSetupError(description: "cannot create \(image)")
        }
        try Self.run("/usr/sbin/mkfs.ext4", "-q", "-F", image)
        try Self.run("/usr/bin/mount", "-o", "loop", image, directory)
        #else
        throw FaultSetupError(description: "a loop mount needs Linux")
        #endif
    }

    deinit {
        // The loop device goes with the mount (it was set up with autoclear).
        try? Self.run("/usr/bin/umount", directory)
    }

    func fill() throws { throw FaultSetupError(description: "use makeFillableDisk") }
    func free() throws { throw FaultSetupError(description: "use makeFillableDisk") }

    func makeReadOnly() throws {
        try Self.run("/usr/bin/mount", "-o", "remount,abort", directory)
    }

    func configure(_ configuration: inout RecorderConfiguration) {}

    private static func run(_ executable: String, _ arguments: String...) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw FaultSetupError(description: "\(executable) not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FaultSetupError(description: "\(([executable] + arguments).joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }
}

// MARK: - The seam

/// No file system of its own: the writer's fault seam fails its transactions.
final class SeamDisk: FaultyDisk {
    let directory: String
    var kind: String { "the writer's fault seam" }
    let faults = WriteFaults()

    init(in parent: TemporaryDirectory) {
        directory = parent.url.path
    }

    func fill() throws { faults.set(.diskFull) }
    func free() throws { faults.set(nil) }
    func makeReadOnly() throws { faults.set(.readOnly) }
    func configure(_ configuration: inout RecorderConfiguration) { configuration.writeFaults = faults }
}
