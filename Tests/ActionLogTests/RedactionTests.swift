import Foundation
import Testing
@testable import ActionLog

// MARK: - A feature with secrets

/// A card number, secret wherever it appears: in the state, an action or an effect.
struct CardNumber: Codable, Equatable, Sendable, RedactedInJournal {
    var digits: String
}

struct Account: Codable, Equatable, Sendable {
    struct User: Codable, Equatable, Sendable {
        var name: String
        var token: String?
    }
    struct Card: Codable, Equatable, Sendable {
        var number: String
        var expiry: Int
    }
    var user = User(name: "Ada")
    var cards: [Card] = []
    var visits = 0
    @Redacted var pin = "0000"
    var lastCharged: CardNumber?
}

enum AccountAction: Codable, Equatable, Sendable {
    case visit
    case addCard(expiry: Int)
    case signIn(password: Redacted<String>)
    case charge(CardNumber)
    case replaceCards
    case signOut
}

enum AccountEffect: Codable, Equatable, Sendable {
    case register(CardNumber)
}

/// Every secret it makes contains `SECRET`; nothing else does.
func reduceAccount(_ state: inout Account, _ action: AccountAction) -> AccountEffect? {
    switch action {
    case .visit:
        state.visits += 1
        state.user.token = "tok-SECRET-\(state.visits)"
    case .addCard(let expiry):
        let number = "4111-SECRET-\(state.cards.count)"
        state.cards.append(Account.Card(number: number, expiry: expiry))
        return .register(CardNumber(digits: number))
    case .signIn(let password):
        state.pin = "pin-\(password.wrappedValue)-\(state.visits)"
    case .charge(let card):
        state.lastCharged = card
    case .replaceCards:
        state.cards = [Account.Card(number: "5500-SECRET-new", expiry: 2031)]
    case .signOut:
        state.user.token = nil
    }
    return nil
}

let accountScript: [AccountAction] = [
    .visit, .addCard(expiry: 2028), .visit, .signIn(password: Redacted("pw-SECRET")), .addCard(expiry: 2029),
    .charge(CardNumber(digits: "6011-SECRET-charged")), .visit, .replaceCards, .visit, .signOut, .visit, .addCard(expiry: 2030),
]

typealias AccountRecorder = Recorder<Account, AccountAction, AccountEffect>

@Suite("Redaction: secrets never reach the file")
struct RedactionTests {
    let directory = TemporaryDirectory()

    private func bytes(_ path: String) -> [UInt8] {
        (FileManager.default.contents(atPath: path)).map(Array.init) ?? []
    }

    private func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("secrets in the state (by path and by type), an action and an effect are in neither the file nor its -wal, through deltas too")
    func secretsStayOutOfTheFile() throws {
        let path = directory.path("account.actionlog")
        let log = ErrorLog()
        let recorder = try AccountRecorder(path: path, sessionName: "account", initialState: Account(), configuration: configuration(log) {
            $0.redactedPaths = ["/user/token", "/cards/*/number"]
        })
        var state = Account()
        let reduce = recorder.recording(reduceAccount)
        for action in accountScript { _ = reduce(&state, action) }
        recorder.flush()
        // While the recorder is open the entries are in the -wal; after close, in the file.
        #expect(!bytes(path + "-wal").isEmpty)
        let whileOpen = bytes(path) + bytes(path + "-wal")
        #expect(contains(whileOpen, "Ada"), "the search finds what was written")
        #expect(contains(whileOpen, "<redacted>"))
        #expect(!contains(whileOpen, "SECRET"))
        recorder.close()
        #expect(log.all.isEmpty)
        let afterClose = bytes(path) + bytes(path + "-wal")
        #expect(contains(afterClose, "Ada"))
        #expect(!contains(afterClose, "SECRET"))

        let journal = try Journal(path: path)
        let entries = try journal.entries(in: recorder.sessionID)
        #expect(entries.filter { $0.kind == .delta }.count >= 6, "the secrets changed through deltas")
        let final = try journal.state(at: accountScript.count, in: recorder.sessionID).decode(Account.self)
        #expect(final.user == Account.User(name: "Ada", token: "<redacted>"))
        #expect(final.cards == [Account.Card(number: "<redacted>", expiry: 2031), Account.Card(number: "<redacted>", expiry: 2030)])
        #expect(final.pin == "<redacted>")
        #expect(final.lastCharged == CardNumber(digits: "<redacted>"))
        #expect(final.visits == 5)
        let visited = try journal.state(at: 1, in: recorder.sessionID)
        #expect(visited.canonicalText == #"{"cards":[],"pin":"<redacted>","user":{"name":"Ada","token":"<redacted>"},"visits":1}"#)
        #expect(entries[4].action?.canonicalText == #"{"signIn":{"password":"<redacted>"}}"#)
        #expect(entries[2].effect?.canonicalText == #"{"register":{"_0":{"digits":"<redacted>"}}}"#)
        #expect(entries[6].action?.canonicalText == #"{"charge":{"_0":{"digits":"<redacted>"}}}"#)
    }

    @Test("a redacted value that changes at every step: the replayed patch, redacted the same way, is the recorded patch")
    func replayedPatchesMatchRecordedOnes() throws {
        // Replay compares the recorded patch with the replayed one first and stops there when they
        // are equal: that must hold while a secret changes at every step, or each step would fall
        // back to comparing the places the patches touched.
        let path = directory.path("steps.actionlog")
        let recorder = try AccountRecorder(path: path, sessionName: "account", initialState: Account(), configuration: configuration(ErrorLog()) {
            $0.redactedPaths = ["/user/token", "/cards/*/number"]
            $0.keyframes.deltaBudget = 1_000
        })
        var state = Account()
        var states = [state]
        for step in 0..<40 {
            _ = reduceAccount(&state, step % 4 == 0 ? .addCard(expiry: 2030 + step) : .visit)
            states.append(state)
            recorder.record(action: .visit, state: state, effect: nil)
        }
        recorder.close()
        let journal = try Journal(path: path)
        let session = try journal.session(recorder.sessionID)
        let redactor = try Redaction.recorded(in: session.metadata).get().state
        let entries = try journal.entries(in: recorder.sessionID)
        let replaying = ChangeEncoder<Account>()
        _ = try replaying.encode(states[0])
        var compared = 0
        for (entry, state) in zip(entries.dropFirst(), states.dropFirst()) {
            let replayed = try #require(try replaying.encode(state).patch)
            guard case .delta(let recorded) = entry.content else { continue }
            #expect(redactor.delta(replayed) == recorded, "entry \(entry.seq)")
            #expect(replayed != recorded, "the secret changed at entry \(entry.seq)")
            compared += 1
        }
        #expect(compared >= 35, "most entries are deltas (the first ones are smaller than a delta)")
    }

    @Test("a state that fails to encode becomes a gap whose note and report leave out the failing value and its secrets")
    func failedEncodingKeepsSecretsOut() throws {
        /// Throws `EncodingError.invalidValue` with itself, as `encode(to:)` implementations often do.
        struct Guarded: Encodable, Sendable {
            var token: String
            var broken = false
            func encode(to encoder: any Encoder) throws {
                if broken {
                    throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "a broken state"))
                }
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(token, forKey: .token)
            }
            enum CodingKeys: String, CodingKey { case token }
        }
        let path = directory.path("broken.actionlog")
        let log = ErrorLog()
        let recorder = try Recorder<Guarded, Int, Never>(path: path, sessionName: "s", initialState: Guarded(token: "tok-SECRET-0"),
            configuration: configuration(log) { $0.redactedPaths = ["/token"] })
        recorder.record(action: 1, state: Guarded(token: "tok-SECRET-1", broken: true))
        recorder.record(action: 2, state: Guarded(token: "tok-SECRET-2"))
        recorder.close()
        #expect(log.all.map(\.description) == [#"broken.actionlog, session 1, entry 1: "Int" does not encode: a broken state; recorded as a gap"#])
        let entries = try Journal(path: path).entries(in: recorder.sessionID)
        #expect(entries[1].content.gap?.note == #""Int" does not encode: a broken state"#)
        #expect(!contains(bytes(path) + bytes(path + "-wal"), "SECRET"))
        // A nested failure names where it happened.
        struct Outer: Encodable { var inner: Guarded }
        do {
            _ = try JSONValueEncoder().encode(Outer(inner: Guarded(token: "tok-SECRET", broken: true)))
            Issue.record("the broken state encoded")
        } catch {
            #expect(EncodingFailure.describe(error) == "a broken state, at inner")
        }
    }

    @Test("a Redacted value prints as <redacted>, in its own description and in the values that hold it")
    func redactedPrinting() {
        let account = Account(user: Account.User(name: "Ada"), pin: "1234")
        #expect("\(Redacted("tok-SECRET"))" == "<redacted>")
        #expect(String(reflecting: Redacted(42)) == "<redacted>")
        #expect(!"\(account)".contains("1234"))
        var dumped = ""
        dump(account, to: &dumped)
        #expect(!dumped.contains("1234"))
        #expect(account.pin == "1234", "the app reads the value itself")
    }

    @Test("the session's metadata lists the redacted paths, beside the app's own metadata")
    func metadataListsPaths() throws {
        let path = directory.path("meta.actionlog")
        let recorder = try AccountRecorder(path: path, sessionName: "account", initialState: Account(), configuration: configuration(ErrorLog()) {
            $0.redactedPaths = ["/user/token", "/cards/*/number"]
            $0.metadata = ["device": "test"]
        })
        recorder.close()
        let session = try Journal(path: path).session(recorder.sessionID)
        #expect(session.metadata == ["device": "test", "actionlog.redactedPaths": ["/user/token", "/cards/*/number"], "actionlog.dates": "iso8601"])
    }

    @Test("a redacted path that is not a JSON Pointer, or metadata that cannot list the paths, is refused at start")
    func badConfigurationIsRefused() throws {
        let path = directory.path("bad.actionlog")
        #expect {
            _ = try AccountRecorder(path: path, sessionName: "s", initialState: Account(), configuration: configuration(ErrorLog()) {
                $0.redactedPaths = ["/user/token", "cards.number"]
            })
        } throws: { error in
            (error as? ActionLogError)?.description
                == #"bad.actionlog: the redacted path "cards.number" is not a JSON Pointer: it must be empty or start with "/""#
        }
        #expect {
            _ = try AccountRecorder(path: path, sessionName: "s", initialState: Account(), configuration: configuration(ErrorLog()) {
                $0.redactedPaths = ["/user/token"]
                $0.metadata = ["a", "list"]
            })
        } throws: { error in
            (error as? ActionLogError)?.description == "bad.actionlog: the metadata is an array, not an object, so it cannot list the redacted paths"
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was started")
    }

    @Test("a keyframe is redacted at every place a path names, wildcards included")
    func keyframes() throws {
        let redactor = try Redactor(paths: ["/user/token", "/cards/*/number", "/byID/*", "/list/1"], file: "f")
        let state: JSONValue = [
            "user": ["name": "Ada", "token": "t"],
            "cards": [["number": "1", "expiry": 1], ["number": "2", "expiry": 2, "extra": true]],
            "byID": ["a": ["x": 1, "y": [true, .null, "s"]], "b": 7.5],
            "list": ["keep", "hide", "keep"],
        ]
        #expect(redactor.keyframe(state) == [
            "user": ["name": "Ada", "token": "<redacted>"],
            "cards": [["number": "<redacted>", "expiry": 1], ["number": "<redacted>", "expiry": 2, "extra": true]],
            "byID": ["a": ["x": 0, "y": [false, .null, "<redacted>"]], "b": 0],
            "list": ["keep", "<redacted>", "keep"],
        ])
        #expect(Redactor.none.keyframe(state) == state)
        #expect(redactor.keyframe(redactor.keyframe(state)) == redactor.keyframe(state), "placeholders are stable")
    }

    @Test("a delta is redacted from its operations alone: at, below and above a redacted path")
    func deltas() throws {
        let redactor = try Redactor(paths: ["/user/token", "/cards/*/number"], file: "f")
        func patch(_ text: String) throws -> JSONPatch { try JSONPatch(JSONValue(parsing: text)) }
        // At and below the path: the value becomes its placeholder.
        #expect(try redactor.delta(patch(#"[{"op":"replace","path":"/user/token","value":"t2"}]"#))
            == patch(#"[{"op":"replace","path":"/user/token","value":"<redacted>"}]"#))
        #expect(try redactor.delta(patch(#"[{"op":"add","path":"/user/token/parts/-","value":{"a":"b"}}]"#))
            == patch(#"[{"op":"add","path":"/user/token/parts/-","value":{"a":"<redacted>"}}]"#))
        // Above it: the paths below the operation's place are redacted inside its value.
        #expect(try redactor.delta(patch(#"[{"op":"add","path":"/cards/-","value":{"number":"9","expiry":3}}]"#))
            == patch(#"[{"op":"add","path":"/cards/-","value":{"number":"<redacted>","expiry":3}}]"#))
        #expect(try redactor.delta(patch(#"[{"op":"replace","path":"","value":{"user":{"token":"t","name":"n"},"cards":[]}}]"#))
            == patch(#"[{"op":"replace","path":"","value":{"user":{"token":"<redacted>","name":"n"},"cards":[]}}]"#))
        // Elsewhere, removals, and moves away from the paths: unchanged.
        let untouched = try patch(#"""
            [{"op":"replace","path":"/user/name","value":"Bo"},{"op":"remove","path":"/cards/0"},
             {"op":"remove","path":"/user/token"},{"op":"move","from":"/a","path":"/b"}]
            """#)
        #expect(redactor.delta(untouched) == untouched)
        // A copy or move that touches a redacted place cannot be redacted exactly: write a keyframe.
        #expect(try redactor.delta(patch(#"[{"op":"copy","from":"/user/token","path":"/shown"}]"#)) == nil)
        #expect(try redactor.delta(patch(#"[{"op":"move","from":"/user","path":"/owner"}]"#)) == nil)
    }

    @Test("an insertion or removal before an element named by index makes the writer fall back to a keyframe")
    func indexedPathsAndShifts() throws {
        let redactor = try Redactor(paths: ["/list/1"], file: "f")
        func patch(_ text: String) throws -> JSONPatch { try JSONPatch(JSONValue(parsing: text)) }
        #expect(try redactor.delta(patch(#"[{"op":"add","path":"/list/0","value":"new"}]"#)) == nil)
        #expect(try redactor.delta(patch(#"[{"op":"remove","path":"/list/0"}]"#)) == nil)
        #expect(try redactor.delta(patch(#"[{"op":"add","path":"/list/-","value":"new"}]"#)) == nil)
        #expect(try redactor.delta(patch(#"[{"op":"replace","path":"/list/1","value":"s"}]"#))
            == patch(#"[{"op":"replace","path":"/list/1","value":"<redacted>"}]"#))
        #expect(try redactor.delta(patch(#"[{"op":"add","path":"/other/0","value":"x"}]"#)) == patch(#"[{"op":"add","path":"/other/0","value":"x"}]"#))

        // Recorded: an element inserted before the redacted one is written as a keyframe, so that
        // the element that moved to index 1 is redacted and the one that left it is not.
        struct Listed: Codable, Equatable, Sendable {
            var list: [String]
            var notes = String(repeating: "a keyframe larger than the deltas ", count: 4)
        }
        let path = directory.path("shift.actionlog")
        let recorder = try Recorder<Listed, Int, Never>(path: path, sessionName: "s", initialState: Listed(list: ["a", "b", "c"]),
            configuration: configuration(ErrorLog()) { $0.redactedPaths = ["/list/1"] })
        recorder.record(action: 1, state: Listed(list: ["a", "b", "x"]))
        recorder.record(action: 2, state: Listed(list: ["z", "a", "b", "x"]))
        recorder.close()
        let journal = try Journal(path: path)
        #expect(try journal.entries(in: recorder.sessionID).map(\.kind) == [.keyframe, .delta, .keyframe])
        #expect(try journal.state(at: 1, in: recorder.sessionID)["list"] == ["a", "<redacted>", "x"])
        #expect(try journal.state(at: 2, in: recorder.sessionID)["list"] == ["z", "<redacted>", "b", "x"])
    }

    @Test("placeholders keep the JSON type: strings, numbers, booleans, and the shape of containers")
    func placeholders() {
        #expect(Redactor.placeholder(for: ["number": "4111 1111 1111 1111", "expiry": 1228, "tags": ["a", "b"]])
            == ["number": "<redacted>", "expiry": 0, "tags": ["<redacted>", "<redacted>"]])
        #expect(Redactor.placeholder(for: true) == false)
        #expect(Redactor.placeholder(for: .null) == .null)
        #expect(Redactor.placeholder(for: 3.5) == 0)
        // Nesting is rebuilt level by level (with a stack of its own, not the thread's).
        var deep: JSONValue = ["k": "leaf"]
        for _ in 0..<1_000 { deep = [deep] }
        var placeholder = Redactor.placeholder(for: deep)
        var depth = 0
        while case .array(let elements) = placeholder, let first = elements.first {
            placeholder = first
            depth += 1
        }
        #expect(depth == 1_000)
        #expect(placeholder == ["k": "<redacted>"])
    }

    @Test("a value of a marked type is its placeholder in every ActionLog encoding; a changed one adds no operation")
    func markedTypes() throws {
        #expect(try JSONValueEncoder().encode(Account()).canonicalText
            == #"{"cards":[],"pin":"<redacted>","user":{"name":"Ada"},"visits":0}"#)
        #expect(try JSONValueEncoder().encode([Redacted(7), Redacted(8)]) == [0, 0])
        let encoder = ChangeEncoder<Account>()
        var state = Account()
        _ = try encoder.encode(state)
        state.pin = "1234"
        state.lastCharged = CardNumber(digits: "1")
        #expect(try encoder.encode(state).patch?.canonicalText == #"[{"op":"add","path":"/lastCharged","value":{"digits":"<redacted>"}}]"#)
        state.pin = "5678"
        state.lastCharged = CardNumber(digits: "2")
        #expect(try encoder.encode(state).patch == JSONPatch(), "the secrets changed, their placeholders did not")
        // Arrays of marked values take the encoder's array path: a changed element adds nothing either.
        struct Pins: Codable, Equatable { var pins: [Redacted<Int>] }
        let pinsEncoder = ChangeEncoder<Pins>()
        var pins = Pins(pins: (1...20).map { Redacted($0) })
        #expect(try pinsEncoder.encode(pins).json == ["pins": .array(Array(repeating: 0, count: 20))])
        pins.pins[3] = Redacted(99)
        #expect(try pinsEncoder.encode(pins).patch == JSONPatch())
        pins.pins.append(Redacted(100))
        #expect(try pinsEncoder.encode(pins).patch?.canonicalText == #"[{"op":"add","path":"/pins/20","value":0}]"#)
        // The app's own encoder sees the values.
        let plain = try JSONDecoder().decode(Account.self, from: JSONEncoder().encode(state))
        #expect(plain.pin == "5678" && plain.lastCharged == CardNumber(digits: "2"))
    }
}
