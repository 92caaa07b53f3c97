import ActionLog
import CSQLite
import Foundation

/// Which file a mutant damages.
package enum MutantTarget: Sendable {
    case journal
    case text
}

/// One damaged file, made from a seed: ``description`` says what was done, for reproduction.
package struct Mutant: Sendable {
    package let seed: UInt64
    package let target: MutantTarget
    package let description: String
    /// The damaged file's bytes; for SQL edits, the journal after the edit.
    package let bytes: [UInt8]
}

/// Makes mutants of the fixture's journal and text form.
///
/// A third of them are byte-level (truncations, bit flips, scribbles); the rest edit what the
/// readers interpret: entry rows through the sqlite3 C API (every value bound), and fields of the
/// text form's lines; a few are patch bombs and nesting built through a chain of patches.
package struct MutantMaker {
    package let fixture: HostileFixture
    package let directory: TemporaryDirectory

    package init(fixture: HostileFixture, directory: TemporaryDirectory) {
        self.fixture = fixture
        self.directory = directory
    }

    package func mutant(seed: UInt64) throws -> Mutant {
        var random = SeededGenerator(seed: seed)
        // Out of 48. Patch bombs are rarer still (1 in 192): each costs every reader that meets it the
        // measuring of 1 MiB (the allowance) before it is refused, 2–3 s a mutant in a debug build;
        // `PinnedHostileTests` pins one through every reader.
        switch random.next() % 48 {
        case 0..<6: return bytes(.journal, seed: seed, &random)
        case 6..<14: return bytes(.text, seed: seed, &random)
        case 14..<18: return textLines(seed: seed, &random)
        case 18..<26: return textField(seed: seed, &random)
        case 26, 27: return try bomb(deep: random.next() % 8 != 0, seed: seed, &random)
        default: return try sqlEdit(seed: seed, &random)
        }
    }

    // MARK: - Bytes

    private func bytes(_ target: MutantTarget, seed: UInt64, _ random: inout SeededGenerator) -> Mutant {
        var bytes = target == .journal ? fixture.journal : fixture.jsonl
        let name = target == .journal ? "journal" : "text"
        let description: String
        switch random.next() % 4 {
        case 0:
            let offset = Int.random(in: 0..<bytes.count, using: &random)
            bytes.removeSubrange(offset...)
            description = "\(name) truncated at byte \(offset)"
        case 1:
            let flips = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                (Int.random(in: 0..<bytes.count, using: &random), UInt8(1) << UInt8.random(in: 0..<8, using: &random))
            }
            for (offset, bit) in flips { bytes[offset] ^= bit }
            description = "\(name) bits flipped: " + flips.map { "byte \($0.0) ^ \($0.1)" }.joined(separator: ", ")
        case 2:
            let offset = Int.random(in: 0..<bytes.count, using: &random)
            let count = min(Int.random(in: 1...64, using: &random), bytes.count - offset)
            for index in offset..<offset + count { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            description = "\(name) bytes \(offset)..<\(offset + count) scribbled over"
        default:
            let offset = Int.random(in: 0...bytes.count, using: &random)
            let insert = Self.hostileBytes.randomElement(using: &random) ?? []
            bytes.insert(contentsOf: insert, at: offset)
            description = "\(name): \(insert) inserted at byte \(offset)"
        }
        return Mutant(seed: seed, target: target, description: description, bytes: bytes)
    }

    /// Invalid UTF-8, control characters, line breaks, a byte-order mark, NUL.
    package static let hostileBytes: [[UInt8]] = [
        [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x00], [0x0A], [0x0D], [0x0D, 0x0A, 0x0A],
        [0x1B, 0x5B, 0x33, 0x31, 0x6D], [0xEF, 0xBB, 0xBF], [0x5C], [0x22], [0x7B], [0x5D],
    ]

    // MARK: - Lines of the text form

    private func lines() -> [[UInt8]] {
        fixture.jsonl.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }

    private static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        Array(lines.joined(separator: [0x0A]))
    }

    private func textLines(seed: UInt64, _ random: inout SeededGenerator) -> Mutant {
        var lines = lines()
        let count = lines.count - 1  // The last is the empty text after the final newline.
        let index = Int.random(in: 0..<count, using: &random)
        let description: String
        switch random.next() % 4 {
        case 0:
            lines.remove(at: index)
            description = "text: line \(index + 1) removed"
        case 1:
            lines.insert(lines[index], at: index)
            description = "text: line \(index + 1) doubled"
        case 2:
            let other = Int.random(in: 0..<count, using: &random)
            lines.swapAt(index, other)
            description = "text: lines \(index + 1) and \(other + 1) swapped"
        default:
            lines.insert([], at: index + 1)
            description = "text: a blank line after line \(index + 1)"
        }
        return Mutant(seed: seed, target: .text, description: description, bytes: Self.joined(lines))
    }

    /// Values of the wrong kind, or at the edges of what a number can hold.
    package static let hostileValues: [String] = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-1", "0", "1e999", "-1e308", "1e308",
        "0.5", "null", "true", #""""#, #""\u0000\u001b[31m""#, #""\ud800""#, "[]", "{}", #"[{"op":"nope","path":""}]"#,
        #"[{"op":"remove","path":"/items/999"}]"#, #"{"op":"add","path":"/a","value":1}"#, #"[{"op":"add","path":"/a"}]"#,
        #""keyframe""#, #""delta""#, #""gap""#, #""snapshot""#, #""closed""#, #""paused""#,
        #"[{"op":"add","path":"/items/99999999999999999999","value":1}]"#, #"[{"op":"move","from":"","path":"/x"}]"#,
        #"[{"op":"test","path":"/note","value":1e99999999999999999999}]"#, #"[{"op":"remove","path":""}]"#,
        String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
        // Handler records (the `handler` member): numbers at the edges, records of no known kind, calls
        // with both outcomes or neither, names with control characters, arguments that are not an array.
        #"{"started":-1,"records":[]}"#, #"{"started":2147483648,"records":[]}"#, #"{"started":1e999,"records":[]}"#,
        #"{"started":0}"#, #"{"started":0,"records":{}}"#, #"{"started":0,"records":[{"call":{},"output":{}}]}"#,
        #"{"started":0,"records":[{"call":{"service":"S","method":"m","arguments":[],"result":1,"error":2,"answered":0}}]}"#,
        #"{"started":0,"records":[{"call":{"service":"S","method":"m","arguments":{},"result":1,"answered":0}}]}"#,
        #"{"started":0,"records":[{"call":{"service":"S\u0000\u001b[31m","method":"m\n","arguments":[],"result":null,"answered":9223372036854775807}}]}"#,
        #"{"started":0,"records":[{"output":{"label":"\ud800","event":{}}}]}"#, #"{"started":0,"records":[{"output":{"label":"x"}}]}"#,
    ]
    package static let entryKeys = ["seq", "kind", "label", "time", "durationNs", "action", "effect", "state", "patch", "dropped", "note", "handler", "handler", "handler"]
    package static let headerKeys = ["actionlog", "format", "name", "status", "startedAt", "endedAt", "dropped", "metadata", "stateType"]

    private func textField(seed: UInt64, _ random: inout SeededGenerator) -> Mutant {
        var lines = lines()
        let index = Int.random(in: 0..<(lines.count - 1), using: &random)
        let key = (index == 0 ? Self.headerKeys : Self.entryKeys).randomElement(using: &random) ?? "seq"
        let remove = random.next() % 8 == 0
        let value = Self.hostileValues.randomElement(using: &random) ?? "null"
        guard case .object(var members)? = try? JSONValue(parsing: lines[index]) else {
            return Mutant(seed: seed, target: .text, description: "text unchanged", bytes: fixture.jsonl)
        }
        var line = "{"
        if remove {
            members[key] = nil
        } else {
            members[key] = .null  // A placeholder, written as the raw value below.
        }
        // Written by hand, so that values the parser refuses (1e999 parses; a lone surrogate does not) reach the reader as text.
        line += members.sorted { $0.key < $1.key }.map { member in
            let text = member.key == key && !remove ? value : member.value.canonicalText
            return "\(JSONValue.string(member.key).canonicalText):\(text)"
        }.joined(separator: ",")
        line += "}"
        lines[index] = Array(line.utf8)
        let description = remove ? "text line \(index + 1): \"\(key)\" removed" : "text line \(index + 1): \"\(key)\" = \(value.prefix(60))"
        return Mutant(seed: seed, target: .text, description: description, bytes: Self.joined(lines))
    }

    // MARK: - Patch bombs and deep chains

    /// A delta that copies the whole state into a new member of itself forty times over: each copy
    /// doubles it, so applied in full it would weigh 2⁴⁰ times the state.
    package static let patchBomb: String = {
        "[" + (0..<40).map { #"{"op":"copy","from":"","path":"/b\#($0)"}"# }.joined(separator: ",") + "]"
    }()

    /// The `index`-th (from 0) of a chain of patches each nesting the state 100 levels deeper at its
    /// deepest point: patch `i` leaves it `100 × (i + 1) + 1` levels deep.
    package static func deepeningPatch(_ index: Int) -> String {
        let path = "/deep" + String(repeating: "/d", count: 100 * index)
        let value = String(repeating: #"{"d":"#, count: 99) + "{}" + String(repeating: "}", count: 99)
        return #"[{"op":"add","path":"\#(path)","value":\#(value)}]"#
    }

    private func bomb(deep: Bool, seed: UInt64, _ random: inout SeededGenerator) throws -> Mutant {
        let seq = Int.random(in: 1...HostileFixture.actions.count, using: &random)
        if random.next() % 2 == 0 {
            // Text form: session 2 (a gap at 6, a keyframe at 7).
            var lines = lines()
            let count = deep ? 8 : 1
            for offset in 0..<count {
                let line = seq + 1 + offset
                guard line < lines.count - 1, case .object(var members)? = try? JSONValue(parsing: lines[line]) else { continue }
                if members["kind"] == .string("gap") {
                    // The gap becomes an entry with an action, so that the chain runs on.
                    members["action"] = ["note": ["_0": "deeper"]]
                    members["label"] = "note"
                    members["dropped"] = nil
                    members["note"] = nil
                }
                members["kind"] = .string("delta")
                members["state"] = nil
                members["patch"] = try JSONValue(parsing: deep ? Self.deepeningPatch(offset) : Self.patchBomb)
                lines[line] = JSONValue.object(members).canonicalBytes
            }
            let what = deep ? "a chain of 8 deepening patches" : "a patch bomb"
            return Mutant(seed: seed, target: .text, description: "text: \(what) from entry \(seq)", bytes: Self.joined(lines))
        }
        let session = Int64.random(in: 1...2, using: &random)
        let edits: [SQLEdit] = deep
            ? (0..<8).map { offset in
                SQLEdit(
                    "UPDATE entries SET kind = 'delta', state = ?3 WHERE session_id = ?1 AND seq = ?2 AND kind <> 'gap'",
                    [.integer(session), .integer(Int64(seq + offset)), .text(Self.deepeningPatch(offset))])
            }
            : [SQLEdit("UPDATE entries SET kind = 'delta', state = ?3 WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(Int64(seq)), .text(Self.patchBomb)])]
        let what = deep ? "a chain of 8 deepening patches" : "a patch bomb"
        return Mutant(seed: seed, target: .journal, description: "journal session \(session): \(what) from entry \(seq)", bytes: try apply(edits))
    }

    // MARK: - SQL edits of rows

    private func sqlEdit(seed: UInt64, _ random: inout SeededGenerator) throws -> Mutant {
        let session = Int64.random(in: 1...2, using: &random)
        let seq = Int64.random(in: 0...Int64(HostileFixture.actions.count), using: &random)
        let gap = Int64(HostileFixture.gapSeq)
        let values = Self.hostileSQLValues
        func pick(_ choices: [SQLValue]) -> SQLValue { choices.randomElement(using: &random) ?? .null }
        let edit: SQLEdit
        switch random.next() % 12 {
        case 0:
            let value = pick([.integer(.max), .integer(.min), .integer(-1), .real(Double(seq) + 0.5), .text(String(seq + 1)), .integer(seq + 100), .real(.infinity)])
            edit = SQLEdit("UPDATE OR IGNORE entries SET seq = ?3 WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(seq), value])
        case 1:
            let value = pick([.integer(.max), .integer(.min), .integer(0), .integer(-1), .text("many"), .real(1e300), .null])
            edit = SQLEdit("UPDATE entries SET dropped = ?3 WHERE session_id = ?1 AND seq = ?2", [.integer(2), .integer(random.next() % 2 == 0 ? gap : seq), value])
        case 2:
            let value = pick([.integer(.max), .integer(.min), .integer(-1), .integer(Int64(HostileFixture.gapDropped) + 1)])
            edit = SQLEdit("UPDATE sessions SET dropped = ?2 WHERE id = ?1", [.integer(session), value])
        case 3:
            let value = pick([.text("snapshot"), .text(""), .text("Keyframe"), .text("keyframe"), .text("delta"), .text("gap"), .blob([0x64, 0x65, 0x6C, 0x74, 0x61, 0x00])])
            edit = SQLEdit("UPDATE entries SET kind = ?3 WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(seq), value])
        case 4:
            let column = ["state", "action", "label", "effect", "note"].randomElement(using: &random) ?? "state"
            // Column names come from the list above, never from the file; values are bound.
            // A blob cast to text keeps its bytes: invalid UTF-8 in a text column.
            let value = random.next() % 2 == 0 ? "?3" : "CAST(?3 AS TEXT)"
            edit = SQLEdit("UPDATE entries SET \(column) = \(value) WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(seq), pick(values)])
        case 5:
            let value = pick([.real(.infinity), .real(-.infinity), .real(1e308), .real(-1e308), .text("yesterday"), .integer(.max)])
            let column = random.next() % 2 == 0 ? "time" : "duration_ns"
            let stored = column == "duration_ns" ? pick([.integer(.max), .integer(.min), .real(1e300), .text("long")]) : value
            edit = SQLEdit("UPDATE entries SET \(column) = ?3 WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(seq), stored])
        case 6:
            let column = ["status", "metadata", "started_at", "ended_at", "name", "library_version"].randomElement(using: &random) ?? "status"
            let value = pick([.text("paused"), .text("["), .text("42"), .real(.infinity), .real(-.infinity), .blob([0xFF, 0xFE]), .text("{}"), .integer(.max)])
            edit = SQLEdit("UPDATE sessions SET \(column) = ?2 WHERE id = ?1", [.integer(session), value])
        case 7:
            edit = random.next() % 2 == 0
                ? SQLEdit("DELETE FROM entries WHERE session_id = ?1 AND seq = ?2", [.integer(session), .integer(seq)])
                : SQLEdit("DELETE FROM sessions WHERE id = ?1", [.integer(session)])
        case 9, 10:
            edit = handlerEdit(seq: max(1, seq), &random)
        default:
            let at = pick([.integer(.max), .integer(.max - 1), .integer(-5), .integer(Int64(HostileFixture.actions.count) + 1)])
            edit = SQLEdit(
                "INSERT OR IGNORE INTO entries (session_id, seq, kind, time, dropped) VALUES (?1, ?2, 'gap', 0, ?3)",
                [.integer(session), at, pick([.integer(1), .integer(.max)])])
        }
        return Mutant(seed: seed, target: .journal, description: "journal: \(edit)", bytes: try apply([edit]))
    }

    /// An edit of session 2's `handlers` or `calls` rows (see ``HostileFixture/handlers``): numbers
    /// out of range or of the wrong type, kinds and texts a reader cannot take, rows removed, rows
    /// for entries the session does not have, calls out of order.
    private func handlerEdit(seq: Int64, _ random: inout SeededGenerator) -> SQLEdit {
        func pick(_ choices: [SQLValue]) -> SQLValue { choices.randomElement(using: &random) ?? .null }
        let numbers: [SQLValue] = [.integer(.max), .integer(.min), .integer(-1), .integer(Int64(Int32.max) + 1), .real(0.5), .real(.infinity), .text("3"), .text("soon"), .null]
        let session = SQLValue.integer(2)
        switch random.next() % 8 {
        case 0:
            let column = random.next() % 2 == 0 ? "seq" : "started"
            return SQLEdit("UPDATE OR IGNORE handlers SET \(column) = ?3 WHERE session_id = ?1 AND seq = ?2", [session, .integer(seq), pick(numbers + [.integer(seq + 1), .integer(100)])])
        case 1:
            return SQLEdit("DELETE FROM handlers WHERE session_id = ?1 AND seq = ?2", [session, .integer(seq)])
        case 2:
            // A handler for an entry the session does not have, or at the edges of a seq.
            let at = pick([.integer(100), .integer(.max), .integer(-3), .integer(Int64(HostileFixture.gapSeq))])
            return SQLEdit("INSERT OR IGNORE INTO handlers (session_id, seq, started) VALUES (?1, ?2, ?3)", [session, at, pick(numbers + [.integer(0)])])
        case 3:
            let column = ["seq", "idx", "answered"].randomElement(using: &random) ?? "idx"
            return SQLEdit("UPDATE OR IGNORE calls SET \(column) = ?3 WHERE session_id = ?1 AND seq = ?2 AND idx = 0", [session, .integer(seq), pick(numbers + [.integer(1), .integer(5)])])
        case 4:
            let value = pick([.text("call"), .text("output"), .text("Call"), .text(""), .text(" call"), .blob([0x63, 0x61, 0x6C, 0x6C, 0x00])])
            return SQLEdit("UPDATE OR IGNORE calls SET kind = ?3 WHERE session_id = ?1 AND seq = ?2", [session, .integer(seq), value])
        case 5:
            // Column names come from the list, never from the file; values are bound, a blob cast to
            // text keeps its bytes (invalid UTF-8 in a text column).
            let column = ["service", "name", "arguments", "result", "error", "event"].randomElement(using: &random) ?? "arguments"
            let value = random.next() % 2 == 0 ? "?3" : "CAST(?3 AS TEXT)"
            return SQLEdit("UPDATE OR IGNORE calls SET \(column) = \(value) WHERE session_id = ?1 AND seq = ?2", [session, .integer(seq), pick(Self.hostileSQLValues)])
        case 6:
            return SQLEdit("DELETE FROM calls WHERE session_id = ?1 AND seq = ?2 AND idx = 0", [session, .integer(seq)])
        default:
            // A call after a gap in the numbering, or for a handler that does not exist.
            let at = pick([.integer(seq), .integer(100), .integer(Int64(HostileFixture.gapSeq))])
            return SQLEdit(
                "INSERT OR IGNORE INTO calls (session_id, seq, idx, kind, service, name, arguments, result, answered) VALUES (?1, ?2, ?3, 'call', 'Prices', 'quote', '[]', '{}', 0)",
                [session, at, pick([.integer(7), .integer(.max), .integer(-1)])])
        }
    }

    package static let hostileSQLValues: [SQLValue] = [
        .blob([0xFF, 0xFE, 0xC3]), .blob([0x22, 0xFF, 0x22]), .blob([0x7B, 0x7D, 0x00, 0x5B]), .text("\u{1}\u{1B}[31m\u{7}"),
        .text(#"{"items":"#), .text("nul\u{0}l"), .text("42"), .text("[1,2,3]"), .text(#"{"op":"add"}"#), .text("null"),
        .text(#"[{"op":"nope","path":""}]"#), .text(#"[{"op":"remove","path":"/items/999"}]"#), .text(#""a string""#), .null,
        .text(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)),
        .text(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)),
        .text("1e999"), .text(#"{"items":[],"note":"\ud800"}"#),
    ] + hostilePatches.map { .text($0) }

    /// Patches that are well-formed JSON Patch text, aimed at the edges of pointers, indices and numbers.
    package static let hostilePatches: [String] = [
        #"[{"op":"add","path":"/items/99999999999999999999","value":1}]"#,
        #"[{"op":"add","path":"/items/9223372036854775807","value":1}]"#,
        #"[{"op":"remove","path":"/items/-1"}]"#, #"[{"op":"remove","path":"/items/01"}]"#,
        #"[{"op":"replace","path":"/items/-","value":1}]"#, #"[{"op":"add","path":"items","value":1}]"#,
        #"[{"op":"add","path":"/~2","value":1}]"#, #"[{"op":"move","from":"/items","path":"/items/0"}]"#,
        #"[{"op":"move","from":"","path":"/x"}]"#, #"[{"op":"copy","from":"/items","path":"/items/-"}]"#,
        #"[{"op":"test","path":"/note","value":1e99999999999999999999}]"#,
        #"[{"op":"test","path":"","value":{"items":[],"note":""}}]"#,
        #"[{"op":"test","path":"/items/0/quantity","value":1e-9223372036854775808}]"#,
        #"[{"op":"remove","path":""}]"#, #"[{"op":"replace","path":"","value":null}]"#,
        #"[{"op":"add","path":"/items/0/name/x","value":1}]"#, #"[{"op":"copy","from":"/nope","path":"/x"}]"#,
    ]

    /// Applies `edits` to a copy of the fixture's journal, returning its bytes.
    package func apply(_ edits: [SQLEdit]) throws -> [UInt8] {
        let path = directory.path("edit-\(UUID().uuidString).actionlog")
        try Data(fixture.journal).write(to: URL(fileURLWithPath: path))
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try SQLEdit.run(edits, on: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

// MARK: - SQL through the C API

/// A value bound to an SQL parameter.
package enum SQLValue: Sendable, CustomStringConvertible {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    package var description: String {
        switch self {
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value.count > 40 ? "text of \(value.utf8.count) bytes \(value.prefix(12).debugDescription)…" : value.debugDescription
        case .blob(let bytes): "blob \(bytes)"
        case .null: "NULL"
        }
    }
}

/// One SQL statement and its bound values.
package struct SQLEdit: Sendable, CustomStringConvertible {
    package let sql: String
    package let values: [SQLValue]

    package init(_ sql: String, _ values: [SQLValue]) {
        self.sql = sql
        self.values = values
    }

    package var description: String { "\(sql) with \(values)" }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// Copies what the write-ahead log holds into the database file and empties the log.
    package static func checkpoint(_ path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
            sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil) == SQLITE_OK
        else {
            throw Failure(description: "cannot checkpoint \(path): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// Runs `edits` in one connection, with CHECK constraints off so rows can hold what the schema forbids.
    package static func run(_ edits: [SQLEdit], on path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            throw Failure(description: "cannot open \(path)")
        }
        func message() -> String { String(cString: sqlite3_errmsg(handle)) }
        // Constant pragmas: journal_mode DELETE, so the edited file holds everything when it is copied.
        for pragma in ["PRAGMA ignore_check_constraints = ON", "PRAGMA journal_mode = DELETE"] {
            guard sqlite3_exec(handle, pragma, nil, nil, nil) == SQLITE_OK else { throw Failure(description: "\(pragma): \(message())") }
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for edit in edits {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, edit.sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: "\(edit.sql): \(message())")
            }
            defer { sqlite3_finalize(statement) }
            for (index, value) in edit.values.enumerated() {
                let position = Int32(index + 1)
                let code: Int32
                switch value {
                case .integer(let int): code = sqlite3_bind_int64(statement, position, int)
                case .real(let double): code = sqlite3_bind_double(statement, position, double)
                case .text(let text): code = sqlite3_bind_text(statement, position, text, Int32(text.utf8.count), transient)
                case .blob(let bytes): code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), transient) }
                case .null: code = sqlite3_bind_null(statement, position)
                }
                guard code == SQLITE_OK else { throw Failure(description: "binding \(value) in \(edit.sql): \(message())") }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw Failure(description: "\(edit.sql): \(message())") }
        }
    }
}

// MARK: - A run's size

/// How many mutants a run makes and from which seed: the defaults, or the environment's
/// `PREFIX_ITERATIONS` and `PREFIX_SEED` (a longer run, or one mutant again from its seed).
package struct MutationRun: Sendable {
    package let iterations: Int
    package let firstSeed: UInt64

    /// - Parameters:
    ///   - prefix: the variables' prefix, for example `ACTIONLOG_MUTATION`.
    ///   - iterations: the count when `PREFIX_ITERATIONS` is not set (or not a count).
    ///   - seed: the first seed when `PREFIX_SEED` is not set (or not a number).
    package init(environment prefix: String, iterations: Int, seed: UInt64) {
        let environment = ProcessInfo.processInfo.environment
        self.iterations = environment[prefix + "_ITERATIONS"].flatMap { Int($0) }.map { max(0, $0) } ?? iterations
        self.firstSeed = environment[prefix + "_SEED"].flatMap { UInt64($0) } ?? seed
    }

    /// The seed of the mutant at `index`.
    package func seed(_ index: Int) -> UInt64 { firstSeed &+ UInt64(truncatingIfNeeded: index) }
}
