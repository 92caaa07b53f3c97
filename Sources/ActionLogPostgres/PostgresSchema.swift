import ActionLog
import PostgresNIO

/// The store's tables and their forward migrations. The article "A team store on PostgreSQL" of the
/// DocC catalog documents them for people.
enum PostgresSchema {
    /// The version this library writes (`actionlog_schema.version`).
    static let currentVersion = 2

    /// A key of `pg_advisory_xact_lock` that every migration takes: two processes that find the
    /// tables missing at once create them once.
    static let migrationLock: Int64 = 0x4143_4C47_0000_0001

    /// Migrations by the version they produce, one statement each. Each runs in the transaction
    /// that sets the version.
    static let migrations: [(version: Int, statements: [String])] = [
        (1, [
            // A session once, by its global id. `complete` is false while a push is under way or was
            // killed: readers leave it out, and the next push resumes it. `entry_count` and
            // `gap_count` are what `sessions` lists and filters on without reading entries.
            """
            CREATE TABLE actionlog_sessions (
                uuid            uuid             PRIMARY KEY,
                name            text             NOT NULL,
                started_at      double precision NOT NULL,
                ended_at        double precision,
                status          text             NOT NULL,
                library_version text             NOT NULL,
                app_version     text,
                state_type      text             NOT NULL,
                action_type     text             NOT NULL,
                effect_type     text,
                metadata        text             NOT NULL,
                dropped         bigint           NOT NULL,
                entry_count     bigint           NOT NULL,
                gap_count       bigint           NOT NULL DEFAULT 0,
                complete        boolean          NOT NULL DEFAULT false,
                pushed_at       timestamptz      NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX actionlog_sessions_started ON actionlog_sessions (started_at)",
            """
            CREATE TABLE actionlog_entries (
                session_uuid uuid             NOT NULL REFERENCES actionlog_sessions (uuid) ON DELETE CASCADE,
                seq          bigint           NOT NULL,
                kind         text             NOT NULL,
                time         double precision NOT NULL,
                label        text,
                action       text,
                state        text,
                effect       text,
                duration_ns  bigint,
                dropped      bigint,
                note         text,
                PRIMARY KEY (session_uuid, seq)
            )
            """,
            """
            CREATE TABLE actionlog_handlers (
                session_uuid      uuid   NOT NULL REFERENCES actionlog_sessions (uuid) ON DELETE CASCADE,
                seq               bigint NOT NULL,
                started           bigint NOT NULL,
                released_at       bigint,
                untracked_outputs bigint,
                PRIMARY KEY (session_uuid, seq)
            )
            """,
            """
            CREATE TABLE actionlog_calls (
                session_uuid uuid   NOT NULL REFERENCES actionlog_sessions (uuid) ON DELETE CASCADE,
                seq          bigint NOT NULL,
                idx          bigint NOT NULL,
                kind         text   NOT NULL,
                service      text,
                name         text   NOT NULL,
                arguments    text,
                result       text,
                error        text,
                event        text,
                answered     bigint,
                PRIMARY KEY (session_uuid, seq, idx)
            )
            """,
        ]),
        (2, [
            // Each row's checksum, as the journal stores it (two CRC-32Cs in one integer): a session
            // read back is checked as its file is, so a change made to it in the store is caught.
            // NULL for rows pushed before, or from files written before ActionLog checksummed rows.
            "ALTER TABLE actionlog_entries ADD COLUMN checksum bigint",
            "ALTER TABLE actionlog_handlers ADD COLUMN checksum bigint",
            "ALTER TABLE actionlog_calls ADD COLUMN checksum bigint",
        ]),
    ]
}

extension PostgresStore {
    /// Creates the tables, or migrates them to ``PostgresSchema/currentVersion``, under a lock that
    /// makes concurrent first pushes create them once; refuses tables of a newer version.
    func migrate() async throws(ActionLogError) {
        let doing = "cannot create or migrate the store's tables"
        try await transaction(doing: doing) { () async throws(ActionLogError) in
            try await run("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))", doing: doing)
            try await run("CREATE TABLE IF NOT EXISTS actionlog_schema (version integer NOT NULL)", doing: doing)
            let version = try await rows("SELECT max(version) FROM actionlog_schema", doing: doing) { try $0.decode(Int?.self) }.first ?? nil
            let current = version ?? 0
            guard current <= PostgresSchema.currentVersion else {
                throw ActionLogError(.newerSchema, file: location.description, reason: """
                    the store's tables are of version \(current), written by a newer ActionLog; this one reads up to version \(PostgresSchema.currentVersion)
                    """)
            }
            for (version, statements) in PostgresSchema.migrations where version > current {
                for statement in statements {
                    try await run(PostgresQuery(unsafeSQL: statement), doing: doing)
                }
                try await run("DELETE FROM actionlog_schema", doing: doing)
                try await run("INSERT INTO actionlog_schema (version) VALUES (\(version))", doing: doing)
            }
        }
    }
}
