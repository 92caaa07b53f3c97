import Foundation
import Testing

/// Keys whose values are recorded data (actions, states, effects, diff sides, handler records):
/// their keys are the app's, not the CLI's.
private let dataKeys: Set<String> = ["action", "effect", "state", "from", "to", "handler"]

/// Keys an older naming used, which the one naming replaced.
private let retiredKeys: Set<String> = ["id", "name", "sessionID", "sessionId", "durationSeconds", "offsetSeconds", "durationNs", "entry"]

/// Every key of `value` with the value it holds, outside recorded data.
private func members(of value: Any) -> [(key: String, value: Any)] {
    switch value {
    case let object as [String: Any]:
        return object.flatMap { key, member -> [(key: String, value: Any)] in
            [(key, member)] + (dataKeys.contains(key) ? [] : members(of: member))
        }
    case let array as [Any]:
        return array.flatMap(members(of:))
    default:
        return []
    }
}

@Suite("replay-cli --json: one naming across commands")
struct JSONNamingTests {
    @Test("every --json output: camelCase keys, session is the numeric id, times ISO 8601, durations in whole nanoseconds")
    func oneNaming() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent("demo.actionlog"), to: directory.appendingPathComponent("spare.actionlog"))
            let commands: [[String]] = [
                ["sessions", "demo.actionlog", "--json"],
                ["stats", "demo.actionlog", "--json"],
                ["log", "demo.actionlog", "--session", "3", "--json"],
                ["state", "demo.actionlog", "--session", "2", "--json"],
                ["diff", "demo.actionlog", "--session", "2", "0", "3", "--json"],
                ["verify", "demo.actionlog", "--json"],
                ["export", "demo.actionlog", "--session", "2", "--output", "checkout.jsonl"],
                ["import", "checkout.jsonl", "--into", "imported.actionlog", "--json"],
                ["copy", "demo.actionlog", "copy.actionlog", "--json"],
                ["prune", "spare.actionlog", "--keep", "2", "--json"],
                ["vacuum", "spare.actionlog", "--json"],
            ]
            for arguments in commands {
                let result = try runCLI(arguments, in: directory)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stderr == "", "\(arguments)")
                guard arguments.contains("--json") else { continue }
                #expect(!result.stdout.contains("\u{1B}["), "\(arguments): no colour in JSON")
                let documents: [Any] = arguments[0] == "log"
                    ? try jsonLines(result.stdout)
                    : [try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))]
                let found = documents.flatMap(members(of:))
                #expect(!found.isEmpty, "\(arguments)")
                for (key, value) in found {
                    #expect(matches(key, "[a-z][A-Za-z0-9]*"), "\(arguments): key \(key) is not camelCase")
                    #expect(!retiredKeys.contains(key), "\(arguments): key \(key) is of the old naming")
                    switch key {
                    case "session", "seq":
                        #expect(value is NSNull || int(value) != nil && !(value is String), "\(arguments): \(key) = \(value)")
                    case "sessionName":
                        #expect(value is String, "\(arguments): sessionName = \(value)")
                    case "time", "startedAt", "endedAt":
                        #expect(value is NSNull || matches(value as? String ?? "", timestampPattern), "\(arguments): \(key) = \(value)")
                    case _ where key.hasSuffix("Nanoseconds"):
                        let numbers = (value as? [String: Any]).map { Array($0.values) } ?? [value]
                        for number in numbers {
                            #expect(number is NSNull || (number as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } == true,
                                    "\(arguments): \(key) = \(value)")
                        }
                    default:
                        break
                    }
                }
            }
        }
    }

    @Test("verify --json lists the findings with file, session, seq, code and message, and exits 1")
    func verifyFindings() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            try runSQLite("""
                DELETE FROM entries WHERE session_id = 1 AND seq = 3;
                UPDATE entries SET checksum = NULL, action = '{bad' WHERE session_id = 2 AND seq = 2;
                UPDATE sessions SET ended_at = NULL WHERE id = 4;
                """, on: "demo.actionlog", in: directory)
            let result = try runCLI(["verify", "demo.actionlog", "--json"], in: directory)
            #expect(result.status == 1)
            #expect(result.stderr == "")
            #expect(result.stdout == #"""
                {
                  "entries": 49,
                  "file": "demo.actionlog",
                  "findings": [
                    {
                      "code": "entry",
                      "file": "demo.actionlog",
                      "message": "missing: the entry is not in the file",
                      "seq": 3,
                      "session": 1
                    },
                    {
                      "code": "entry",
                      "file": "demo.actionlog",
                      "message": "the action is not valid JSON: invalid JSON at byte 1: unexpected character \"b\"",
                      "seq": 2,
                      "session": 2
                    },
                    {
                      "code": "session",
                      "file": "demo.actionlog",
                      "message": "closed without an end time",
                      "seq": null,
                      "session": 4
                    }
                  ],
                  "notes": [
                    {
                      "code": "entry",
                      "file": "demo.actionlog",
                      "message": "1 entry without checksums (written before ActionLog checksummed its rows): a change to their bytes that SQLite's checks accept goes unnoticed",
                      "seq": null,
                      "session": 2
                    }
                  ],
                  "sessions": 4,
                  "valid": false
                }

                """#)

            let missing = try runCLI(["verify", "missing.actionlog", "--json"], in: directory)
            #expect(missing.status == 64, "a missing file is still a usage error with --json")
            #expect(missing.stdout == "")
        }
    }

    @Test("import, copy, prune and vacuum --json print what they did as one object")
    func reports() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let export = try runCLI(["export", "demo.actionlog", "--session", "checkout", "--output", "checkout.jsonl"], in: directory)
            #expect(export.status == 0)
            let imported = try runCLI(["import", "checkout.jsonl", "--into", "goldens.actionlog", "--json"], in: directory)
            #expect(imported.status == 0)
            #expect(imported.stdout == """
                {
                  "entries": 15,
                  "file": "checkout.jsonl",
                  "journal": "goldens.actionlog",
                  "session": 1,
                  "sessionName": "checkout",
                  "skipped": false
                }

                """)

            let copy = try runCLI(["copy", "demo.actionlog", "bug.actionlog", "--json"], in: directory)
            #expect(copy.status == 0)
            #expect(copy.stdout == """
                {
                  "destination": "bug.actionlog",
                  "entries": 50,
                  "file": "demo.actionlog",
                  "sessions": 4
                }

                """)

            let prune = try runCLI(["prune", "bug.actionlog", "--keep", "3", "--dry-run", "--json"], in: directory)
            #expect(prune.status == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(prune.stdout.utf8)) as? [String: Any])
            #expect(report["file"] as? String == "bug.actionlog")
            #expect(report["dryRun"] as? Bool == true)
            #expect(int(report["remainingSessions"]) == 3)
            #expect((report["keptLive"] as? [Any])?.isEmpty == true)
            let removed = try #require(report["removed"] as? [[String: Any]])
            #expect(removed.map { "\(int($0["session"]) ?? -1) \($0["sessionName"] as? String ?? "?") \($0["status"] as? String ?? "?") \(int($0["entries"]) ?? -1) \($0["reason"] as? String ?? "?")" } == [
                "1 city search closed 17 count",
            ])
            #expect((int(removed.first?["bytes"]) ?? 0) > 4_000, "the 4.5 kB the text report shows")

            let vacuum = try runCLI(["vacuum", "bug.actionlog", "--json"], in: directory)
            #expect(vacuum.status == 0)
            let sizes = try #require(try JSONSerialization.jsonObject(with: Data(vacuum.stdout.utf8)) as? [String: Any])
            #expect(Set(sizes.keys) == ["file", "bytesBefore", "bytesAfter"])
            #expect((int(sizes["bytesAfter"]) ?? 0) > 0)
        }
    }

    @Test("state --json names the session and the entry beside the state")
    func stateJSON() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            let result = try runCLI(["state", "demo.actionlog", "--session", "checkout", "--at", "1", "--json"], in: directory)
            #expect(result.status == 0)
            #expect(result.stdout == """
                {
                  "seq": 1,
                  "session": 2,
                  "sessionName": "checkout",
                  "state": {
                    "idle": {
                      "cart": {
                        "items": [
                          {
                            "name": "Green tea",
                            "priceCents": 1250,
                            "quantity": 2,
                            "sku": "tea-01"
                          }
                        ]
                      }
                    }
                  }
                }

                """)
        }
    }
}
