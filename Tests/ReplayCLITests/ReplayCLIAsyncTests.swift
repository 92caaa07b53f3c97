import ActionLog
import Foundation
import Testing

@Suite("replay-cli on sessions of asynchronous handlers")
struct ReplayCLIAsyncTests {
    /// Records two `lookUp`s of a tiny actor ViewModel whose one service answers at once, the second
    /// failing, one after the other: sent together, which answer comes first is the service's race,
    /// and the journal records it as it happened.
    private func record(into directory: URL) async throws {
        let viewModel = Lookup()
        let reducer = try await ViewModelRecorder<Int, LookupAction>(
            path: directory.appendingPathComponent("lookup.actionlog").path, sessionName: "lookup", services: ["Directory"],
            handle: { await viewModel.handle($0) }, snapshot: { 0 })
        reducer(.lookUp("ada"))
        await reducer.settle()
        reducer(.lookUp(""))
        await reducer.settle()
        reducer.close()
    }

    @Test("log prints each service call with its answer under its entry; --json adds the handler record")
    func logShowsCalls() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayCLIAsyncTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await record(into: directory)
        let result = try runCLI(["log", "lookup.actionlog", "--session", "1"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = lines(result.stdout).map { $0.replacing(/\+\d+(\.\d+)?\s?m?s/, with: "+T") }
        #expect(rows.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") } == [
            "SEQ OFFSET ACTION JSON",
            "0 +T (initial state)",
            #"1 +T lookUp {"lookUp":{"_0":"ada"}}"#,
            #"call Directory.find("ada") → "Ada Lovelace""#,
            #"2 +T lookUp {"lookUp":{"_0":""}}"#,
            #"call Directory.find("") threw {"description":"empty name","localizedDescription":"The operation could not be completed. (ReplayCLITests.EmptyName error 1.)","type":"ReplayCLITests.EmptyName"}"#,
        ])
        let json = try runCLI(["log", "lookup.actionlog", "--session", "1", "--json"], in: directory)
        let objects = try jsonLines(json.stdout)
        try #require(objects.count == 3)
        #expect(objects[0]["handler"] == nil)
        let handler = try #require(objects[1]["handler"] as? [String: Any])
        #expect(int(handler["started"]) == 0)

        let diff = try runCLI(["diff", "lookup.actionlog", "--session", "1", "0", "2"], in: directory)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(lines(diff.stdout) == [
            #"Entry 0 → entry 2 of session 1 "lookup":"#,
            "No difference.",
            "Service calls and output events of entries 1...2:",
            #"  entry 1 call Directory.find("ada") → "Ada Lovelace""#,
            #"  entry 2 call Directory.find("") threw {"description":"empty name","localizedDescription":"The operation could not be completed. (ReplayCLITests.EmptyName error 1.)","type":"ReplayCLITests.EmptyName"}"#,
        ])

        let diffJSON = try runCLI(["diff", "lookup.actionlog", "--session", "1", "0", "2", "--json"], in: directory)
        #expect(diffJSON.status == 0, "\(diffJSON.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diffJSON.stdout.utf8)) as? [String: Any])
        #expect((object["differences"] as? [Any])?.isEmpty == true)
        let handlers = try #require(object["handlers"] as? [[String: Any]])
        #expect(handlers.map { int($0["seq"]) } == [1, 2])
        let calls = handlers.compactMap { (($0["records"] as? [[String: Any]])?.first?["call"] as? [String: Any]) }
        #expect(calls.map { $0["method"] as? String } == ["find", "find"])
        #expect(calls.first?["result"] as? String == "Ada Lovelace")
    }

    @Test("verify and log name an entry whose handler's turn the recorder took, and output events not journaled before an entry")
    func notesOnHandlerRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayCLIAsyncTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await record(into: directory)
        // What a recorder writes for them (the columns come with the first record that needs them).
        try runSQLite("""
            ALTER TABLE handlers ADD COLUMN released_at INTEGER;
            ALTER TABLE handlers ADD COLUMN untracked_outputs INTEGER;
            UPDATE handlers SET checksum = NULL, untracked_outputs = 1 WHERE seq = 1;
            UPDATE handlers SET checksum = NULL, released_at = 3 WHERE seq = 2;
            """, on: "lookup.actionlog", in: directory)
        let verify = try runCLI(["verify", "lookup.actionlog"], in: directory)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == """
            lookup.actionlog: 1 session, 3 entries: OK
              note: session 1: 2 handler rows without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed
              note: session 1, entry 1: 1 output event was emitted outside any handler's work (a timer, Task.detached, a GCD or delegate callback) before it was written, and not journaled
              note: session 1, entry 2: not reproducible: its handler waited in its turn for something ActionLog cannot see, and the recorder gave the turn on at place 3 of the run order

            """)
        let log = try runCLI(["log", "lookup.actionlog", "--session", "1"], in: directory)
        #expect(log.status == 0, "\(log.stderr)")
        let rows = lines(log.stdout).map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.filter { $0.hasPrefix("note") } == [
            "note 1 output event was emitted outside any handler's work (a timer, Task.detached, a GCD or delegate callback) before it was written, and not journaled",
            "note not reproducible: its handler waited in its turn for something ActionLog cannot see, and the recorder gave the turn on at place 3 of the run order",
        ])
    }
}

struct EmptyName: Error, CustomStringConvertible {
    var description: String { "empty name" }

    @Test("log of a session longer than a page prints every entry's service call, page after page, and --from starts mid-page")
    func logPagesHandlerRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReplayCLIAsyncTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let viewModel = Lookup()
        let reducer = try await ViewModelRecorder<Int, LookupAction>(
            path: directory.appendingPathComponent("long.actionlog").path, sessionName: "long", services: ["Directory"],
            handle: { await viewModel.handle($0) }, snapshot: { 0 })
        for index in 0..<1_100 { reducer(.lookUp("n\(index)")) }
        await reducer.settle()
        reducer.close()
        let json = try runCLI(["log", "long.actionlog", "--session", "1", "--json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try jsonLines(json.stdout)
        #expect(objects.count == 1_101)
        let withCalls = objects.filter { $0["handler"] != nil }.map { int($0["seq"]) }
        #expect(withCalls == Array(1...1_100))
        let fromMidPage = try jsonLines(try runCLI(["log", "long.actionlog", "--session", "1", "--json", "--from", "700"], in: directory).stdout)
        #expect(fromMidPage.filter { $0["handler"] != nil }.map { int($0["seq"]) } == Array(700...1_100))
    }
}

enum LookupAction: Codable, Sendable {
    case lookUp(String)
}

actor Lookup {
    let recorded = RecordedService("Directory")

    func find(_ name: String) async throws -> String {
        try await recorded.call("find", name) {
            guard !name.isEmpty else { throw EmptyName() }
            return "Ada Lovelace"
        }
    }

    func handle(_ action: LookupAction) async {
        switch action {
        case .lookUp(let name): _ = try? await find(name)
        }
    }
}
