import ActionLog
import CSQLite
import Foundation

// The two baselines, written directly against SQLite's C API (ActionLog's own wrapper is internal),
// and the small SQLite helper they and the size measurements use.

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One connection. Used on one thread only.
final class Database {
    let handle: OpaquePointer

    init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError("cannot open \(path): SQLite error \(code)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 10_000)  // The recorder's writer may be checkpointing as it closes.
    }

    deinit { sqlite3_close_v2(handle) }

    /// WAL with `synchronous=NORMAL`: the settings ActionLog's writer uses.
    func configureLikeTheWriter() throws {
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw BenchError("SQLite error \(code) \(message.map { String(cString: $0) } ?? "") in \(sql)")
        }
    }

    func prepare(_ sql: String) throws -> Query {
        try Query(database: self, sql: sql)
    }

    /// The database's logical size in bytes (what it would be after a checkpoint), WAL content included.
    func logicalSize() throws -> Int {
        let query = try prepare("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
        guard try query.step() else { return 0 }
        return query.int(0)
    }
}

/// A prepared statement, reused with ``reset()``.
final class Query {
    let handle: OpaquePointer
    private let database: Database

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw BenchError("cannot prepare \(sql): SQLite error \(code)")
        }
        handle = statement
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), actionlog_sqlite_transient())
            }
        }
    }

    /// Advances; `true` while there is a row.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw BenchError("SQLite error \(code): \(String(cString: sqlite3_errmsg(database.handle)))")
        }
    }

    /// Runs to completion and resets.
    func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    func reset() { sqlite3_reset(handle) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }
}

/// What a baseline measured.
struct BaselineRun {
    var elapsed: Duration
    /// Stored JSON bytes (action + state) per entry.
    var payloadBytesPerEntry: Double
    /// Growth of the database file per entry.
    var fileBytesPerEntry: Double
}

/// A shared encoder, as the writer keeps one: creating a `JSONEncoder` per value would be slower.
func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return encoder
}

/// The naive journal: per action, reduce, encode the action and the full state as canonical JSON, and
/// commit them in a transaction of their own (`BEGIN; INSERT; COMMIT`).
func runNaive<State, Action>(_ workload: Workload<State, Action>, actions: [Action], path: String) throws -> BaselineRun {
    let database = try Database(path: path)
    try database.configureLikeTheWriter()
    try database.execute("CREATE TABLE log (seq INTEGER PRIMARY KEY, time REAL NOT NULL, action TEXT NOT NULL, state TEXT NOT NULL)")
    let sizeBefore = try database.logicalSize()
    let begin = try database.prepare("BEGIN IMMEDIATE")
    let commit = try database.prepare("COMMIT")
    let insert = try database.prepare("INSERT INTO log (seq, time, action, state) VALUES (?1, ?2, ?3, ?4)")
    // The fastest canonical encoding the library has, so the baselines are not slowed by JSONEncoder.
    let canonical = JSONValueEncoder()
    var state = workload.initial
    let clock = ContinuousClock()
    let start = clock.now
    for (offset, action) in actions.enumerated() {
        workload.reduce(&state, action)
        let actionText = try canonical.encode(action).canonicalText
        let stateText = try canonical.encode(state).canonicalText
        try begin.run()
        insert.bind(1, offset + 1)
        insert.bind(2, Date().timeIntervalSince1970)
        insert.bind(3, actionText)
        insert.bind(4, stateText)
        try insert.run()
        try commit.run()
    }
    let elapsed = start.duration(to: clock.now)
    let sizes = try database.prepare("SELECT count(*), sum(length(CAST(action AS BLOB)) + length(CAST(state AS BLOB))) FROM log")
    _ = try sizes.step()
    let count = Double(max(1, sizes.int(0)))
    return BaselineRun(
        elapsed: elapsed,
        payloadBytesPerEntry: Double(sizes.int(1)) / count,
        fileBytesPerEntry: Double(try database.logicalSize() - sizeBefore) / count
    )
}

/// The floor: per action, reduce and encode the action only; insert in transactions of 256, as the
/// writer batches. What any journal that keeps the actions must at least do.
func runFloor<State, Action>(_ workload: Workload<State, Action>, actions: [Action], path: String, batch: Int = 256) throws -> Duration {
    let database = try Database(path: path)
    try database.configureLikeTheWriter()
    try database.execute("CREATE TABLE log (seq INTEGER PRIMARY KEY, action TEXT NOT NULL)")
    let begin = try database.prepare("BEGIN IMMEDIATE")
    let commit = try database.prepare("COMMIT")
    let insert = try database.prepare("INSERT INTO log (seq, action) VALUES (?1, ?2)")
    // The fastest canonical encoding the library has, so the baselines are not slowed by JSONEncoder.
    let canonical = JSONValueEncoder()
    var state = workload.initial
    let clock = ContinuousClock()
    let start = clock.now
    try begin.run()
    for (offset, action) in actions.enumerated() {
        workload.reduce(&state, action)
        let actionText = try canonical.encode(action).canonicalText
        insert.bind(1, offset + 1)
        insert.bind(2, actionText)
        try insert.run()
        if (offset + 1) % batch == 0 {
            try commit.run()
            try begin.run()
        }
    }
    try commit.run()
    let elapsed = start.duration(to: clock.now)
    blackHole(state == workload.initial)
    return elapsed
}

/// Keeps a value alive so that the optimizer cannot drop the work that produced it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
