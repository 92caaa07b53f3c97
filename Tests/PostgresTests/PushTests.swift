import ActionLog
@testable import ActionLogPostgres
import Foundation
import Testing

/// The uuid of each session `push --json` reported, by name.
private func pushed(_ stdout: String) throws -> [(uuid: String, name: String, status: String)] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
    return array.map { ($0["uuid"] as? String ?? "", $0["sessionName"] as? String ?? "", $0["status"] as? String ?? "") }
}

@Suite("The team store on a real PostgreSQL server", .enabled(if: TestServer.isGiven, "no PostgreSQL server given (ACTIONLOG_TEST_POSTGRES_URL)"))
struct PushTests {
    @Test("push, then every reader prints from the store what it prints from the file, byte for byte")
    func readersPrintTheSame() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let push = try run(["push", "demo.actionlog", url, "--json"], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let sessions = try pushed(push.stdout)
            #expect(sessions.count >= 3)
            #expect(sessions.allSatisfy { $0.status == "pushed" })
            let listing = try run(["sessions", "demo.actionlog", "--json"], in: directory)
            let fileList = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
            for (index, session) in sessions.enumerated() {
                let id = String(describing: fileList[index]["session"] ?? "")
                let commands = [["export"], ["state"], ["log"], ["state", "--at", "1"], ["log", "--json"], ["diff", "1", "3"], ["why", "/"], ["diff", "0", "2", "--json"]]
                for command in commands {
                    let fromFile = try run([command[0], "demo.actionlog", "--session", id] + command.dropFirst(), in: directory)
                    let fromStore = try run([command[0], url, "--session", session.uuid] + command.dropFirst(), in: directory)
                    #expect(fromStore.status == fromFile.status, "\(command) \(session.name): \(fromStore.stderr)")
                    // A store's session has no id, as a text form's: headings name it by its name, JSON has "session": null.
                    let withoutID = fromFile.stdout
                        .replacingOccurrences(of: "session \(id) \"", with: "session \"")
                        .replacingOccurrences(of: "\"session\":\(id),", with: "\"session\":null,")
                        .replacingOccurrences(of: "\"session\": \(id),", with: "\"session\": null,")
                        .replacingOccurrences(of: "\"file\": \"demo.actionlog\"", with: "\"file\": \"\(try PostgresLocation(url: url))\"")
                    #expect(fromStore.stdout == withoutID, "\(command) of \(session.name)")
                }
            }
            // `sessions` from the store lists the same sessions (without ids: a store numbers none).
            let fromFile = try run(["sessions", "demo.actionlog"], in: directory)
            let fromStore = try run(["sessions", url], in: directory)
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            let withoutIDs = lines(fromFile.stdout).map { $0.replacingOccurrences(of: #"^\d+ "#, with: "- ", options: .regularExpression) }
            #expect(lines(fromStore.stdout) == withoutIDs)
        }
    }

    @Test("pushing again stores nothing and says already there")
    func idempotent() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let first = try run(["push", "demo.actionlog", url], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            let again = try run(["push", "demo.actionlog", url], in: directory)
            #expect(again.status == 0, "\(again.stderr)")
            let count = lines(again.stdout).count - 1
            #expect(lines(again.stdout).dropLast().allSatisfy { $0.hasSuffix("): already there") })
            let location = try PostgresLocation(url: url)
            #expect(lines(again.stdout).last == "0 sessions pushed to \(location), \(count) already there.")
            let json = try run(["push", "demo.actionlog", url, "--json"], in: directory)
            #expect(try pushed(json.stdout).allSatisfy { $0.status == "already there" })
        }
    }

    @Test("several processes pushing the same journal at once store each session once, whole")
    func concurrentPushes() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            try insertLongSession(named: "long", entries: 30_000, into: directory.appendingPathComponent("team.actionlog").path)
            _ = try run(["--output", "team.actionlog"], in: directory, program: "actionlog-demo")
            let children = try (0..<4).map { _ in try Child("replay-cli", ["push", "team.actionlog", url, "--json"], in: directory) }
            let results = children.map { $0.finish() }
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            // Each session pushed by one process exactly; the others found it there.
            let statuses = try results.map { try pushed($0.stdout) }
            let names = Set(statuses.flatMap { $0.map(\.name) })
            for name in names {
                let pushes = statuses.flatMap { $0.filter { $0.name == name && $0.status != "already there" } }
                #expect(pushes.count == 1, "\(name): \(pushes)")
            }
            let export = try run(["export", "team.actionlog", "--session", "long"], in: directory)
            let stored = try run(["export", url, "--session", "long"], in: directory)
            #expect(stored.status == 0, "\(stored.stderr)")
            #expect(stored.stdout == export.stdout)
            let list = try run(["sessions", url, "--json"], in: directory)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            #expect(listed.count == names.count)
        }
    }

    @Test("a push killed part way leaves the session out of every reader, and the next push resumes it")
    func resumedAfterKill() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            try insertLongSession(named: "long", entries: 200_000, into: directory.appendingPathComponent("long.actionlog").path)
            let child = try Child("replay-cli", ["push", "long.actionlog", url], in: directory)
            // Killed once some batches are committed: the store then holds part of the session.
            let store = try await PostgresStore.connect(url: url)
            var held = 0
            for _ in 0..<6000 where held == 0 && child.process.isRunning {
                held = try await store.storedEntryCount()
                if held == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            kill(child.process.processIdentifier, SIGKILL)
            _ = child.finish()
            let partial = try await store.storedEntryCount()
            await store.close()
            try #require(partial > 0 && partial < 200_000, "the push was not caught part way (\(partial) entries stored)")
            let listing = try run(["sessions", url], in: directory)
            #expect(listing.stdout.contains("long") == false)
            let state = try run(["state", url, "--session", "long"], in: directory)
            #expect(state.status == 64)
            #expect(state.stderr == "error: \(try PostgresLocation(url: url)): no session named \"long\"\n")

            let again = try run(["push", "long.actionlog", url], in: directory)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("(200000 entries): pushed (resumed)"))
            let fromFile = try run(["export", "long.actionlog"], in: directory)
            let fromStore = try run(["export", url, "--session", "long"], in: directory)
            #expect(fromStore.stdout == fromFile.stdout)
        }
    }

    @Test("a wrong password is refused, naming the server and never the password")
    func wrongPassword() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            var parts = try #require(URLComponents(string: url))
            parts.password = "not-the-password-x9"
            let wrong = try #require(parts.string)
            let push = try run(["push", "demo.actionlog", wrong], in: directory)
            #expect(push.status == 1)
            let location = try PostgresLocation(url: url)
            #expect(push.stderr == """
                error: \(location): cannot connect: the server said: password authentication failed for user "\(location.user)" (SQLSTATE 28P01)

                """)
            #expect(!push.stderr.contains("not-the-password-x9"))
            // The password from PGPASSWORD instead of the URL.
            let password = try #require(URLComponents(string: url)?.password)
            parts.password = nil
            let withoutPassword = try #require(parts.string)
            let fromVariable = try run(["push", "demo.actionlog", withoutPassword], in: directory, environment: ["PGPASSWORD": password])
            #expect(fromVariable.status == 0, "\(fromVariable.stderr)")
            #expect(!fromVariable.stdout.contains(password) && !fromVariable.stderr.contains(password))
        }
    }

    /// The test server takes TCP connections over TLS only (scripts/with-postgres), as a team's server would.
    @Test("TLS when the server asks: the store's connection is encrypted, and sslmode=disable is refused by such a server, saying so")
    func tlsWhenTheServerAsks() async throws {
        let url = try await TestServer.newDatabase()
        let store = try await PostgresStore.connect(url: url)
        let encrypted = try await store.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", doing: "ask") { try $0.decode(Bool.self) }
        await store.close()
        #expect(encrypted == [true])
        try await withTemporaryDirectory { directory in
            _ = try run(["--output", "demo.actionlog"], in: directory, program: "actionlog-demo")
            let location = try PostgresLocation(url: url)
            let plain = try run(["push", "demo.actionlog", url + "?sslmode=disable"], in: directory)
            #expect(plain.status == 1)
            #expect(plain.stderr == """
                error: \(location): cannot connect: the server said: no pg_hba.conf entry for host "127.0.0.1", user "\(location.user)", database "\(location.database)", no encryption (SQLSTATE 28000)

                """)
            let required = try run(["push", "demo.actionlog", url + "?sslmode=require"], in: directory)
            #expect(required.status == 0, "\(required.stderr)")
        }
    }

    @Test("state --at and diff read a store's session from the keyframe before the entry, and print what the file prints, across keyframes and gaps")
    func statesFromTheKeyframeBefore() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            // Keyframes at 0, 10,001 and 20,001; gaps at 10,000 and 20,000.
            try insertLongSession(named: "long", entries: 25_000, into: directory.appendingPathComponent("long.actionlog").path)
            let push = try run(["push", "long.actionlog", url], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let commands = [
                ["state", "--at", "9999"], ["state", "--at", "10001"], ["state", "--at", "15000", "--json"], ["state", "--at", "24999"],
                ["diff", "9000", "12000"], ["diff", "21000", "10005", "--json"], ["diff", "10001", "10002"],
            ]
            for command in commands {
                let fromFile = try run([command[0], "long.actionlog"] + command.dropFirst(), in: directory)
                let fromStore = try run([command[0], url, "--session", "long"] + command.dropFirst(), in: directory)
                #expect(fromFile.status == 0, "\(command): \(fromFile.stderr)")
                #expect(fromStore.status == 0, "\(command): \(fromStore.stderr)")
                // A store's session has no id: headings name it by its name, JSON has "session": null.
                let expected = fromFile.stdout
                    .replacingOccurrences(of: "session 1 \"", with: "session \"")
                    .replacingOccurrences(of: "\"session\": 1,", with: "\"session\": null,")
                    .replacingOccurrences(of: "\"file\": \"long.actionlog\"", with: "\"file\": \"\(try PostgresLocation(url: url))\"")
                #expect(fromStore.stdout == expected, "\(command)")
            }
            // An entry past the session's end is refused from the store as from the file.
            let past = try run(["state", url, "--session", "long", "--at", "25000"], in: directory)
            let pastFile = try run(["state", "long.actionlog", "--at", "25000"], in: directory)
            #expect(past.status == pastFile.status && past.status != 0)
        }
    }

    @Test("sessions filters: app version, time, name and label patterns, gaps; from a store and from a file alike")
    func sessionFilters() async throws {
        let url = try await TestServer.newDatabase()
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("team.actionlog").path
            try insertLongSession(named: "long-a", entries: 20_000, into: path)
            try insertLongSession(named: "short-b", entries: 50, into: path)
            let push = try run(["push", "team.actionlog", url], in: directory)
            #expect(push.status == 0, "\(push.stderr)")
            let cases: [([String], [String])] = [
                (["--name", "long-*"], ["long-a"]),
                (["--has-gaps"], ["long-a"]),
                (["--app-version", "2.3"], ["long-a", "short-b"]),
                (["--app-version", "9"], []),
                (["--label", "tap?cell"], ["long-a", "short-b"]),
                (["--label", "nothing*"], []),
                (["--since", "2025-11-21T04:41:00Z"], ["long-a"]),
                (["--until", "2025-11-21T04:41:00Z"], ["short-b"]),
            ]
            for (filter, expected) in cases {
                for source in ["team.actionlog", url] {
                    let result = try run(["sessions", source, "--json"] + filter, in: directory)
                    #expect(result.status == 0, "\(filter): \(result.stderr)")
                    let listed = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
                    #expect(listed.compactMap { $0["sessionName"] as? String }.sorted() == expected, "\(filter) on \(source == url ? "the store" : "the file")")
                }
            }
        }
    }
}

/// `lines` of `text`, without the empty string after the last newline.
func lines(_ text: String) -> [String] {
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
}

extension PostgresStore {
    /// How many entry rows the store holds, complete sessions or not.
    func storedEntryCount() async throws -> Int {
        Int(try await rows("SELECT count(*) FROM actionlog_entries", doing: "count") { try $0.decode(Int64.self) }.first ?? 0)
    }
}
