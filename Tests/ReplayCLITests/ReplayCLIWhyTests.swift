import Foundation
import Testing
@testable import ActionLog

@Suite("replay-cli why and state --action")
struct ReplayCLIWhyTests {
    @Test("why lists the entries that changed a field, newest first, with old and new values and how the change reached it")
    func why() throws {
        try withTemporaryDirectory { directory in
            try runDemo(in: directory)
            // Checkout: a cart that is validated, paid, declined, changed and paid again.
            let total = try runCLI(["why", "demo.actionlog", "--session", "checkout", "/cartValid/totalCents"], in: directory)
            #expect(total.status == 0, "\(total.stderr)")
            #expect(total.stdout == """
                /cartValid/totalCents in session 2 "checkout", newest first:
                entry  action  label          old → new         through
                12     12      payTapped      6100 → (absent)   parent /cartValid
                11     11      cartValidated  (absent) → 6100   parent /cartValid
                5      5       payTapped      67400 → (absent)  parent /cartValid
                4      4       cartValidated  (absent) → 67400  parent /cartValid

                """)
            // The dotted form, a value to become, a bound and a limit.
            let became = try runCLI(["why", "demo.actionlog", "-s", "2", "cartValid.totalCents", "--value", "6100", "--json"], in: directory)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(became.stdout.utf8)) as? [String: Any])
            let changes = try #require(object["changes"] as? [[String: Any]])
            #expect(changes.map { int($0["seq"]) } == [11])
            #expect(int(changes.first?["newValue"]) == 6100)
            #expect(changes.first?["oldValue"] == nil)
            #expect(changes.first?["touched"] as? [String] == ["/cartValid"])
            let bounded = try runCLI(["why", "demo.actionlog", "-s", "2", "/cartValid/totalCents", "--at", "10", "--limit", "1"], in: directory)
            #expect(lines(bounded.stdout).dropFirst(2).first?.hasPrefix("5 ") == true, "\(bounded.stdout)")
            #expect(lines(bounded.stdout).last == "(the newest 1 change; --limit for more, --at for older ones)")
            let none = try runCLI(["why", "demo.actionlog", "-s", "2", "/nothing/here"], in: directory)
            #expect(none.stdout == "no entry changed /nothing/here in session 2 \"checkout\"\n")
            let bad = try runCLI(["why", "demo.actionlog", "-s", "2", "cart..total"], in: directory)
            #expect(bad.status == 64)
            #expect(lines(bad.stderr).first == "Error: cart..total is not a path: write a JSON Pointer (/cart/items/0) or a dotted path (cart.items[0])")
            let root = try runCLI(["why", "demo.actionlog", "-s", "2", "/"], in: directory)
            #expect(root.status == 0, "\(root.stderr)")
        }
    }

    @Test("state --action names the step by its action, counting what a gap dropped; an action a gap lost is said by name")
    func stateAtAction() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("gaps.actionlog").path
            let time = Date(timeIntervalSince1970: 1_763_700_000)
            let entries: [Entry] = [
                Entry(seq: 0, time: time, label: nil, action: nil, content: .keyframe(["count": 0]), effect: nil),
                Entry(seq: 1, time: time, label: "add", action: ["add": 1], content: .delta(try JSONPatch([["op": "replace", "path": "/count", "value": 1]])), effect: nil),
                Entry(seq: 2, time: time, label: nil, action: nil, content: .gap(dropped: 3, note: "3 actions dropped"), effect: nil),
                Entry(seq: 3, time: time, label: "add", action: ["add": 1], content: .keyframe(["count": 5]), effect: nil),
            ]
            let header = SessionHeader(
                name: "counter", startedAt: time, endedAt: time, status: .closed, libraryVersion: "0.1.0", appVersion: nil,
                stateType: "Counter", actionType: "Action", effectType: nil, metadata: [:], entryCount: 4, droppedCount: 3, lastEntryAt: time)
            var remaining = entries[...]
            _ = try Journal(path: path, mode: .readWrite).insert(session: header, file: "gaps.jsonl") { remaining.popFirst() }

            let after = try runCLI(["state", "gaps.actionlog", "--action", "5"], in: directory)
            #expect(after.status == 0, "\(after.stderr)")
            #expect(after.stdout == "{\n  \"count\": 5\n}\n")
            let lost = try runCLI(["state", "gaps.actionlog", "--action", "3"], in: directory)
            #expect(lost.status == 64)
            #expect(lost.stderr == "error: gaps.actionlog, session 1: action 3 was dropped: gap at entry 2\n")
            let both = try runCLI(["state", "gaps.actionlog", "--action", "3", "--at", "1"], in: directory)
            #expect(both.status == 64)
            #expect(lines(both.stderr).first == "Error: --at and --action both name the entry: give one")
            let log = try runCLI(["log", "gaps.actionlog", "--json"], in: directory)
            #expect(try jsonLines(log.stdout).map { int($0["actionNumber"]) } == [0, 1, 2, 5])
            let why = try runCLI(["why", "gaps.actionlog", "/count"], in: directory)
            #expect(why.stdout == """
                /count in session 1 "counter", newest first:
                entry  action  label  old → new  through
                3      5       add    1 → 5      after 3 dropped actions
                1      1       add    0 → 1

                """)
        }
    }
}
