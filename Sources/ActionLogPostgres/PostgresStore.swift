import ActionLog
import Foundation
import PostgresNIO

/// A team store: a PostgreSQL database that gathers the sessions of many journals (testers'
/// devices, CI runs), each once, by its global id.
///
/// ```swift
/// let store = try await PostgresStore.connect(url: "postgres://ci@db.internal/actionlog")
/// defer { Task { await store.close() } }
/// for pushed in try await store.push(try Journal(path: "ui-tests.actionlog")) {
///     print(pushed.name, pushed.wasThere ? "already there" : "pushed \(pushed.entries) entries")
/// }
/// ```
///
/// The store creates and migrates its tables itself (`actionlog_schema`, `actionlog_sessions`,
/// `actionlog_entries`, `actionlog_handlers`, `actionlog_calls`), holding each row's stored texts as
/// the journal does, so a session read back is, byte for byte, the one pushed. The article "A team
/// store on PostgreSQL" of the DocC catalog tells how to set one up.
public final class PostgresStore: Sendable {
    /// The server, user and database, as messages name them (never with the password).
    package let location: PostgresLocation
    let connection: PostgresConnection
    let logger: Logger

    private init(location: PostgresLocation, connection: PostgresConnection, logger: Logger) {
        self.location = location
        self.connection = connection
        self.logger = logger
    }

    /// Connects to the database `url` names and creates or migrates its tables.
    ///
    /// What the URL leaves out comes from the standard variables `PGHOST`, `PGPORT`, `PGUSER`,
    /// `PGPASSWORD`, `PGDATABASE` (and `PGSSLMODE`), as `psql` takes them. TLS is used when the server
    /// offers it (`sslmode=prefer`, the default); `sslmode=require` refuses a server without it, and
    /// `sslmode=disable` never asks. As with `psql`'s `prefer` and `require`, the server's certificate
    /// is not checked against a certificate authority.
    ///
    /// ```swift
    /// let store = try await PostgresStore.connect(url: "postgres://alice@localhost:5432/actionlog")
    /// ```
    ///
    /// - Parameter url: `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://`), any part left out.
    /// - Returns: the store, connected; ``close()`` it when done.
    /// - Throws: ``ActionLogError`` naming the server (never the password) when the URL cannot be
    ///   read, the server cannot be reached or refuses the user, or its tables were made by a newer ActionLog.
    public static func connect(url: String) async throws(ActionLogError) -> PostgresStore {
        try await connect(to: try PostgresLocation(url: url))
    }

    /// Connects to `location`; see ``connect(url:)``.
    package static func connect(to location: PostgresLocation) async throws(ActionLogError) -> PostgresStore {
        var logger = Logger(label: "ActionLogPostgres")
        logger.logLevel = .critical
        let tls: PostgresConnection.Configuration.TLS
        do {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            switch location.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: configuration))
            case .require: tls = .require(try NIOSSLContext(configuration: configuration))
            }
        } catch {
            throw ActionLogError(.fileSystem, file: location.description, reason: "cannot set up TLS: \(error)")
        }
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw failure(error, location: location, doing: "cannot connect")
        }
        let store = PostgresStore(location: location, connection: connection, logger: logger)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Closes the connection. A store is closed once; what is pushed is committed already.
    public func close() async {
        try? await connection.close()
    }

    // MARK: - Errors

    /// `error` as an ``ActionLogError`` naming the server: what the server said (its message and
    /// SQLSTATE), or why the connection failed. postgres-nio's own descriptions are left out: they
    /// may hold the query, and the password never appears in them or here.
    static func failure(
        _ error: any Error, location: PostgresLocation, session: String? = nil, entry: Int? = nil, doing: String
    ) -> ActionLogError {
        if let error = error as? ActionLogError { return error }
        let subject = session.map { "\($0): " } ?? ""
        var error = error
        if let transaction = error as? PostgresTransactionError {
            error = transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? error
            if let inner = error as? ActionLogError { return inner }
        }
        guard let psql = error as? PSQLError else {
            return ActionLogError(.fileSystem, file: location.description, entry: entry, reason: "\(subject)\(doing): \(error)")
        }
        if psql.code == .server, let info = psql.serverInfo {
            let message = info[.message] ?? "an error"
            let state = info[.sqlState] ?? ""
            // 40001 serialization failure, 40P01 deadlock, 55P03 lock not available: try again.
            let code: ActionLogError.Code = ["40001", "40P01", "55P03"].contains(state) ? .busy : .fileSystem
            return ActionLogError(code, file: location.description, entry: entry, reason: "\(subject)\(doing): the server said: \(message) (SQLSTATE \(state))")
        }
        let underlying = psql.underlying.map { ": \($0)" } ?? ""
        return ActionLogError(.fileSystem, file: location.description, entry: entry, reason: "\(subject)\(doing): \(psql.code)\(underlying)")
    }

    func failure(_ error: any Error, session: String? = nil, entry: Int? = nil, doing: String) -> ActionLogError {
        Self.failure(error, location: location, session: session, entry: entry, doing: doing)
    }

    /// Runs `query`, its rows discarded; an error names the server and what was being done.
    func run(_ query: PostgresQuery, session: String? = nil, doing: String) async throws(ActionLogError) {
        do {
            try await connection.query(query, logger: logger)
        } catch {
            throw failure(error, session: session, doing: doing)
        }
    }

    /// The rows of `query`, each decoded by `decode`, in one array: for queries of a few rows.
    func rows<T>(_ query: PostgresQuery, session: String? = nil, doing: String, _ decode: (PostgresRow) throws -> T) async throws(ActionLogError) -> [T] {
        do {
            var result: [T] = []
            for try await row in try await connection.query(query, logger: logger) {
                result.append(try decode(row))
            }
            return result
        } catch {
            throw failure(error, session: session, doing: doing)
        }
    }

    /// Runs `body` in a transaction, rolled back when it throws.
    func transaction<T>(session: String? = nil, doing: String, _ body: () async throws(ActionLogError) -> T) async throws(ActionLogError) -> T {
        try await run("BEGIN", session: session, doing: doing)
        do {
            let result = try await body()
            try await run("COMMIT", session: session, doing: doing)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
