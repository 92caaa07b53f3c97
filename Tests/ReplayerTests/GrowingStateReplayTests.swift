import ActionLog
import Foundation
import Replayer
import Testing

/// A feed whose `posts` gains one element per action: replay compares it only where each recorded
/// step changed it, and must still name the entry where a change elsewhere began.
private struct Feed: Codable, Equatable, Sendable {
    struct Post: Codable, Equatable, Sendable {
        var id: Int
        var text: String
        var likes: Int
    }

    var posts: [Post] = []
    var unread = 0

    enum Action: Codable, Equatable, Sendable {
        case post(String)
        case like(Int)
    }

    static func reduce(_ state: inout Feed, _ action: Action) {
        switch action {
        case .post(let text):
            state.posts.append(Post(id: state.posts.count, text: text, likes: 0))
            state.unread += 1
        case .like(let index):
            state.posts[index].likes += 1
        }
    }

    /// 600 actions: a post each time, and every fifth a like of an earlier post.
    static var script: [Action] {
        (0..<600).map { index in index % 5 == 4 ? .like(index / 3) : .post("post #\(index)") }
    }
}

/// The same feed with its posts in a `ChunkedArray`: it replays a session recorded with the `Array`.
private struct ChunkedFeed: Codable, Equatable, Sendable {
    var posts: ChunkedArray<Feed.Post> = []
    var unread = 0

    static func reduce(_ state: inout ChunkedFeed, _ action: Feed.Action) {
        switch action {
        case .post(let text):
            state.posts.append(Feed.Post(id: state.posts.count, text: text, likes: 0))
            state.unread += 1
        case .like(let index):
            state.posts[index].likes += 1
        }
    }
}

@Suite("Replay of a state that grows: each step compared where it changed, divergences still named where they began")
struct GrowingStateReplayTests {
    let directory = TemporaryDirectory()

    /// Records the feed script; returns the journal and session.
    private func record() throws -> (Journal, JournalSession.ID) {
        let path = directory.path("feed.actionlog")
        var state = Feed()
        let recorder = try Recorder<Feed, Feed.Action, Never>(path: path, sessionName: "feed", initialState: state)
        for action in Feed.script {
            Feed.reduce(&state, action)
            recorder.record(action: action, state: state)
        }
        recorder.close()
        return (try Journal(path: path), recorder.sessionID)
    }

    @Test("the same reducer matches, taking most elements as unchanged or comparing every field")
    func sameReducerMatches() throws {
        let (journal, id) = try record()
        for whole in [false, true] {
            var options = ReplayOptions()
            options.comparesWholeStates = whole
            let report = try Replay(journal: journal, session: id, options: options, reducer: Feed.reduce).run()
            #expect(report.isMatch, "comparesWholeStates: \(whole)")
            #expect(report.entriesReplayed == 600)
        }
    }

    @Test("a reducer that also changes an old post, which the recording left alone, is caught at that entry")
    func changeOutsideTheRecordedPlacesIsCaughtWhereItBegan() throws {
        let (journal, id) = try record()
        // The 240th post also edits post 7 in the regression: no recorded operation touches it, so
        // the default comparison takes it as unchanged until its next full comparison.
        func regressed(_ state: inout Feed, _ action: Feed.Action) {
            Feed.reduce(&state, action)
            if state.posts.count == 240 { state.posts[7].text = "edited" }
        }
        let seq = try #require(Feed.script.indices.first { index in
            Feed.script[...index].filter { if case .post = $0 { true } else { false } }.count == 240
        }) + 1
        for whole in [false, true] {
            var options = ReplayOptions()
            options.comparesWholeStates = whole
            let report = try Replay(journal: journal, session: id, options: options, reducer: regressed).run()
            let divergence = try #require(report.divergence, "comparesWholeStates: \(whole)")
            #expect(divergence.seq == seq, "comparesWholeStates: \(whole)")
            #expect(divergence.stateDifferences == [
                FieldDifference(path: [.key("posts"), .index(7), .key("text")], recorded: "post #8", replayed: "edited"),
            ])
            #expect(report.entriesReplayed == seq - 1)
        }
    }

    @Test("a state whose posts are a ChunkedArray replays the session recorded with an Array, and a change to an old post is named where it began, dumped as an array's")
    func chunkedArrayState() throws {
        let (journal, id) = try record()
        let same = try Replay(journal: journal, session: id, reducer: ChunkedFeed.reduce).run()
        #expect(same.isMatch, "\(same)")
        #expect(same.entriesReplayed == 600)

        func regressed(_ state: inout ChunkedFeed, _ action: Feed.Action) {
            ChunkedFeed.reduce(&state, action)
            if state.posts.count == 240 { state.posts[7].text = "edited" }
        }
        let report = try Replay(journal: journal, session: id, reducer: regressed).run()
        let divergence = try #require(report.divergence)
        let seq = try #require(Feed.script.indices.first { index in
            Feed.script[...index].filter { if case .post = $0 { true } else { false } }.count == 240
        }) + 1
        #expect(divergence.seq == seq)
        #expect(divergence.stateDifferences == [
            FieldDifference(path: [.key("posts"), .index(7), .key("text")], recorded: "post #8", replayed: "edited"),
        ])
        #expect(divergence.stateDump == """
              ChunkedFeed(
                posts: [
                  … (7 unchanged),
                  [7]: Feed.Post(
                    id: 7,
            −       text: "post #8",
            +       text: "edited",
                    likes: 0
                  ),
                  … (232 unchanged)
                ],
                unread: 240
              )
            """)
    }

    @Test("every divergence is reported where it began when replay goes on after each one")
    func everyDivergenceWhenGoingOn() throws {
        let (journal, id) = try record()
        // Two edits of old posts, far apart; replay goes on from the recorded state after each.
        func regressed(_ state: inout Feed, _ action: Feed.Action) {
            Feed.reduce(&state, action)
            if state.posts.count == 100 || state.posts.count == 400, case .post = action { state.posts[3].likes = 99 }
        }
        var options = ReplayOptions()
        options.stopAtFirstDivergence = false
        let report = try Replay(journal: journal, session: id, options: options, reducer: regressed).run()
        options.comparesWholeStates = true
        let whole = try Replay(journal: journal, session: id, options: options, reducer: regressed).run()
        #expect(report.divergences.map(\.seq) == whole.divergences.map(\.seq))
        #expect(report.divergences.count == 2)
        #expect(report.entriesReplayed == whole.entriesReplayed)
    }

    @Test("a change made and undone between two full comparisons is caught when every field is compared")
    func transientChangeNeedsWholeStates() throws {
        let (journal, id) = try record()
        // Post 2's likes are wrong for one step only, then right again.
        func flickering(_ state: inout Feed, _ action: Feed.Action) {
            Feed.reduce(&state, action)
            if state.posts.count == 200, case .post = action { state.posts[2].likes += 1 }
            if state.posts.count == 201, case .post = action { state.posts[2].likes -= 1 }
        }
        var options = ReplayOptions()
        options.comparesWholeStates = true
        let report = try Replay(journal: journal, session: id, options: options, reducer: flickering).run()
        let divergence = try #require(report.divergence)
        #expect(divergence.stateDifferences == [
            FieldDifference(path: [.key("posts"), .index(2), .key("likes")], recorded: 0, replayed: 1),
        ])
    }
}
