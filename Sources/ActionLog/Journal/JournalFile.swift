import CSQLite
import Foundation

/// Opens journal files: tells a journal from other files, refuses newer schemas, creates and migrates.
enum JournalFile {
    /// The name used in error messages: the file's last path component.
    static func displayName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// Opens `path` as a journal.
    ///
    /// A reader (`.readOnly`) never creates or changes the file. A writer creates the schema in a new
    /// or empty file, migrates an older one, and switches it to WAL.
    static func open(path: String, mode: Connection.Mode) throws(JournalError) -> Connection {
        let file = displayName(path)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue {
            throw JournalError(.notAJournal, file: file, reason: "a directory, not an ActionLog journal (\(path))")
        }
        if mode == .readOnly, !exists {
            throw JournalError(.fileNotFound, file: file, reason: "no such file (looked for \(path))")
        }
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: mode)
        } catch {
            throw JournalError(.sqlite, file: file, reason: "cannot open \(path): \(error)", sqlite: error)
        }
        do {
            try check(connection, file: file)
            if mode == .readWrite {
                try connection.enableWriteAheadLog()
                try migrate(connection, file: file)
            }
        } catch let error as JournalError {
            throw error
        } catch let error as SQLiteError {
            throw wrap(error, file: file)
        } catch {
            throw JournalError(.sqlite, file: file, reason: "\(error)")
        }
        return connection
    }

    /// Turns an SQLite error into a journal error that names the file.
    static func wrap(_ error: SQLiteError, file: String, session: Int64? = nil, entry: Int? = nil) -> JournalError {
        switch error.code {
        case SQLITE_NOTADB:
            JournalError(.notADatabase, file: file, session: session, entry: entry, reason: "not an SQLite database, so not an ActionLog journal", sqlite: error)
        case SQLITE_CORRUPT:
            JournalError(.corrupt, file: file, session: session, entry: entry, reason: "the database file is damaged: \(error)", sqlite: error)
        default:
            JournalError(.sqlite, file: file, session: session, entry: entry, reason: error.description, sqlite: error)
        }
    }

    // MARK: - Checks

    private static func check(_ connection: Connection, file: String) throws {
        // The first read of the header is where SQLite notices a file that is not a database.
        let applicationID = try connection.scalarInt("PRAGMA application_id") ?? 0
        let version = try connection.scalarInt("PRAGMA user_version") ?? 0
        if applicationID == Schema.applicationID {
            guard version <= Schema.currentVersion else {
                throw JournalError(
                    .newerSchema, file: file,
                    reason: "written with journal schema version \(version), but this ActionLog reads versions up to \(Schema.currentVersion); update ActionLog to read it"
                )
            }
            if connection.mode == .readOnly, version < Schema.currentVersion {
                throw JournalError(
                    .newerSchema, file: file,
                    reason: "journal schema version \(version) is older than \(Schema.currentVersion); open it once for writing to migrate it"
                )
            }
            return
        }
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").rows { $0.text(0) ?? "" }
        if applicationID == 0, version == 0, tables.isEmpty {
            guard connection.mode == .readWrite else {
                throw JournalError(.notAJournal, file: file, reason: "an empty SQLite database, not an ActionLog journal")
            }
            return  // A new file: `migrate` creates the schema.
        }
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
        throw JournalError(
            .notAJournal, file: file,
            reason: "an SQLite database, but not an ActionLog journal (application_id \(applicationID), tables: \(tables.isEmpty ? "none" : shown))"
        )
    }

    private static func migrate(_ connection: Connection, file: String) throws {
        try connection.transaction {
            // Read again inside the write transaction: another process may have migrated meanwhile.
            let version = try connection.scalarInt("PRAGMA user_version") ?? 0
            guard version < Schema.currentVersion else { return }
            for migration in Schema.migrations where migration.version > version {
                try connection.execute(migration.sql)
            }
            // PRAGMA values cannot be bound; both are constants of this library, never input.
            try connection.execute("PRAGMA application_id = \(Schema.applicationID)")
            try connection.execute("PRAGMA user_version = \(Schema.currentVersion)")
        }
    }
}
