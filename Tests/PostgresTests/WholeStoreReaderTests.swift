import ActionLog
@testable import ActionLogPostgres
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresNIO
import Testing

/// The uuid of each session `push --json` reported, in the journal's order.
private func pushedUUIDs(_ stdout: String) throws -> [String] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
    return array.map { $0["uuid"] as? String ?? "" }
}

@Suite("stats, verify and serve on a team store", .enabled(if: TestServer.isGiven, "no PostgreSQL server given (ACTIONLOG_TEST_POSTGRES_URL)"))
struct WholeStoreReaderTests {
    @Test("stats prints for a store what it prints for the file, each session named by its uuid")
    func stats() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let push = try run(["push", "demo.actionlog", url, "--json"], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let uuids = try pushedUUIDs(push.stdout)
            let fromFile = try run(["stats", "demo.actionlog"], in: directory)
            let fromStore = try run(["stats", url], in: directory)
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            // The file's sessions are 1, 2, 3 … in the order they were pushed (and started).
            var expected = fromFile.stdout
            for (index, uuid) in uuids.enumerated() {
                expected = expected.replacingOccurrences(of: "session \(index + 1) \"", with: "session \(uuid) \"")
            }
            #expect(fromStore.stdout == expected)
            let one = try run(["stats", url, "--session", uuids[1], "--json"], in: directory)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [[String: Any]])
            #expect(object.count == 1)
            #expect(object.first?["uuid"] as? String == uuids[1])
            #expect(object.first?["session"] is NSNull)
        }
    }

    @Test("verify checks every session of a store; a row changed in the store fails its checksum, named by session and entry")
    func verify() async throws {
        let url = try await TestServer.newDatabase()
        let store = try PostgresLocation(url: url).description
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let push = try run(["push", "demo.actionlog", url, "--json"], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let uuids = try pushedUUIDs(push.stdout)
            let fromFile = try run(["verify", "demo.actionlog"], in: directory)
            let fromStore = try run(["verify", url], in: directory)
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            // The same counts; the store's name in place of the file's.
            #expect(lines(fromStore.stdout).first == lines(fromFile.stdout).first.map { $0.replacingOccurrences(of: "demo.actionlog:", with: "\(store):") })

            // A label changed in the store, as a careless UPDATE would: the checksum pushed with the row no longer matches.
            let connection = try await PostgresStore.connect(url: url)
            let second = try #require(UUID(uuidString: uuids[1]))
            try await connection.run("UPDATE actionlog_entries SET label = 'changed' WHERE session_uuid = \(second) AND seq = 1", doing: "damage")
            let name = try await connection.rows("SELECT name FROM actionlog_sessions WHERE uuid = \(second)", doing: "name") { try $0.decode(String.self) }.first ?? ""
            await connection.close()
            let damaged = try run(["verify", url], in: directory)
            #expect(damaged.status == 1)
            let summary = try #require(lines(fromStore.stdout).first).replacingOccurrences(of: ": OK", with: ": 1 problem")
            #expect(lines(damaged.stdout).prefix(2) == [
                summary,
                "  session \(uuids[1]) \"\(name)\", entry 1: the entry does not match its checksum: its bytes changed after ActionLog wrote it",
            ])
            // Every reader of that session refuses it alike.
            let log = try run(["log", url, "--session", uuids[1]], in: directory)
            #expect(log.status == 1)
            #expect(log.stderr.contains("entry 1: the entry does not match its checksum"), "\(log.stderr)")

            // The last entry of another session deleted (no checksum can fail), and a third session
            // marked incomplete, as a push under way leaves it.
            let pushedSessions = try #require(try JSONSerialization.jsonObject(with: Data(push.stdout.utf8)) as? [[String: Any]])
            let third = try #require(UUID(uuidString: uuids[2]))
            let thirdEntries = try #require(pushedSessions[2]["entries"] as? Int)
            let thirdName = try #require(pushedSessions[2]["sessionName"] as? String)
            let first = try #require(UUID(uuidString: uuids[0]))
            let again = try await PostgresStore.connect(url: url)
            try await again.run("DELETE FROM actionlog_entries WHERE session_uuid = \(third) AND seq = \(thirdEntries - 1)", doing: "damage")
            try await again.run("UPDATE actionlog_sessions SET complete = false WHERE uuid = \(first)", doing: "damage")
            await again.close()
            let worse = try run(["verify", url], in: directory)
            #expect(worse.status == 1)
            let output = lines(worse.stdout)
            #expect(output.first?.hasPrefix("\(store): \(pushedSessions.count - 1) sessions, ") == true)
            #expect(output.first?.hasSuffix(": 3 problems") == true, "\(worse.stdout)")
            // The handler record of the deleted entry is left without its entry: a finding of its own.
            #expect(Array(output.dropFirst()) == [
                "  session \(uuids[1]) \"\(name)\", entry 1: the entry does not match its checksum: its bytes changed after ActionLog wrote it",
                "  session \(uuids[2]) \"\(thirdName)\", entry \(thirdEntries - 1): a handler record for an entry the session does not have",
                "  session \(uuids[2]) \"\(thirdName)\": the store holds \(thirdEntries - 1) entries where its push counted \(thirdEntries)",
                "  note: 1 session not complete: a push is under way or stopped part way (the next push of the session resumes it); readers leave them out",
            ])
            let json = try run(["verify", url, "--json"], in: directory)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.map { $0["uuid"] as? String } == [uuids[1], uuids[2], uuids[2]])
            #expect(findings.map { $0["seq"] as? Int } == [1, thirdEntries - 1, nil])
        }
    }

    @Test("serve shows a store's session in the viewer, and never prints the URL's password")
    func serve() async throws {
        let url = try await TestServer.newDatabase()
        let password = try #require(URLComponents(string: url)?.password)
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let push = try run(["push", "demo.actionlog", url, "--json"], in: directory)
            let uuids = try pushedUUIDs(push.stdout)
            let process = Process()
            process.executableURL = try binary("replay-cli")
            process.arguments = ["serve", url, "--session", uuids[0], "--port", "0"]
            process.currentDirectoryURL = directory
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            func line() throws -> String {
                var bytes: [UInt8] = []
                while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { bytes.append(byte) }
                return String(decoding: bytes, as: UTF8.self)
            }
            let address = try line()
            #expect(address.hasPrefix("http://127.0.0.1:"))
            let serving = try line()
            #expect(serving == "Serving \(try PostgresLocation(url: url)) read-only; press Ctrl-C to stop.")
            #expect(!serving.contains(password))
            let (body, _) = try await URLSession.shared.data(from: try #require(URL(string: address + "api/sessions")))
            let sessions = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            let listed = try #require(sessions["sessions"] as? [[String: Any]])
            #expect(listed.count == 1)
            #expect(listed.first?["uuid"] as? String == uuids[0])
            process.interrupt()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)

            let refused = try run(["serve", "demo.actionlog", "--session", "1"], in: directory)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--session is for a team store's URL (postgres://…); the viewer shows every session of a file"))
        }
    }
}

@Suite("The store's tables across versions", .enabled(if: TestServer.isGiven, "no PostgreSQL server given (ACTIONLOG_TEST_POSTGRES_URL)"))
struct StoreVersionTests {
    @Test("a store of version 1 (rows without checksums) is migrated by the next connection, reads as before and verifies with a note; a newer store is refused")
    func migratesFromVersion1() async throws {
        let url = try await TestServer.newDatabase()
        let store = try PostgresLocation(url: url).description
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let push = try run(["push", "demo.actionlog", url, "--session", "checkout", "--json"], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let pushed = try #require(try JSONSerialization.jsonObject(with: Data(push.stdout.utf8)) as? [[String: Any]])
            let uuid = try #require(pushed.first?["uuid"] as? String)
            let entries = try #require(pushed.first?["entries"] as? Int)
            // The store as version 1 left it: no checksum columns.
            let connection = try await PostgresStore.connect(url: url)
            for table in ["entries", "handlers", "calls"] {
                try await connection.run(PostgresQuery(unsafeSQL: "ALTER TABLE actionlog_\(table) DROP COLUMN checksum"), doing: "downgrade")
            }
            try await connection.run("UPDATE actionlog_schema SET version = 1", doing: "downgrade")
            await connection.close()

            // The next reader migrates it; the session reads as the file's, its rows without checksums.
            let fromFile = try run(["export", "demo.actionlog", "--session", "checkout"], in: directory)
            let fromStore = try run(["export", url, "--session", "checkout"], in: directory)
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            #expect(fromStore.stdout == fromFile.stdout)
            let verify = try run(["verify", url], in: directory)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            #expect(lines(verify.stdout) == [
                "\(store): 1 session, \(entries) entries: OK",
                "  note: session \(uuid) \"checkout\": \(entries) entries without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed",
            ])
            let version = try await PostgresStore.connect(url: url)
            let stored = try await version.rows("SELECT version FROM actionlog_schema", doing: "ask") { try $0.decode(Int.self) }
            // A store of a newer version than this ActionLog reads.
            try await version.run("UPDATE actionlog_schema SET version = 3", doing: "upgrade")
            await version.close()
            #expect(stored == [2])
            let newer = try run(["sessions", url], in: directory)
            #expect(newer.status != 0)
            #expect(newer.stderr == """
                error: \(store): the store's tables are of version 3, written by a newer ActionLog; this one reads up to version 2

                """)
        }
    }
}
