import ActionLog
import Foundation
import Replayer
import Testing

/// A state with a token and card numbers that the recorder redacts by path; the reducer makes new
/// ones at every visit, so the replayed values are never the placeholders the file holds.
struct Vault: Codable, Equatable, Sendable {
    struct Card: Codable, Equatable, Sendable {
        var number: String
        var label: String
    }
    var owner = "Ada"
    var token = ""
    var visits = 0
    var cards: [Card] = []
    /// Makes a keyframe large enough for deltas to follow it.
    var ledger = Array(1...40)
}

enum VaultAction: Codable, Equatable, Sendable {
    case visit
    case addCard(label: String)
    case rename(String)
}

func reduceVault(_ state: inout Vault, _ action: VaultAction) {
    switch action {
    case .visit:
        state.visits += 1
        state.token = "tok-\(state.visits * 7_919)"
    case .addCard(let label):
        state.cards.append(Vault.Card(number: "4111-\(state.visits)-\(state.cards.count)", label: label))
    case .rename(let name):
        state.owner = name
    }
}

let vaultScript: [VaultAction] = [.visit, .addCard(label: "work"), .visit, .rename("Bo"), .addCard(label: "home"), .visit, .visit]

/// A state with a `@Redacted` token that the reducer renews at every visit: the replayed value is
/// never the placeholder the file holds.
struct Profile: Codable, Equatable, Sendable {
    var name = "Ada"
    var visits = 0
    @Redacted var authToken = ""
}

enum ProfileAction: Codable, Equatable, Sendable {
    case visit
    case rename(String)
}

func reduceProfile(_ state: inout Profile, _ action: ProfileAction) {
    switch action {
    case .visit:
        state.visits += 1
        state.authToken = "tok-SECRET-\(state.visits)"
    case .rename(let name):
        state.name = name
    }
}

@Suite("Replay of a session with redacted fields")
struct RedactionReplayTests {
    let directory = TemporaryDirectory()

    /// Records `vaultScript` with `/token` and `/cards/*/number` redacted; returns the path and session.
    private func record() throws -> (String, JournalSession.ID) {
        let path = directory.path("vault.actionlog")
        var configuration = RecorderConfiguration()
        configuration.redactedPaths = ["/token", "/cards/*/number"]
        configuration.keyframes.deltaBudget = 10
        let recorder = try Recorder<Vault, VaultAction, Never>(path: path, sessionName: "vault", initialState: Vault(), configuration: configuration)
        var state = Vault()
        for action in vaultScript {
            reduceVault(&state, action)
            recorder.record(action: action, state: state)
        }
        recorder.close()
        return (path, recorder.sessionID)
    }

    @Test("the same reducer replays the session with no divergence: the redacted places are compared as placeholders")
    func sameReducerMatches() throws {
        let (path, id) = try record()
        let journal = try Journal(path: path)
        let kinds = try journal.entries(in: id).map(\.kind)
        #expect(kinds.dropFirst().allSatisfy { $0 == .delta }, "compared through the patches")
        #expect(try journal.state(at: 7, in: id).decode(Vault.self).token == "<redacted>")
        let report = try Replay(journal: journal, session: id, reducer: reduceVault).run()
        #expect(report.description == #"Replayed 7 of 7 actions of session 1 "vault" of vault.actionlog: no divergence."#)
    }

    @Test("a change only in a redacted field is not a divergence")
    func redactedChangeIsNotADivergence() throws {
        let (path, id) = try record()
        func otherSecrets(_ state: inout Vault, _ action: VaultAction) {
            reduceVault(&state, action)
            state.token = "another-\(state.visits)"
            for index in state.cards.indices { state.cards[index].number = "5500-\(index)" }
        }
        let report = try Replay(journal: Journal(path: path), session: id, reducer: otherSecrets).run()
        #expect(report.isMatch, "\(report)")
    }

    @Test("a real change in a field that is not redacted is still reported; redacted places show their placeholder on both sides")
    func realChangeIsReported() throws {
        let (path, id) = try record()
        func mislabels(_ state: inout Vault, _ action: VaultAction) {
            reduceVault(&state, action)
            if case .addCard = action, state.cards.count == 2 { state.cards[1].label = "HOME" }
        }
        let report = try Replay(journal: Journal(path: path), session: id, reducer: mislabels).run()
        let divergence = try #require(report.divergence)
        #expect(divergence.seq == 5)
        #expect(divergence.stateDifferences == [
            FieldDifference(path: [.key("cards"), .index(1), .key("label")], recorded: "home", replayed: "HOME")
        ])
        #expect(report.description == """
            Replay diverged at entry 5 of session 1 "vault" of vault.actionlog (addCard(label: "home")).

              State:
                  Vault(
                    owner: "Bo",
                    token: "<redacted>",
                    visits: 2,
                    cards: [
                      [0]: Vault.Card(…),
                      [1]: Vault.Card(
                        number: "<redacted>",
                −       label: "home"
                +       label: "HOME"
                      )
                    ],
                    ledger: […]
                  )

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a divergence report says nothing of a @Redacted field whose replayed value is not the recorded placeholder")
    func noRedactedNoise() throws {
        let path = directory.path("profile.actionlog")
        let recorder = try Recorder<Profile, ProfileAction, Never>(path: path, sessionName: "profile", initialState: Profile())
        var state = Profile()
        for action in [ProfileAction.visit, .rename("Bo"), .visit] {
            reduceProfile(&state, action)
            recorder.record(action: action, state: state)
        }
        recorder.close()
        func shouts(_ state: inout Profile, _ action: ProfileAction) {
            reduceProfile(&state, action)
            if case .rename(let name) = action { state.name = name.uppercased() }
        }
        let report = try Replay(journal: Journal(path: path), session: recorder.sessionID, reducer: shouts).run()
        #expect(report.description == """
            Replay diverged at entry 2 of session 1 "profile" of profile.actionlog (rename("Bo")).

              State:
                  Profile(
                −   name: "Bo",
                +   name: "BO",
                    visits: 1,
                    _authToken: Redacted()
                  )

            (Recorded: −, Replayed: +)
            """)
    }

    @Test("a golden of a redacted session passes, and re-recording it keeps the secrets out")
    func goldens() throws {
        let (path, id) = try record()
        let golden = directory.path("vault.jsonl")
        try Journal(path: path).recordedSession(id).jsonl().write(toFile: golden, atomically: true, encoding: .utf8)
        let passed = verifyReplay(golden: golden, of: .reducer(reduceVault), record: .never)
        #expect(passed.passed, "\(passed.message ?? "")")

        func renamesTwice(_ state: inout Vault, _ action: VaultAction) {
            reduceVault(&state, action)
            if case .rename(let name) = action { state.owner = name + name }
        }
        let rerecorded = verifyReplay(golden: golden, of: .reducer(renamesTwice), record: .failed)
        #expect(rerecorded.wroteGolden)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text.contains("BoBo"), "the new behaviour was recorded")
        #expect(!text.contains("tok-") && !text.contains("4111-"), "today's secrets were redacted as the recorder did")
        #expect(text.contains(#""actionlog.redactedPaths":["/token","/cards/*/number"]"#))
        #expect(verifyReplay(golden: golden, of: .reducer(renamesTwice), record: .never).passed)
    }

    @Test("a session whose list of redacted paths is damaged is refused, naming it")
    func damagedListIsRefused() throws {
        let (path, id) = try record()
        var recorded = try Journal(path: path).recordedSession(id)
        recorded.session.metadata = ["actionlog.redactedPaths": ["/token", 7]]
        recorded.source = .textFile("vault.jsonl")
        let report = try Replay(recording: recorded, reducer: reduceVault).run()
        #expect(report.failure?.description == """
            vault.jsonl, session "vault": the session's redacted paths cannot be read ("actionlog.redactedPaths" holds a number, not a path), \
            so its placeholders cannot be told from changes; replay it with the ActionLog that recorded it
            """)
    }
}
