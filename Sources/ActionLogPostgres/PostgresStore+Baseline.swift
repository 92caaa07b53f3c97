import ActionLog
import PostgresNIO

extension PostgresStore {
    /// The benchmark's baseline: the session's entry rows sent with one plain `COPY` into a
    /// temporary table of the same columns, with no key, no staging, no conflict check and no
    /// batches; the table is dropped after. What a push costs beyond moving the same bytes.
    ///
    /// - Returns: the rows copied.
    package func plainCopy(_ journal: Journal, session: JournalSession.ID) async throws(ActionLogError) -> Int {
        let doing = "cannot copy the rows"
        let columns = StoredTable.entries.columns
        try await run(PostgresQuery(unsafeSQL: """
            CREATE TEMPORARY TABLE actionlog_plain_copy (\(columns.map { "\($0.name) \(PostgresSchema.type($0))" }.joined(separator: ", ")))
            """), doing: doing)
        var copied = 0
        do {
            try await connection.copyFrom(table: "actionlog_plain_copy", columns: columns.map(\.name), logger: logger) { writer in
                var after: [Int64]?
                while true {
                    let page = try journal.storedRows(.entries, session: session, after: after, limit: 4096)
                    var batch = CopyBatch()
                    for row in page { try batch.add(row, columns: columns, table: .entries, file: journal.fileName, session: session) }
                    try await writer.write(batch.bytes)
                    copied += page.count
                    guard page.count == 4096, case .integer(let seq) = page.last?.first else { break }
                    after = [seq]
                }
            }
        } catch {
            throw failure(error, doing: doing)
        }
        try await run("DROP TABLE actionlog_plain_copy", doing: doing)
        return copied
    }
}
