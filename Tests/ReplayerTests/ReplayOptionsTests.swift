import ActionLog
import Foundation
import Replayer
import Testing

/// A list of notes, each stamped with when it was added: the stamp is what `ignoring:` is for.
struct Notebook: Codable, Equatable, Sendable {
    struct Note: Codable, Equatable, Sendable {
        var text: String
        var stamp: Int
    }
    var notes: [Note] = []
    var count = 0

    enum Action: Codable, Equatable, Sendable {
        case add(String)
        case removeFirst
    }

    /// `clock` stands for a dependency the reducer reads: replaying with another clock changes stamps.
    static func reducer(clock: Int) -> (inout Notebook, Action) -> Void {
        { state, action in
            switch action {
            case .add(let text):
                state.notes.append(Note(text: text, stamp: clock + state.count))
            case .removeFirst:
                if !state.notes.isEmpty { state.notes.removeFirst() }
            }
            state.count += 1
        }
    }
}

/// The same notebook without `Equatable`: divergences are reported as field paths.
struct PlainNotebook: Codable, Sendable {
    var notes: [String] = []
    static func reduce(_ state: inout PlainNotebook, _ action: Notebook.Action) {
        if case .add(let text) = action { state.notes.append(text) }
    }
}

/// Records `actions` through `reduce` into a new journal and returns it with the session's id.
func record<State: Codable & Sendable, Action: Codable & Sendable>(
    _ path: String, session: String = "notes", initial: State, _ actions: [Action], keyframes: KeyframePolicy = KeyframePolicy(),
    reduce: @escaping (inout State, Action) -> Void
) throws -> (Journal, JournalSession.ID) {
    var configuration = RecorderConfiguration()
    configuration.keyframes = keyframes
    let recorder = try Recorder<State, Action, Never>(path: path, sessionName: session, initialState: initial, configuration: configuration)
    let recording = recorder.recording(reduce)
    var state = initial
    for action in actions { recording(&state, action) }
    recorder.close()
    return (try Journal(path: path), recorder.sessionID)
}

@Suite("Replay options: ignored fields, collecting every divergence, comparing changes")
struct ReplayOptionsTests {
    let directory = TemporaryDirectory()

    @Test("ignored fields are not compared; without ignoring them the replay diverges")
    func ignoringFields() throws {
        let (journal, id) = try record(directory.path("notes.actionlog"), initial: Notebook(), [.add("a"), .add("b"), .removeFirst],
                                       reduce: Notebook.reducer(clock: 1_000))
        let replayedLater = Notebook.reducer(clock: 2_000)
        let strict = try Replay(journal: journal, session: id, reducer: replayedLater).run()
        #expect(strict.divergence?.seq == 1)

        let lenient = try Replay(journal: journal, session: id, options: ReplayOptions(ignoring: ["notes[*].stamp"]), reducer: replayedLater).run()
        #expect(lenient.isMatch, "\(lenient)")
        #expect(lenient.entriesReplayed == 3)
    }

    @Test("a change that differs only in an ignored field is left out of the custom-dump diff")
    func ignoredFieldsLeaveTheDump() throws {
        let (journal, id) = try record(directory.path("notes.actionlog"), initial: Notebook(), [.add("a"), .add("b")],
                                       reduce: Notebook.reducer(clock: 1_000))
        let report = try Replay(journal: journal, session: id, options: ReplayOptions(ignoring: ["notes[*].stamp"])) { (state: inout Notebook, action: Notebook.Action) in
            Notebook.reducer(clock: 5)(&state, action)
            if case .add("b") = action { state.notes[1].text = "B" }
        }.run()
        #expect(report.description == """
            Replay diverged at entry 2 of session 1 "notes" of notes.actionlog (add("b")).

              State:
                  Notebook(
                    notes: [
                      [0]: Notebook.Note(…),
                      [1]: Notebook.Note(
                −       text: "b",
                +       text: "B",
                        stamp: 6
                      )
                    ],
                    count: 2
                  )

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("collecting every divergence reports each entry, each judged from the recorded state before it")
    func collectingAll() throws {
        let (journal, id) = try record(directory.path("notes.actionlog"), initial: Notebook(), [.add("a"), .removeFirst, .add("b"), .add("c")],
                                       reduce: Notebook.reducer(clock: 0))
        // A regression: `add` forgets to count.
        let regressed: (inout Notebook, Notebook.Action) -> Void = { state, action in
            Notebook.reducer(clock: 0)(&state, action)
            if case .add = action { state.count -= 1 }
        }
        var options = ReplayOptions(ignoring: ["notes"])
        options.stopAtFirstDivergence = false
        let report = try Replay(journal: journal, session: id, options: options, reducer: regressed).run()
        #expect(report.divergences.map(\.seq) == [1, 3, 4])
        #expect(report.entriesReplayed == 1)
        #expect(report.description == """
            Replay diverged at 3 entries of session 1 "notes" of notes.actionlog: 1, 3, 4.

            Entry 1 (add("a")):
              State:
                  Notebook(
                    notes: […],
                −   count: 1
                +   count: 0
                  )

            Entry 3 (add("b")):
              State:
                  Notebook(
                    notes: […],
                −   count: 3
                +   count: 2
                  )

            Entry 4 (add("c")):
              State:
                  Notebook(
                    notes: […],
                −   count: 4
                +   count: 3
                  )

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a state that is not Equatable is reported as field paths with recorded and replayed values")
    func fieldPathsWithoutEquatable() throws {
        let (journal, id) = try record(directory.path("plain.actionlog"), initial: PlainNotebook(), [Notebook.Action.add("a"), .add("b")],
                                       reduce: PlainNotebook.reduce)
        let report = try Replay(journal: journal, session: id) { (state: inout PlainNotebook, action: Notebook.Action) in
            if case .add(let text) = action { state.notes.insert(text, at: 0) }
        }.run()
        #expect(report.description == """
            Replay diverged at entry 2 of session 1 "notes" of plain.actionlog (add("b")).

              State:
                − notes[0]: "a"
                + notes[0]: "b"
                − notes[1]: "b"
                + notes[1]: "a"

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("while states agree, a change the recording did not make is still caught, wherever it lands")
    func changeComparisonCatchesUntouchedFields() throws {
        let actions: [Notebook.Action] = (0..<40).map { .add("n\($0)") } + [.removeFirst]
        let initial = Notebook(notes: (0..<20).map { Notebook.Note(text: "old \($0)", stamp: 0) })
        let (journal, id) = try record(directory.path("notes.actionlog"), initial: initial, actions,
                                       keyframes: KeyframePolicy(deltaBudget: 100), reduce: Notebook.reducer(clock: 0))
        let kinds = try journal.entries(in: id).map(\.kind)
        #expect(kinds.filter { $0 == .delta }.count > 30, "the session must be mostly deltas: \(kinds)")

        // Touches a field the recorded patch of entry 25 does not touch.
        let report = try Replay(journal: journal, session: id) { (state: inout Notebook, action: Notebook.Action) in
            Notebook.reducer(clock: 0)(&state, action)
            if state.count == 25 { state.notes[23].text = "changed" }
        }.run()
        #expect(report.divergence?.seq == 25)
        #expect(report.divergence?.stateDifferences.map(\.description) == [#"notes[23].text: "n3" → "changed""#])

        // Shifts an array where the recording appended.
        let shifted = try Replay(journal: journal, session: id) { (state: inout Notebook, action: Notebook.Action) in
            Notebook.reducer(clock: 0)(&state, action)
            if state.count == 30 { state.notes.insert(state.notes.removeLast(), at: 0) }
        }.run()
        #expect(shifted.divergence?.seq == 30)
        #expect(shifted.divergence?.stateDifferences.prefix(2).map(\.description) == ["notes[0].stamp: 0 → 29", #"notes[0].text: "old 0" → "n29""#])
    }

    @Test("a state whose == ignores an encoded field is no divergence: it is replayed whole from the first change == hides, with a warning")
    func lyingEquality() throws {
        // Recorded right: each delta changes the note, which Tagged's == does not see. From the
        // start's encoding on, the change encoder keeps the stale note at entry 1, and a full
        // encoding shows the state itself agrees.
        let recording = try RecordedSession(jsonl: #"""
            {"actionlog":"session","format":1,"name":"tagged","status":"closed","startedAt":0,"libraryVersion":"0.1.0","stateType":"ReplayerTests.Tagged","actionType":"Swift.Int","dropped":0,"metadata":{}}
            {"seq":0,"kind":"keyframe","time":0,"state":{"label":{"name":"x","note":""},"total":0}}
            {"seq":1,"kind":"delta","time":0,"action":1,"patch":[{"op":"replace","path":"/label/note","value":"added 1"},{"op":"replace","path":"/total","value":1}]}
            {"seq":2,"kind":"delta","time":0,"action":2,"patch":[{"op":"replace","path":"/label/note","value":"added 2"},{"op":"replace","path":"/total","value":3}]}
            {"seq":3,"kind":"keyframe","time":0,"action":3,"state":{"label":{"name":"x","note":"added 3"},"total":6}}
            {"seq":4,"kind":"delta","time":0,"action":4,"patch":[{"op":"replace","path":"/label/note","value":"added 4"},{"op":"replace","path":"/total","value":10}]}
            """#, file: "tagged.jsonl")
        let report = try Replay(recording: recording, reducer: Tagged.reduce).run()
        #expect(report.isMatch)
        #expect(report.warnings == [
            "ReplayerTests.Tagged's == disagrees with its encoding at entry 1 (field label.note): the rest of the replay compared whole states",
        ])
        // A session of keyframes only compares whole states anyway: nothing to warn about.
        let (journal, id) = try record(directory.path("tagged.actionlog"), initial: Tagged(), [1, 2, 3], keyframes: .keyframesOnly, reduce: Tagged.reduce)
        let keyframesOnly = try Replay(journal: journal, session: id, reducer: Tagged.reduce).run()
        #expect(keyframesOnly.isMatch)
        #expect(keyframesOnly.warnings == [])
    }

    @Test("a session recorded by a newer ActionLog is refused")
    func newerLibraryRefused() throws {
        let (journal, id) = try record(directory.path("notes.actionlog"), initial: Notebook(), [.add("a")], reduce: Notebook.reducer(clock: 0))
        var newer = try journal.recordedSession(id)
        newer.session.libraryVersion = "9.1.0"
        let report = try Replay(recording: newer, reducer: Notebook.reducer(clock: 0)).run()
        #expect(report.failure?.code == .newerSession)
        #expect(report.description == """
            Replay of session 1 "notes" of notes.actionlog stopped after 0 matching entries: notes.actionlog, session 1 "notes": \
            recorded by ActionLog 9.1.0, newer than this reader (\(ActionLogLibrary.version)); replay it with ActionLog 9.1.0 or later
            """)
    }

    @Test("a session recorded with a newer version of the state type is refused")
    func newerStateVersionRefused() throws {
        let (journal, id) = try record(directory.path("counter.actionlog"), initial: CounterV2(), [1, 2], reduce: CounterV2.reduce)
        #expect(try journal.session(id).metadata == ["actionlog.stateVersion": 2, "actionlog.dates": "iso8601"])
        let report = try Replay(journal: journal, session: id, reducer: CounterV1.reduce).run()
        #expect(report.failure?.description == """
            counter.actionlog, session 1 "notes": recorded with version 2 of ReplayerTests.CounterV1, newer than \
            this build's version 1; replay it with a build that knows version 2
            """)
        #expect(try Replay(journal: journal, session: id, reducer: CounterV2.reduce).run().isMatch)
    }

    @Test("field patterns match what they name and everything below it")
    func fieldPatterns() {
        let pattern: FieldPattern = "items[*].addedAt"
        #expect(pattern.matches([.key("items"), .index(3), .key("addedAt")]))
        #expect(pattern.matches([.key("items"), .index(3), .key("addedAt"), .key("seconds")]))
        #expect(!pattern.matches([.key("items"), .index(3), .key("name")]))
        #expect(!pattern.matches([.key("items")]))
        #expect(FieldPattern("*.id").matches([.key("user"), .key("id")]))
        #expect(!FieldPattern("*.id").matches([.index(0), .key("id")]))
        #expect(FieldPattern(#"["created at"]"#).matches([.key("created at")]))
        #expect(FieldPattern("a..b").matches([.key("a..b")]), "text that does not parse names one key")
    }
}

/// A state whose `==` ignores `label.note`: the change encoder would keep a stale note.
struct Tagged: Codable, Equatable, Sendable {
    struct Label: Codable, Sendable, Equatable {
        var name = "x"
        var note = ""
        static func == (lhs: Label, rhs: Label) -> Bool { lhs.name == rhs.name }
    }
    var label = Label()
    var total = 0

    static func reduce(_ state: inout Tagged, _ amount: Int) {
        state.total += amount
        state.label.note = "added \(amount)"
    }
}

/// The same counter in two versions of its shape.
struct CounterV1: Codable, Equatable, Sendable, VersionedState {
    static let stateVersion = 1
    var count = 0
    static func reduce(_ state: inout CounterV1, _ amount: Int) { state.count += amount }
}

struct CounterV2: Codable, Equatable, Sendable, VersionedState {
    static let stateVersion = 2
    var count = 0
    static func reduce(_ state: inout CounterV2, _ amount: Int) { state.count += amount }
}
