import ActionLog

/// What recording an asynchronous golden again did to its recorded service calls, entry by entry:
/// which calls it kept, changed, dropped or added. The lines a re-record's message ends with, so
/// that no call of a golden changes silently.
///
/// Entries are matched by seq. Within an entry, the golden's calls and the new session's are
/// aligned on their service and method (the longest common subsequence, so one call inserted or
/// removed does not shift the others); an aligned pair with the same arguments and the same answer
/// is kept, another aligned pair changed; a golden's call left over was dropped, a new one left
/// over was added. Where a call was answered in the run order is not compared.
struct CallChanges {
    /// What happened to one call.
    enum Change: Equatable {
        case kept(ServiceCall)
        case changed(ServiceCall, to: ServiceCall)
        case dropped(ServiceCall)
        case added(ServiceCall)

        /// What happened, as a line says it: `kept`, `changed`, `dropped` or `added`.
        var verb: String {
            switch self {
            case .kept: "kept"
            case .changed: "changed"
            case .dropped: "dropped"
            case .added: "added"
            }
        }
    }

    /// A change of one entry's call, with the call's index (in the golden; in the new session for
    /// an added one).
    struct Line {
        var seq: Int
        var label: String
        var index: Int
        var change: Change
    }

    private(set) var lines: [Line] = []

    /// The most lines a message lists; the rest are counted.
    static let shownLines = 100
    /// The most characters of a call or an answer a line shows.
    static let shownCharacters = 200
    /// Above this many pairs of calls in one entry, calls are paired by index instead of aligned.
    static let alignmentBudget = 1_000_000

    /// Compares the calls of `old` (the golden) with those of `new` (the new live session).
    init(old: RecordedSession, new: RecordedSession) {
        let oldHandlers = old.handlers.bySeq
        let newHandlers = new.handlers.bySeq
        let oldLabels = Dictionary(old.entries.map { ($0.seq, $0.label) }, uniquingKeysWith: { first, _ in first })
        let newLabels = Dictionary(new.entries.map { ($0.seq, $0.label) }, uniquingKeysWith: { first, _ in first })
        for seq in Set(oldHandlers.keys).union(newHandlers.keys).sorted() {
            let label = Self.label(oldLabels[seq] ?? nil, newLabels[seq] ?? nil)
            let before = oldHandlers[seq]?.calls ?? []
            let after = newHandlers[seq]?.calls ?? []
            for (index, change) in Self.changes(before, after) {
                lines.append(Line(seq: seq, label: label, index: index, change: change))
            }
        }
    }

    /// `addToBasket`, or `addToBasket → viewDidLoad` when the entry's action is another one now.
    private static func label(_ old: String?, _ new: String?) -> String {
        switch (old, new) {
        case let (old?, new?) where old != new: "\(old) → \(new)"
        case let (old?, _): old
        case let (nil, new?): new
        case (nil, nil): "?"
        }
    }

    /// The changes from `old` to `new`, each with its call's index.
    static func changes(_ old: [ServiceCall], _ new: [ServiceCall]) -> [(Int, Change)] {
        var result: [(Int, Change)] = []
        var (i, j) = (0, 0)
        func pair(_ a: ServiceCall, _ b: ServiceCall, _ index: Int) {
            let same = a.description == b.description && a.outcome == b.outcome
            result.append((index, same ? .kept(a) : .changed(a, to: b)))
        }
        let (pairs, overflow) = old.count.multipliedReportingOverflow(by: new.count)
        if overflow || pairs > alignmentBudget {
            // Too many calls to align: paired by index.
            while i < old.count, i < new.count { pair(old[i], new[i], i); i += 1 }
            j = i
        } else {
            // lengths[a][b]: the longest alignment of old[a...] and new[b...] on service and method.
            func key(_ call: ServiceCall) -> String { "\(call.service).\(call.method)" }
            var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
            for a in old.indices.reversed() {
                for b in new.indices.reversed() {
                    lengths[a][b] = key(old[a]) == key(new[b]) ? lengths[a + 1][b + 1] + 1 : max(lengths[a + 1][b], lengths[a][b + 1])
                }
            }
            while i < old.count, j < new.count {
                if key(old[i]) == key(new[j]) {
                    pair(old[i], new[j], i)
                    (i, j) = (i + 1, j + 1)
                } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                    result.append((i, .dropped(old[i])))
                    i += 1
                } else {
                    result.append((j, .added(new[j])))
                    j += 1
                }
            }
        }
        result += old[i...].indices.map { ($0, .dropped(old[$0])) }
        result += new[j...].indices.map { ($0, .added(new[$0])) }
        return result
    }

    /// The lines of a message: a heading with the counts, then one line per call.
    ///
    /// ```
    /// Recorded service calls, entry by entry (1 kept, 1 changed, 0 dropped):
    ///   entry 2 viewDidLoad: kept call 0 ProductService.fetchProduct("p-7")
    ///   entry 3 addToBasket: changed call 0 ProductService.addToBasket("p-7", 1) → ProductService.addToBasket("p-7", 2)
    /// ```
    var message: String {
        guard !lines.isEmpty else { return "Neither the golden nor the new session holds a recorded service call." }
        func count(_ verb: String) -> Int { lines.count { $0.change.verb == verb } }
        var tally = "\(count("kept")) kept, \(count("changed")) changed, \(count("dropped")) dropped"
        if count("added") > 0 { tally += ", \(count("added")) added" }
        var text = ["Recorded service calls, entry by entry (\(tally)):"]
        for line in lines.prefix(Self.shownLines) {
            text.append("  entry \(line.seq) \(line.label.displayEscaped): \(Self.describe(line.change, index: line.index))")
        }
        if lines.count > Self.shownLines {
            text.append("  … and \(lines.count - Self.shownLines) more calls")
        }
        return text.joined(separator: "\n")
    }

    private static func describe(_ change: Change, index: Int) -> String {
        switch change {
        case .kept(let call), .dropped(let call), .added(let call):
            "\(change.verb) call \(index) \(shown(call.description))"
        case .changed(let old, let new) where old.description != new.description:
            "changed call \(index) \(shown(old.description)) → \(shown(new.description))"
        case .changed(let old, let new):
            "changed call \(index) \(shown(old.description)): \(answer(old.outcome)) → \(answer(new.outcome))"
        }
    }

    /// `returned {"id":"p-7"}`, `threw {"type":"…","value":…}`.
    private static func answer(_ outcome: ServiceCall.Outcome) -> String {
        switch outcome {
        case .returned(let json): "returned \(shown(json.canonicalText))"
        case .threw(let json): "threw \(shown(json.canonicalText))"
        }
    }

    /// `text` cut to ``shownCharacters`` and escaped for a terminal.
    private static func shown(_ text: String) -> String {
        let cut = text.count > shownCharacters ? String(text.prefix(shownCharacters)) + "…" : text
        return cut.displayEscaped
    }
}
