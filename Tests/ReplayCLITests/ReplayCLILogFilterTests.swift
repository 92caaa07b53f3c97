import ActionLog
import Foundation
import Testing

@Suite("replay-cli log --label and --kind")
struct ReplayCLILogFilterTests {
    /// The sequence numbers and the rest of each row `log` printed, after its header.
    private func rows(_ arguments: [String], in directory: URL) throws -> [LogRow?] {
        let result = try runCLI(["log", "demo.actionlog"] + arguments, in: directory)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        return lines(result.stdout).dropFirst().map(LogRow.init)
    }

    @Test("--label keeps the entries whose label matches: * any characters, ? one, the rest itself")
    func label() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            #expect(try rows(["-s", "2", "--label", "*Tapped"], in: directory).map { $0?.seq } == [3, 5, 7, 10, 12, 14])
            #expect(try rows(["-s", "2", "--label", "addItem"], in: directory).map { $0?.rest } == [
                #"addItem  {"addItem":{"_0":{"name":"Green tea","priceCents":1250,"quantity":2,"sku":"tea-01"}}}"#,
                #"addItem  {"addItem":{"_0":{"name":"Copper kettle","priceCents":64900,"quantity":1,"sku":"kettle-9"}}}"#,
                #"addItem  {"addItem":{"_0":{"name":"Tea cup","priceCents":900,"quantity":4,"sku":"cup-02"}}}"#,
            ])
            // Each sign-in entry is followed by its service call and output events (rows without a seq).
            let signIns: [Int] = try rows(["-s", "4", "--label", "?ign*a*d"], in: directory).compactMap { $0?.seq }
            #expect(signIns == [4, 7, 8])
            #expect(try rows(["-s", "2", "--label", "add"], in: directory).isEmpty)
            // The initial state has no label: no pattern keeps it, not even "*".
            #expect(try rows(["-s", "2", "--label", "*"], in: directory).map { $0?.seq } == Array(1...14))
        }
    }

    @Test("--limit counts the entries printed, from --from on, and an entry's calls go with it")
    func limitAndCalls() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            #expect(try rows(["-s", "2", "--label", "*Tapped", "--from", "4", "--limit", "2"], in: directory).map { $0?.seq } == [5, 7])
            let result = try runCLI(["log", "demo.actionlog", "-s", "3", "--label", "viewDidLoad", "--limit", "1"], in: directory)
            #expect(result.status == 0)
            let printed = lines(result.stdout)
            #expect(printed.count == 3)
            #expect(LogRow(printed[1])?.seq == 2)
            #expect(printed[2].hasSuffix(#"ProductService.fetchProduct("lamp-7") → {"id":"lamp-7","imageCount":4,"name":"Brass desk lamp","priceCents":8900}"#))
        }
    }

    @Test("--kind keeps the entries of one kind; with --label, both must match; --json prints only those")
    func kind() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            #expect(try rows(["-s", "1", "--kind", "keyframe"], in: directory).map { $0?.seq } == [0, 1, 2, 5, 9, 13, 16])
            let deltas: [Int?] = try rows(["-s", "2", "--kind", "delta", "--label", "*Tapped"], in: directory).map { $0?.seq }
            #expect(deltas == [7, 14])
            let json = try runCLI(["log", "demo.actionlog", "-s", "2", "--kind", "delta", "--label", "*Tapped", "--json"], in: directory)
            #expect(Self.seqs(ofJSONLines: json.stdout) == ["7", "14"])
            #expect(try rows(["-s", "2", "--kind", "gap"], in: directory).isEmpty)
        }
    }

    /// The `seq` member of each line of `log --json`, as its JSON text.
    private static func seqs(ofJSONLines text: String) -> [String] {
        lines(text).compactMap { line -> String? in
            guard let value = try? JSONValue(parsing: line), case .number(let seq)? = value["seq"] else { return nil }
            return seq
        }
    }

    @Test("a --label of more than 1000 Unicode scalars is a usage error that names the limit")
    func labelTooLong() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            let result = try runCLI(["log", "demo.actionlog", "-s", "2", "--label", "*" + String(repeating: "é", count: 1000)], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == "Error: The label pattern must be at most 1000 characters (Unicode scalars) long, not 1001.")
            #expect(try rows(["-s", "2", "--label", String(repeating: "?", count: 1000)], in: directory).isEmpty)
        }
    }

    @Test("labels of 1,000,000 characters against the longest patterns: log prints the entries that match")
    func longLabels() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            let long = "replace(hex(zeroblob(500000)), '00', 'aa')"
            try runSQLite("UPDATE entries SET checksum = NULL, label = \(long) WHERE session_id = 2 AND seq IN (1, 3)", on: "demo.actionlog", in: directory)
            try runSQLite("UPDATE entries SET checksum = NULL, label = \(long) || 'b' WHERE session_id = 2 AND seq = 2", on: "demo.actionlog", in: directory)
            // With the `*` and the last scalars, 1000 scalars.
            let run = String(repeating: "a", count: 997)
            #expect(try rows(["-s", "2", "--label", "*a" + run + "b"], in: directory).map { $0?.seq } == [2])
            #expect(try rows(["-s", "2", "--label", "*" + run + "b*"], in: directory).map { $0?.seq } == [2])
            #expect(try rows(["-s", "2", "--label", "a*" + run + "a"], in: directory).map { $0?.seq } == [1, 3])
        }
    }

    @Test("an unknown --kind is a usage error that names it")
    func unknownKind() throws {
        try withTemporaryDirectory { directory in
            _ = try runDemo(in: directory)
            let result = try runCLI(["log", "demo.actionlog", "-s", "2", "--kind", "frames"], in: directory)
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(lines(result.stderr).first == "Error: --kind must be keyframe, delta or gap, not frames")
        }
    }
}
