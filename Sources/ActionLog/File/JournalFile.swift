import CSQLite
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens journal files: tells a journal from other files, refuses newer schemas, creates and migrates.
package enum JournalFile {
    /// The name used in error messages: the file's last path component.
    package static func displayName(_ path: String) -> String {
        // An empty path would name the working directory.
        path.isEmpty ? #""""# : URL(fileURLWithPath: path).lastPathComponent
    }

    /// The suffixes of the files SQLite keeps beside a journal: its write-ahead log, its shared
    /// memory index, and a rollback journal.
    package static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Whether `candidate` names the journal at `journal` or one of its companion files, whether
    /// or not that file exists: compared by name, each path's directory resolved (symbolic links,
    /// `.` and `..`), and also against the journal's own resolved path. A file that exists is
    /// better compared by device and inode as well (``FileIdentity``), which also catches a hard link.
    package static func names(_ candidate: String, fileOf journal: String) -> Bool {
        let target = resolvedName(candidate)
        let bases = [resolvedName(journal), resolvedPath(journal)].compactMap { $0 }
        return bases.contains { base in ([""] + companionSuffixes).contains { target == base + $0 } }
    }

    /// Whether `candidate` is the journal at `journal` or one of its companion files: by name
    /// (``names(_:fileOf:)``, a file that need not exist yet) or by device and inode (another
    /// path, a link or a symbolic link to one that exists). What a command that writes refuses.
    package static func isFile(_ candidate: String, ofJournal journal: String) -> Bool {
        names(candidate, fileOf: journal) || FileIdentity.isFile(candidate, ofJournal: journal)
    }

    /// `path` with its directory resolved by `realpath(3)` and its last component kept: a file
    /// that need not exist yet, in a directory that does. `nil` when the directory does not resolve.
    private static func resolvedName(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let directory = resolvedPath(url.deletingLastPathComponent().path) else { return nil }
        return directory == "/" ? "/" + url.lastPathComponent : directory + "/" + url.lastPathComponent
    }

    /// `path` resolved by `realpath(3)`; `nil` when it does not exist.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Opens `path` as a journal.
    ///
    /// A reader (`.readOnly`) never creates or changes the file, and never creates a file beside it
    /// (see ``readerNeedsImmutable(path:file:)``). A writer creates a missing file with mode 0600
    /// (``PrivateFile``), creates the schema in a new or empty file, migrates an older one, and
    /// switches it to WAL.
    static func open(path: String, mode: Connection.Mode) throws(ActionLogError) -> Connection {
        let file = displayName(path)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue {
            throw ActionLogError(.notAJournal, file: file, reason: "a directory, not an ActionLog journal (\(path))")
        }
        if exists, let kind = specialFileKind(path) {
            // SQLite would wait on a pipe for ever, and read a device's bytes as a database.
            throw ActionLogError(.notAJournal, file: file, reason: "\(kind), not an ActionLog journal (\(path))")
        }
        if mode == .readOnly, !exists {
            throw ActionLogError(.fileNotFound, file: file, reason: path.isEmpty ? "no such file (the path is empty)" : "no such file (looked for \(path))")
        }
        if mode == .readWrite, !exists {
            do {
                // Created here, not by SQLite, so that its mode (which SQLite gives the `-wal` and
                // `-shm` files too) does not depend on the umask.
                try PrivateFile.createIfMissing(atPath: path)
            } catch {
                throw ActionLogError(.fileSystem, file: file, reason: error.description)
            }
        }
        let immutable = mode == .readOnly ? try readerNeedsImmutable(path: path, file: file) : false
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: mode, immutable: immutable)
        } catch {
            throw ActionLogError(.sqlite, file: file, reason: "cannot open \(path): \(error)", sqlite: error)
        }
        if mode == .readWrite, connection.isReadOnly {
            // Said now, in words, rather than as SQLite's "attempt to write a readonly database" at
            // the first statement that writes.
            throw ActionLogError(.fileSystem, file: file, reason: "cannot write \(path): this user may only read it (permission denied)")
        }
        do {
            let isNew = try check(connection, file: file)
            if mode == .readWrite {
                if isNew {
                    // Only a file with no page yet takes a page size; the constant is never input.
                    try connection.execute("PRAGMA page_size = \(Schema.pageSize)")
                }
                try connection.enableWriteAheadLog()
                try migrate(connection, file: file)
            }
        } catch let error as ActionLogError {
            throw error
        } catch let error as SQLiteError {
            throw wrap(error, file: file)
        } catch {
            throw ActionLogError(.sqlite, file: file, reason: "\(error)")
        }
        return connection
    }

    /// What the file at `path` is when it is not a regular file (after symbolic links): `a named
    /// pipe`, `a socket`, `a character device`, `a block device`; `nil` for a regular file, a
    /// directory (refused on its own) or a path `stat` cannot read (left to the open, which names it).
    package static func specialFileKind(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return nil
        }
    }

    // MARK: - Readers

    /// Whether a reader must open `path` with `immutable=1` so that SQLite creates no file beside it.
    ///
    /// - A file in rollback-journal mode (how a writer leaves a journal it closes alone, and every
    ///   copy): no. SQLite reads it under its ordinary locks and creates nothing.
    /// - A file in WAL mode with its `-wal` and `-shm` (a recorder is writing it, or one died): no.
    ///   SQLite reads the log through the existing `-shm`, read-only when this user may not write it
    ///   (`SQLITE_READONLY_CANTINIT` then makes SQLite build the index in private memory).
    /// - A file in WAL mode with no `-wal` (left by an older ActionLog or another tool): everything
    ///   committed is in the file, but SQLite would create `-wal` and `-shm` to read it, or fail on a
    ///   read-only directory. Yes: the file is read as it is, and ``GuardedConnection`` reopens it
    ///   normally as soon as a recorder has created its `-wal` and `-shm`.
    /// - A `-wal` without its `-shm`: refused. The log may hold committed entries, and SQLite would
    ///   have to create the `-shm`.
    ///
    /// See <https://www.sqlite.org/wal.html#readonly>.
    ///
    /// - Throws: ``ActionLogError`` with code ``ActionLogError/Code/fileSystem`` for a `-wal` without its `-shm`.
    static func readerNeedsImmutable(path: String, file: String) throws(ActionLogError) -> Bool {
        guard isInWALMode(path) else { return false }
        let manager = FileManager.default
        switch (manager.fileExists(atPath: path + "-wal"), manager.fileExists(atPath: path + "-shm")) {
        case (false, _):
            return true
        case (true, true):
            return false
        case (true, false):
            throw ActionLogError(
                .fileSystem, file: file,
                reason: "its write-ahead log \(displayName(path))-wal has no \(displayName(path))-shm beside it, and a reader creates no file; open the journal for writing once (a recorder, or Journal(path:mode: .readWrite)) to fold the log into the file"
            )
        }
    }

    /// Whether a WAL-mode file that was opened `immutable=1` now has a `-wal` and a `-shm`: a
    /// recorder has started on it, and a reader should open it again to read what it writes.
    static func walAppeared(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm")
    }

    /// Whether the database header says WAL mode (bytes 18 and 19, the file format versions, are 2).
    /// See <https://www.sqlite.org/fileformat2.html#database_header>. Anything unreadable is left to
    /// SQLite to report.
    private static func isInWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20,
            header.prefix(16).elementsEqual("SQLite format 3\0".utf8)
        else { return false }
        return header[header.startIndex + 18] == 2 || header[header.startIndex + 19] == 2
    }

    /// Turns an SQLite error into a journal error that names the file.
    static func wrap(_ error: SQLiteError, file: String, session: Int64? = nil, entry: Int? = nil) -> ActionLogError {
        switch error.code {
        case SQLITE_READONLY where unfinishedWriteCodes.contains(error.extendedCode):
            ActionLogError(.fileSystem, file: file, session: session, entry: entry, reason: unfinishedWriteReason(file, error.extendedCode), sqlite: error)
        case SQLITE_NOTADB:
            ActionLogError(.notADatabase, file: file, session: session, entry: entry, reason: "not an SQLite database, so not an ActionLog journal", sqlite: error)
        case SQLITE_BUSY, SQLITE_LOCKED:
            ActionLogError(.busy, file: file, session: session, entry: entry, reason: """
                another connection holds the journal locked, longer than this one waits for it \
                (SQLite error \(error.code): \(error.message)); try again once it lets go
                """, sqlite: error)
        case SQLITE_CORRUPT:
            ActionLogError(.corrupt, file: file, session: session, entry: entry, reason: "the database file is damaged: \(error)", sqlite: error)
        default:
            ActionLogError(.sqlite, file: file, session: session, entry: entry, reason: error.description, sqlite: error)
        }
    }

    /// `SQLITE_READONLY_ROLLBACK`: a read-only connection met a hot rollback journal, the change a
    /// writer made and did not finish, which only a connection that may write can roll back.
    package static let hotJournalCode = SQLITE_READONLY | (3 << 8)

    /// `SQLITE_READONLY_RECOVERY`: a read-only connection met a write-ahead log whose index (the
    /// `-shm`) a writer left half written, which only a connection that may write can rebuild.
    package static let walRecoveryCode = SQLITE_READONLY | (1 << 8)

    /// The codes of a change its writer did not finish (``hotJournalCode``, ``walRecoveryCode``):
    /// the journal reads again once a connection that may write has opened it.
    private static let unfinishedWriteCodes: Set<Int32> = [hotJournalCode, walRecoveryCode]

    /// Whether `error` is one of a change its writer did not finish (``unfinishedWriteCodes``).
    package static func isUnfinishedWrite(_ error: ActionLogError) -> Bool {
        error.sqliteCode.map { unfinishedWriteCodes.contains($0) } ?? false
    }

    /// What a reader says of a change its writer did not finish (a recorder or a command killed
    /// while it created the journal, switched it to or from WAL, wrote, pruned or vacuumed it): the
    /// file beside the journal that holds it, and the remedy.
    private static func unfinishedWriteReason(_ file: String, _ code: Int32) -> String {
        let held = code == hotJournalCode
            ? "\(file)-journal holds a change its writer did not finish (it stopped while writing), which a reader cannot roll back"
            : "\(file)-wal holds commits whose index its writer did not finish (it stopped while writing), which a reader cannot rebuild"
        return held + "; opening the journal to write does: `replay-cli vacuum \(file)`, or the next recorder"
    }

    // MARK: - Checks

    /// Checks that `connection` is a journal this library reads, or an empty file a writer may make
    /// one of. Returns whether the file is empty (new).
    private static func check(_ connection: Connection, file: String) throws -> Bool {
        // The first read of the header is where SQLite notices a file that is not a database.
        let applicationID = try connection.scalarInt("PRAGMA application_id") ?? 0
        let version = try connection.scalarInt("PRAGMA user_version") ?? 0
        if applicationID == Schema.applicationID {
            guard version <= Schema.currentVersion else {
                throw ActionLogError(
                    .newerSchema, file: file,
                    reason: "written with journal schema version \(version), but this ActionLog reads versions up to \(Schema.currentVersion); update ActionLog to read it"
                )
            }
            if connection.mode == .readOnly, version < Schema.oldestReadableVersion {
                throw ActionLogError(
                    .newerSchema, file: file,
                    reason: "journal schema version \(version) is older than \(Schema.oldestReadableVersion); open it once for writing to migrate it"
                )
            }
            if let problem = try Schema.shapeProblem(connection, version: version) {
                throw ActionLogError(.corrupt, file: file, reason: problem)
            }
            if connection.mode == .readWrite, let trigger = try Schema.triggers(connection).first {
                throw ActionLogError(.corrupt, file: file, reason: Self.triggerRefusal(trigger))
            }
            return false
        }
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").rows { $0.text(0) ?? "" }
        if applicationID == 0, version == 0, tables.isEmpty {
            guard connection.mode == .readWrite else {
                throw ActionLogError(.notAJournal, file: file, reason: emptyDatabaseReason)
            }
            return true  // A new file: `migrate` creates the schema.
        }
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
        throw ActionLogError(
            .notAJournal, file: file,
            reason: "an SQLite database, but not an ActionLog journal (application_id \(applicationID), tables: \(tables.isEmpty ? "none" : shown))"
        )
    }

    /// What a reader says of an empty file or an SQLite database without tables: a journal that a
    /// recorder has created and not yet given its schema, or another file. (`log --follow` waits
    /// for such a journal to get its schema.)
    package static let emptyDatabaseReason = "an empty SQLite database, not an ActionLog journal"

    /// Why a writer does not write to a journal holding `trigger`; `verify` says the same of each.
    package static func triggerRefusal(_ trigger: (name: String, table: String)) -> String {
        let name = JSONValue.string(trigger.name).canonicalText
        return """
            the trigger \(name) on \(JSONValue.string(trigger.table).canonicalText): a journal never has one; it would \
            run on ActionLog's writes and could drop or change them, so ActionLog does not write to the file \
            (remove it with `sqlite3 FILE 'DROP TRIGGER \(name)'`)
            """
    }

    private static func migrate(_ connection: Connection, file: String) throws {
        try connection.transaction {
            // Read again inside the write transaction: another process may have migrated meanwhile.
            let version = try connection.scalarInt("PRAGMA user_version") ?? 0
            if version < Schema.currentVersion {
                for migration in Schema.migrations where migration.version > version && !migration.sql.isEmpty {
                    try connection.execute(migration.sql)
                }
                // PRAGMA values cannot be bound; both are constants of this library, never input.
                try connection.execute("PRAGMA application_id = \(Schema.applicationID)")
                try connection.execute("PRAGMA user_version = \(Schema.currentVersion)")
            }
        }
        try addMissingAdditions(connection)
        try Checksums.addMissingColumns(connection)
    }

    /// Creates ``Schema/additions`` in a journal that lacks any of them: read first, so that a file
    /// that has them all is not written to.
    private static func addMissingAdditions(_ connection: Connection) throws {
        let names = Schema.additionNames.map { "'\($0)'" }.joined(separator: ", ")
        let present = try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name IN (\(names))") ?? 0
        let hasUUIDs = try Schema.hasSessionUUIDs(connection)
        guard present < Schema.additionNames.count || !hasUUIDs else { return }
        try connection.transaction {
            try connection.execute(Schema.additions)
            // Asked again inside the transaction: another writer may have added it since.
            if try !Schema.hasSessionUUIDs(connection) { try connection.execute(Schema.sessionUUIDColumn) }
        }
    }
}
