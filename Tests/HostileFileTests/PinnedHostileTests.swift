import ActionLog
import Foundation
import HostileFileSupport
import Replayer
import Testing

/// The named hostile cases, each through the readers that meet it, with whole messages pinned.
@Suite("Hostile files: pinned cases")
struct PinnedHostileTests {
    let directory: TemporaryDirectory
    let fixture: HostileFixture
    let maker: MutantMaker

    init() throws {
        directory = try TemporaryDirectory()
        fixture = try HostileFixture(in: directory)
        maker = MutantMaker(fixture: fixture, directory: directory)
    }

    /// The fixture's journal after `edits`, as `name`. An edit that sets `checksum = NULL` with the
    /// damage makes a row as a writer before checksums (or a hostile file, whose CRC anyone can
    /// compute) leaves it: the reader's own checks meet the damage, not the checksum.
    func journal(_ name: String, _ edits: [SQLEdit]) throws -> String {
        let path = directory.path(name)
        try Data(try maker.apply(edits)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The fixture's text form with some lines' members changed (`nil` removes one), as `name`.
    func text(_ name: String, _ changes: [Int: [String: JSONValue?]]) throws -> URL {
        var lines = fixture.jsonl.split(separator: 0x0A).map(Array.init)
        for (index, members) in changes {
            guard case .object(var object) = try JSONValue(parsing: lines[index]) else { throw SQLEdit.Failure(description: "line \(index + 1)") }
            for (key, value) in members { object[key] = value }
            lines[index] = JSONValue.object(object).canonicalBytes
        }
        let url = directory.url.appendingPathComponent(name)
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: url)
        return url
    }

    func findings(_ path: String) throws -> [String] {
        try Journal(path: path).verify().findings.map(\.description)
    }

    func importError(_ url: URL) -> String? {
        do {
            try Journal.importJSONL(at: url, into: directory.path("imported-\(UUID().uuidString).actionlog"))
            return nil
        } catch {
            return error.description
        }
    }

    func checkError(_ url: URL) -> String? {
        do {
            try RecordedSession(contentsOfJSONL: url).checkImportable()
            return nil
        } catch {
            return error.description
        }
    }

    static func message(_ body: () throws -> some Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Gaps and sequence numbers at the edges of Int64

    @Test("a gap that lost Int64.max actions: findings and named errors, no trap")
    func gapOfInt64Max() throws {
        let max = SQLValue.integer(.max)
        let path = try journal("gaps.actionlog", [
            SQLEdit("UPDATE entries SET dropped = ?1, checksum = NULL WHERE session_id = 2 AND seq = 6", [max]),
            SQLEdit("UPDATE entries SET kind = 'gap', state = NULL, action = NULL, label = NULL, dropped = ?1, checksum = NULL WHERE session_id = 2 AND seq = 9", [max]),
        ])
        // Entry 10, a delta, now follows a gap: it patches entry 8's state, and applies.
        #expect(try findings(path) == [
            "session 2, entry 9: the gaps lose more actions than can be counted (9223372036854775807 before this one, then 9223372036854775807)",
            "session 2: the session counts 2 dropped actions, but its gaps add up to 9223372036854775807",
        ])
        #expect(Self.message { try Journal(path: path).state(at: 6, in: 2) } == "gaps.actionlog, session 2, entry 6: a gap: 9223372036854775807 actions were lost here, so no state was recorded")
        let url = try text("gaps.jsonl", [
            7: ["dropped": .number("9223372036854775807")],
            10: ["kind": "gap", "patch": nil, "action": nil, "label": nil, "dropped": .number("9223372036854775807")],
        ])
        let overflow = "gaps.jsonl, entry 9: line 11: the gaps lose more actions than can be counted (9223372036854775807 before this one, then 9223372036854775807)"
        #expect(importError(url) == overflow)
        #expect(checkError(url) == overflow)
        let beyond = try text("beyond.jsonl", [7: ["dropped": .number("9223372036854775808")]])
        #expect(importError(beyond) == #"beyond.jsonl, entry 6: line 8: "dropped" must be an integer, not 9223372036854775808"#)
    }

    @Test("an entry at seq Int64.max: findings and named errors, no trap")
    func sequenceNumberInt64Max() throws {
        let path = try journal("seq.actionlog", [SQLEdit("UPDATE entries SET seq = ?1, checksum = NULL WHERE session_id = 1 AND seq = 12", [.integer(.max)])])
        #expect(try findings(path) == ["session 1, entry 12: missing: entries 12...9223372036854775806 are not in the file"])
        let journal = try Journal(path: path)
        // A keyframe stands alone: its state reads without the entries before it, which verify checks.
        #expect(try journal.entry(.max, in: 1).kind == .keyframe)
        #expect(try journal.state(at: .max, in: 1).decode(Basket.self) == fixture.states[12])
        #expect(Self.message { try journal.recordedSession(1).checkImportable() } == "seq.actionlog, session 1, entry 12: missing: entries 12...9223372036854775806 are not in the file")
        #expect(try journal.entries(in: 1).map(\.seq).suffix(2) == [11, .max])
        let url = try text("seq.jsonl", [13: ["seq": .number("9223372036854775807")]])
        #expect(importError(url) == "seq.jsonl, entry 9223372036854775807: line 14: entry 9223372036854775807 where entry 12 was expected: entries run 0, 1, 2, … without holes")
    }

    @Test("a handler record at seq Int64.max: verify finishes with one finding, the other readers leave it out or name it")
    func handlerRecordAtInt64Max() throws {
        // Verify walks handler records a window at a time: it must jump to the next record, not step
        // through the 2⁶³ seqs in between.
        let path = try journal("handler.actionlog", [
            SQLEdit("UPDATE handlers SET seq = ?1 WHERE session_id = 2 AND seq = 1", [.integer(.max)]),
            SQLEdit("UPDATE calls SET seq = ?1 WHERE session_id = 2 AND seq = 1", [.integer(.max)]),
        ])
        let found = try findings(path)
        #expect(found == ["session 2: a handler's seq 9223372036854775807 is out of range"])
        let journal = try Journal(path: path)
        #expect(Self.message { try journal.handlerRecords(in: 2) } == "handler.actionlog, session 2: a handler's seq 9223372036854775807 is out of range")
        // Export reads the records of the entries the session has, a window at a time: the row far
        // past the end is not among them, and what it writes reads back.
        let exported = directory.path("handler.jsonl")
        _ = FileManager.default.createFile(atPath: exported, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: exported))
        try journal.exportJSONL(2, to: handle)
        try handle.close()
        #expect(try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: exported)).handlers == Array(HostileFixture.handlers.dropFirst()))
    }

    @Test("a damaged call row is named with its session and entry by every reader of handler records")
    func damagedCallRow() throws {
        let path = try journal("call.actionlog", [SQLEdit("UPDATE calls SET arguments = ?1 WHERE session_id = 2 AND seq = 3 AND idx = 0", [.text("{}")])])
        let message = "call.actionlog, session 2, entry 3: the arguments of call 0 are not a JSON array"
        #expect(try findings(path) == ["session 2, entry 3: the arguments of call 0 are not a JSON array"])
        let journal = try Journal(path: path)
        #expect(Self.message { try journal.handlerRecords(in: 2) } == message)
        #expect(Self.message { try journal.recordedSession(2) } == message)
        #expect(Self.message {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
            try journal.exportJSONL(2, to: handle)
        } == message)
        // Session 1 has no handler records and reads as before.
        #expect(try journal.recordedSession(1).entries.count == HostileFixture.actions.count + 1)
    }

    @Test("a handler's seq stored as text: verify finishes with a finding, and every reader of handler records refuses it")
    func handlerSeqAsText() throws {
        // SQLite orders a text after every number and reads it as 0: a walk that asked for "the next
        // seq" would come back to 0 for ever.
        let path = try journal("text-seq.actionlog", [SQLEdit("UPDATE handlers SET seq = ?1 WHERE session_id = 2 AND seq = 11", [.text("soon")])])
        let found = try findings(path)
        #expect(found == ["session 2: a handler's seq holds text, not an integer"])
        let journal = try Journal(path: path)
        let message = "text-seq.actionlog, session 2: a handler's seq holds text, not an integer"
        #expect(Self.message { try journal.handlerRecords(in: 2) } == message)
        #expect(Self.message {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
            try journal.exportJSONL(2, to: handle)
        } == message)
    }

    @Test("calls whose handler row is gone: verify reports them, and the readers of handler records name the entry")
    func orphanedCalls() throws {
        let path = try journal("orphan.actionlog", [SQLEdit("DELETE FROM handlers WHERE session_id = 2 AND seq = 1", [])])
        #expect(try findings(path) == ["session 2, entry 1: call 0 belongs to no handler"])
        let journal = try Journal(path: path)
        #expect(Self.message { try journal.handlerRecords(in: 2) } == "orphan.actionlog, session 2, entry 1: call 0 belongs to no handler")
    }

    @Test("a sequence number stored as a real number is refused, not read as the integer below it")
    func misstoredSequenceNumber() throws {
        let path = try journal("real.actionlog", [SQLEdit("UPDATE entries SET seq = ?1 WHERE session_id = 1 AND seq = 4", [.real(4.5)])])
        // Entries 3 to 6 are deltas after the keyframe at 2: entry 4 is on the way to 5.
        let misstored = "real.actionlog, session 1, entry 4: the sequence number is stored as a real number, not as an integer"
        #expect(try findings(path) == ["session 1, entry 4: the sequence number is stored as a real number, not as an integer"])
        let journal = try Journal(path: path)
        #expect(Self.message { try journal.state(at: 4, in: 1) } == "real.actionlog, session 1, entry 4: no such entry")
        #expect(Self.message { try journal.state(at: 5, in: 1) } == misstored)
        #expect(Self.message { try journal.entries(in: 1) } == misstored)
    }

    // MARK: - Indexes that answer out of order

    /// Edits that point `table` at a b-tree holding, for `session`, the integer seqs `seqs` and
    /// `texts` seqs that are text, stored in descending order where the schema says ascending: a
    /// damaged index. A lookup of "the first seq from N on" binary-searches it, lands among the
    /// texts, passes over them and answers the first integer after them, whatever N.
    static func descendingIndex(
        _ table: String, columns: String, primaryKey: String, session: Int64, seqs: ClosedRange<Int>, texts: Int, rest: String
    ) -> [SQLEdit] {
        [
            SQLEdit("CREATE TABLE damaged (\(columns), PRIMARY KEY (\(primaryKey))) WITHOUT ROWID", []),
            SQLEdit("""
                WITH RECURSIVE n(i) AS (SELECT ?2 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
                INSERT INTO damaged SELECT ?1, i, \(rest) FROM n
                """, [.integer(session), .integer(Int64(seqs.lowerBound)), .integer(Int64(seqs.upperBound))]),
            SQLEdit("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                INSERT INTO damaged SELECT ?1, 'text ' || i, \(rest) FROM n
                """, [.integer(session), .integer(Int64(texts))]),
            SQLEdit("PRAGMA writable_schema = ON", []),
            SQLEdit("UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 'damaged') WHERE name = ?1", [.text(table)]),
        ]
    }

    /// A finding with SQLite's page numbers as `N`.
    static func withoutPageNumbers(_ finding: String) -> String {
        finding.replacing(/[Pp]age \d+/) { match in match.output.first == "P" ? "Page N" : "page N" }
    }

    @Test("handler records whose index answers an earlier entry: verify finishes, naming it, instead of reading the same windows for ever")
    func handlerIndexOutOfOrder() throws {
        let path = try journal("handler-index.actionlog", Self.descendingIndex(
            "handlers", columns: "session_id INTEGER NOT NULL, seq NOT NULL, started INTEGER NOT NULL",
            primaryKey: "session_id, seq DESC", session: 2, seqs: 1...12, texts: 13, rest: "0"))
        // Which pages SQLite names depends on the file's layout (its tables and indexes), not on the damage.
        #expect(try findings(path).map(Self.withoutPageNumbers) == [
            "SQLite integrity check: *** in database main ***\\u{A}2nd reference to page N\\u{A}Page N is never used",
            "session 2: a handler's seq holds text, not an integer",
            "session 2, entry 12: the handler records are out of order: the first from entry 4096 on is entry 12; the file's index is damaged",
        ])
    }

    @Test("entries whose index answers rows before the page asked for: the walk ends with a named error instead of reading them again")
    func entryIndexOutOfOrder() throws {
        let path = try journal("entry-index.actionlog", Self.descendingIndex(
            "entries",
            columns: """
                session_id INTEGER NOT NULL, seq NOT NULL, kind TEXT NOT NULL, time REAL NOT NULL, label TEXT, action TEXT,
                state TEXT, effect TEXT, duration_ns INTEGER, dropped INTEGER, note TEXT
                """,
            primaryKey: "session_id, seq DESC", session: 1, seqs: 0...599, texts: 1,
            rest: "'keyframe', 0, 'add', '{\"add\":1}', '0', NULL, NULL, NULL, NULL"))
        // The first page holds the text row, then entries 599 down to 89; the next one, asked from
        // entry 90 on, answers the same rows: the walk ends there, naming the damage, and each row
        // is reported once.
        let found = try findings(path)
        #expect(found.count == 526)
        #expect(Set(found).count == found.count)
        #expect(Array(found.prefix(5)).map(Self.withoutPageNumbers) == [
            "SQLite integrity check: *** in database main ***\\u{A}2nd reference to page N\\u{A}Page N is never used",
            "session 1: an entry's sequence number is stored as text, not as an integer",
            "session 1, entry 1: missing: entries 1...598 are not in the file",
            "session 1, entry 598: out of order: entry 600 was expected",
            "session 1, entry 597: out of order: entry 600 was expected",
        ])
        #expect(found.filter { $0.hasPrefix("session 1, entry 89:") || $0.hasPrefix("session 1, entry 90:") } == [
            "session 1, entry 90: out of order: entry 600 was expected",
            "session 1, entry 89: out of order: entry 600 was expected",
            "session 1, entry 90: the entries' index is damaged: asked for the entries from 90 on, it answered entry 89 last",
        ])
        #expect(Self.message { try Journal(path: path).entries(in: 1) } == "entry-index.actionlog, session 1: an entry's sequence number is stored as text, not as an integer")
    }

    @Test("a sequence number stored as text at the end of a full page: the walk reads every row once and names it")
    func textSequenceNumberEndsAPage() throws {
        // 1,023 entries and the text row, which SQLite orders last: the second page of 512 rows ends
        // with it, and reading it as entry 0 would start the walk again from entry 1.
        let path = try journal("text-page.actionlog", [
            SQLEdit("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1023)
                INSERT OR IGNORE INTO entries SELECT 1, i, 'keyframe', 0, 'add', '{"add":1}', '0', NULL, NULL, NULL, NULL, NULL FROM n
                """, []),
            SQLEdit("UPDATE entries SET seq = 'soon' WHERE session_id = 1 AND seq = 1023", []),
        ])
        let verification = try Journal(path: path).verify()
        #expect(verification.findings.map(\.description) == ["session 1: an entry's sequence number is stored as text, not as an integer"])
        #expect(verification.entries == 1024 + HostileFixture.actions.count + 1)
    }

    @Test("a session that ended before it started: verify reports it in a journal, every reader of the text form refuses it")
    func endedBeforeStarted() throws {
        let path = try journal("ended.actionlog", [SQLEdit("UPDATE sessions SET ended_at = started_at - 1 WHERE id = 1", [])])
        #expect(try findings(path) == ["session 1: ended before it started"])
        let url = try text("ended.jsonl", [0: ["endedAt": .number("1"), "startedAt": .number("2")]])
        let message = "ended.jsonl: line 1: the session ended before it started"
        #expect(importError(url) == message)
        #expect(checkError(url) == message)
        #expect(try RecordedSession.verifyJSONL(at: url).findings.map(\.description) == ["line 1: the session ended before it started"])
    }

    @Test("entries of an asynchronous session without their handler records: verify names them, the text form's readers refuse the line")
    func missingHandlerRecords() throws {
        // Session 2 holds handler records; its metadata says it is an actor ViewModel's here.
        let metadata = #"{"actionlog.architecture":"actorViewModel"}"#
        let actor = try journal("actor.actionlog", [SQLEdit("UPDATE sessions SET metadata = ?1 WHERE id = 2", [.text(metadata)])])
        #expect(try findings(actor).isEmpty)
        let path = try journal("unrecorded.actionlog", [
            SQLEdit("UPDATE sessions SET metadata = ?1 WHERE id = 2", [.text(metadata)]),
            SQLEdit("DELETE FROM calls WHERE session_id = 2 AND seq = 1", []), SQLEdit("DELETE FROM handlers WHERE session_id = 2 AND seq = 1", []),
        ])
        let message = "no handler record, which every entry of an actor ViewModel session after the first has (its service calls and its place in the run order)"
        #expect(try findings(path) == ["session 2, entry 1: " + message])
        let lines = fixture.jsonl.split(separator: 0x0A)
        let line = try #require(lines.firstIndex { $0.starts(with: Array(#"{"seq":1,"#.utf8)) })
        let header: [String: JSONValue?] = ["metadata": .object(["actionlog.architecture": .string("actorViewModel")])]
        #expect(importError(try text("actor.jsonl", [0: header])) == nil)
        let url = try text("unrecorded.jsonl", [0: header, line: ["handler": nil]])
        #expect(importError(url) == "unrecorded.jsonl, entry 1: line \(line + 1): " + message)
        #expect(checkError(url) == "unrecorded.jsonl, entry 1: line \(line + 1): " + message)
    }

    // MARK: - Patches that would build what no journal may hold

    @Test("a patch bomb is refused by state(at:), reported by verify, refused by import")
    func patchBomb() throws {
        let path = try journal("bomb.actionlog", [
            SQLEdit("UPDATE entries SET kind = 'delta', state = ?1, checksum = NULL WHERE session_id = 1 AND seq = 3", [.text(MutantMaker.patchBomb)])
        ])
        let journal = try Journal(path: path)
        let refusal = """
            the delta does not apply: operation 14 (copy "" to /b14): the patches would grow the state past 1048576 bytes, \
            the bound of a state rebuilt from 61 bytes stored since its keyframe (4 times those, or 1048576, whichever is larger)
            """
        #expect(Self.message { try journal.state(at: 3, in: 1) } == "bomb.actionlog, session 1, entry 3: \(refusal)")
        #expect(try findings(path) == ["session 1, entry 3: \(refusal)"])
        let url = try text("bomb.jsonl", [4: ["kind": "delta", "state": nil, "patch": try JSONValue(parsing: MutantMaker.patchBomb)]])
        #expect(importError(url) == "bomb.jsonl, entry 3: line 5: \(refusal)")
        #expect(checkError(url) == "bomb.jsonl, entry 3: line 5: \(refusal)")
    }

    @Test("nesting built through a chain of patches, each within the parser's limit, stops at 512 levels")
    func deepChain() throws {
        let path = try journal("deep.actionlog", (0..<8).map { index in
            SQLEdit("UPDATE entries SET kind = 'delta', state = ?2, checksum = NULL WHERE session_id = 1 AND seq = ?1", [.integer(Int64(index + 1)), .text(MutantMaker.deepeningPatch(index))])
        })
        let journal = try Journal(path: path)
        // Five patches nest the state 501 levels deep: allowed, and every reader copes.
        let deepest = try journal.state(at: 5, in: 1)
        #expect(deepest.measure().depth == 501)
        let path600 = "/deep" + String(repeating: "/d", count: 500)
        let refusal = "the delta does not apply: operation 0 (add \(path600)): the state would nest 601 levels deep, deeper than the 512 levels a journal may hold"
        #expect(Self.message { try journal.state(at: 6, in: 1) } == "deep.actionlog, session 1, entry 6: \(refusal)")
        #expect(Self.message { try journal.state(at: 8, in: 1) } == "deep.actionlog, session 1, entry 6: \(refusal)")
        #expect(try findings(path) == ["session 1, entry 6: \(refusal)"])
        var changes: [Int: [String: JSONValue?]] = [:]
        for index in 0..<8 {
            changes[index + 2] = ["kind": "delta", "state": nil, "patch": try JSONValue(parsing: MutantMaker.deepeningPatch(index))]
        }
        // Entry 6 of the text form is a gap: it becomes an entry with an action, so the chain runs on.
        changes[7]?["action"] = ["note": ["_0": "deeper"]]
        changes[7]?["label"] = "note"
        changes[0] = ["dropped": 0]
        let url = try text("deep.jsonl", changes)
        #expect(importError(url) == "deep.jsonl, entry 6: line 8: \(refusal)")
        #expect(checkError(url) == "deep.jsonl, entry 6: line 8: \(refusal)")
    }

    @Test("a stored state nested past 512 levels is refused by the parser, in a journal and in a line of the text form")
    func storedTooDeep() throws {
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let path = try journal("stored.actionlog", [SQLEdit("UPDATE entries SET state = ?1 WHERE session_id = 1 AND seq = 0", [.text(tooDeep)])])
        let refusal = "the state is not valid JSON: invalid JSON at byte 512: nesting deeper than 512 levels"
        #expect(Self.message { try Journal(path: path).state(at: 0, in: 1) } == "stored.actionlog, session 1, entry 0: \(refusal)")
        #expect(try findings(path) == ["session 1, entry 0: \(refusal)"])
        // A line wraps the state in one object more: it may nest 513 levels, its state 512.
        let url = try text("stored.jsonl", [1: ["state": try JSONValue(parsing: String(tooDeep.dropFirst().dropLast()))]])
        #expect(checkError(url) == nil)
        let deeper = try text("deeper.jsonl", [1: ["state": .array([try JSONValue(parsing: String(tooDeep.dropFirst().dropLast()))])]])
        #expect(importError(deeper) == "deeper.jsonl, entry 0: line 2: not JSON: invalid JSON at byte 547: nesting deeper than 513 levels")
    }

    // MARK: - Text that is not UTF-8

    @Test("bytes that are not UTF-8: refused in a JSON column, read as U+FFFD in a label")
    func invalidUTF8() throws {
        let state = Array(#"{"items":[],"note":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        let path = try journal("utf8.actionlog", [
            SQLEdit("UPDATE entries SET state = CAST(?1 AS TEXT), checksum = NULL WHERE session_id = 1 AND seq = 0", [.blob(state)]),
            SQLEdit("UPDATE entries SET label = CAST(?1 AS TEXT), checksum = NULL WHERE session_id = 1 AND seq = 1", [.blob([0x61, 0xFF, 0x64])]),
        ])
        let journal = try Journal(path: path)
        #expect(Self.message { try journal.state(at: 0, in: 1) } == "utf8.actionlog, session 1, entry 0: the state is not valid JSON: invalid JSON at byte 20: invalid UTF-8 in a string")
        #expect(try findings(path) == ["session 1, entry 0: the state is not valid JSON: invalid JSON at byte 20: invalid UTF-8 in a string"])
        #expect(try journal.entry(1, in: 1).label == "a\u{FFFD}d")
        // In the text form, a label that is not UTF-8 makes its line not JSON.
        var bytes = fixture.jsonl
        let label = Array(#""label":"add""#.utf8)
        let at = try #require(bytes.firstRange(of: label))
        bytes.replaceSubrange(at, with: Array(#""label":"a"#.utf8) + [0xFF] + Array(#"d""#.utf8))
        let url = directory.url.appendingPathComponent("utf8.jsonl")
        try Data(bytes).write(to: url)
        let refused = "utf8.jsonl, entry 1: line 3: not JSON: invalid JSON at byte 36: invalid UTF-8 in a string"
        #expect(Self.message { try RecordedSession(contentsOfJSONL: url) } == refused)
        #expect(importError(url) == refused)
    }
}
