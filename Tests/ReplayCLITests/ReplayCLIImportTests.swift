import Foundation
import Testing

/// The committed golden text forms.
private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

@Suite("replay-cli import: a session already in the journal")
struct ImportTwiceTests {
    /// `sessions --json` of `journal`.
    private func sessions(_ journal: String, in directory: URL) throws -> [[String: Any]] {
        try jsonObjects(try runCLI(["sessions", journal, "--json"], in: directory).stdout)
    }

    @Test("importing the same text form twice stores it once, and the second import says where it is")
    func sameFileTwice() throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("checkout.jsonl"), to: directory.appendingPathComponent("checkout.jsonl"))
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("city-search.jsonl"), to: directory.appendingPathComponent("city.jsonl"))
            #expect(try runCLI(["import", "city.jsonl", "--into", "app.actionlog"], in: directory).status == 0)
            let first = try runCLI(["import", "checkout.jsonl", "--into", "app.actionlog"], in: directory)
            #expect(first.stdout == "Imported session \"checkout\" as session 2 of app.actionlog (15 entries).\n")
            let before = try runCLI(["sessions", "app.actionlog", "--json"], in: directory).stdout

            let second = try runCLI(["import", "checkout.jsonl", "--into", "app.actionlog"], in: directory)
            #expect(second.status == 0)
            #expect(second.stderr == "")
            let started = try #require(sessions("app.actionlog", in: directory).last?["startedAt"] as? String)
            #expect(second.stdout == "skipped: session \"checkout\" (started \(started), 15 entries) is already in app.actionlog as session 2\n")
            #expect(try runCLI(["sessions", "app.actionlog", "--json"], in: directory).stdout == before, "no session was written")

            let json = try runCLI(["import", "checkout.jsonl", "--into", "app.actionlog", "--json"], in: directory)
            let object = try #require(try jsonObjects("[\(json.stdout)]").first)
            #expect(object["skipped"] as? Bool == true)
            #expect(int(object["session"]) == 2)
            #expect(int(object["entries"]) == 15)

            // A session exported from the journal, imported back into it: the same session.
            _ = try runCLI(["export", "app.actionlog", "--session", "1", "--output", "again.jsonl"], in: directory)
            let back = try runCLI(["import", "again.jsonl", "--into", "app.actionlog", "--json"], in: directory)
            #expect(try jsonObjects("[\(back.stdout)]").first?["skipped"] as? Bool == true)
            #expect(try sessions("app.actionlog", in: directory).count == 2)
        }
    }

    @Test("a session of the same name and start whose entries differ, or with an entry more, is another session: imported", arguments: [
        "change", "append",
    ])
    func differentEntries(change: String) throws {
        try withTemporaryDirectory { directory in
            let original = try String(contentsOf: fixtures.appendingPathComponent("checkout.jsonl"), encoding: .utf8)
            try Data(original.utf8).write(to: directory.appendingPathComponent("checkout.jsonl"))
            var text = lines(original)
            if change == "change" {
                // One entry's reducer duration, a nanosecond longer.
                text[11] = text[11].replacingOccurrences(of: #""durationNs":360,"#, with: #""durationNs":361,"#)
            } else {
                // An entry more: the last state again, after a keyframe of it.
                let last = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["state", "checkout.jsonl", "--json"], in: directory).stdout.utf8)) as? [String: Any])
                let state = String(decoding: try JSONSerialization.data(withJSONObject: try #require(last["state"]), options: [.sortedKeys]), as: UTF8.self)
                text.append(#"{"seq":15,"kind":"keyframe","label":"doneTapped","time":1795242001.3362818,"action":{"doneTapped":{}},"state":\#(state)}"#)
            }
            try #require(text != lines(original))
            try Data((text.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("edited.jsonl"))
            #expect(try runCLI(["import", "checkout.jsonl", "--into", "app.actionlog"], in: directory).status == 0)
            let edited = try runCLI(["import", "edited.jsonl", "--into", "app.actionlog"], in: directory)
            #expect(edited.status == 0, "\(edited.stderr)")
            #expect(edited.stdout.hasPrefix("Imported session \"checkout\" as session 2 of app.actionlog ("), "\(edited.stdout)")
            #expect(try sessions("app.actionlog", in: directory).count == 2)
        }
    }
}
