import ActionLog
import Foundation

/// The viewer's routes: what the server answers to each request, as a pure function of the request
/// and the journal, so that it is tested without sockets.
///
/// Every route is fixed; nothing of the URL names a file. All answers are JSON except the page.
///
/// - `GET /` — the page.
/// - `GET /api/sessions?before=ID&limit=N` — the newest sessions (before the session `ID` when
///   given), at most `N` (at most and by default 1000), oldest first: `{"file": NAME, "sessions":
///   [SESSION…], "damaged": [ERROR…] (the rows that cannot be read), "older": ID or null}` (`older`:
///   the `before` that lists the sessions before these, `null` when there are none); a session is
///   `{"id": "2", "name", "status", "entries", "startedAt", "lastEntryAt", "duration", "appVersion",
///   "dropped", "stateType", "actionType", "metadata", "metadataTooLarge"}` (times in seconds since
///   1970, durations in seconds; `metadata` is `null` and `metadataTooLarge` true past 8 KiB).
/// - `GET /api/sessions/ID/timeline?from=SEQ&limit=N&label=PATTERN` — a window of the timeline:
///   `{"session": SESSION, "from", "rows": [[seq, offsetSeconds, label, kind, reducerNanoseconds,
///   dropped]…], "next": SEQ or null, "end": SEQ}` (`end`: the entry after the last one read).
///   `limit` is at most 1000 (default 200). Without `label`, `rows` are the entries from `from`;
///   with it (at most 1000 Unicode scalars, or 400), the matching entries among at most 50,000
///   read from `from` within about a second, and `next` says where to go on. Entries are read a page at a time by primary key, without their states: a window of a
///   session of a million entries costs as much as one of a hundred. The page polls this route to
///   follow a session that is still recording.
/// - `GET /api/sessions/ID/entries/SEQ` — one entry: `{"seq", "kind", "label", "offset", "action",
///   "effect", "state", "change": [OPERATION…], "changeSource": "delta"|"diff"|"initial"|"none",
///   "dropped", "note", "handler"}`. The state is one keyframe plus the deltas after it
///   (``Journal/state(at:in:)``); the change is the entry's delta, or, for a keyframe, the JSON Patch
///   diff from the previous entry's state. `actionNumber`: the entry's action counting the actions
///   gaps lost (``Journal/seq(ofAction:in:)``).
/// - `GET /api/sessions/ID/changes?path=POINTER&at=SEQ&limit=N` — the entries up to `at` that changed
///   the value at `path`, newest first (what `replay-cli why` lists): `{"session", "path", "changes":
///   [{"seq", "action", "label", "touched", "oldValue", "newValue", "droppedBefore"}…], "more"}`. Each operation that replaces or removes a value carries
///   that value as `old` (``ViewerJSON/change(_:before:)``).
/// - `GET /api/sessions/ID/compare?from=A&to=B` — what differs between the states after entries `A`
///   and `B`: `{"session", "from", "to", "differences": [{"path", "from", "to"}…]}`, paths as JSON
///   Pointers, a side left out where the field is absent (as `replay-cli diff --json`).
///
/// Errors: an unknown session or entry answers 404, a damaged row 422, both with
/// `{"error": DESCRIPTION, "file", "session", "entry"}` where the description is the
/// ``ActionLogError``'s; a bad parameter answers 400, an unknown path 404, a method other than GET
/// or HEAD 405, a `Host` header that does not name this server 421 (plain text).
struct ViewerAPI: Sendable {
    /// The page's icon (`/favicon.ico`): a timeline of three marks, as SVG.
    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2b4c7e"/><circle cx="4" cy="8" r="1.6" fill="#fff"/><circle cx="8" cy="8" r="1.6" fill="#fff"/><circle cx="12" cy="8" r="1.6" fill="#f2b134"/></svg>"##
    let journal: Journal
    /// The `Host` header values this server answers, lowercased (`127.0.0.1:PORT`, `localhost:PORT`).
    let allowedHosts: Set<String>
    /// When the server listens on every address (`0.0.0.0`), any IPv4 literal with this port is a
    /// host it answers: an address cannot be rebound by DNS, a name can.
    let anyAddressPort: Int?
    /// What the refusal of a foreign host says to open instead.
    let displayURL: String
    /// How long a filtered window reads and matches before it answers with what it found.
    var filterTimeBudget: Duration = Self.filterTimeBudget

    /// This API reading `journal` (a connection of its own, from the server's ``JournalPool``).
    func reading(_ journal: Journal) -> ViewerAPI {
        ViewerAPI(
            journal: journal, allowedHosts: allowedHosts, anyAddressPort: anyAddressPort, displayURL: displayURL,
            filterTimeBudget: filterTimeBudget)
    }

    /// The most sessions one answer of `/api/sessions` lists.
    static let sessionsLimit = 1000
    /// The widest window the timeline route answers.
    static let maximumLimit = 1000
    static let defaultLimit = 200
    /// The most entries a filtered window reads before it answers with what it found.
    static let filterScanLimit = 50_000
    /// How long a filtered window reads and matches, by default, before it answers with what it
    /// found (checked after each entry).
    static let filterTimeBudget: Duration = .seconds(1)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let host = request.host else {
            return .text(400, "Refused: the request has no Host header.")
        }
        guard acceptsHost(host) else {
            return .text(421, """
                Refused: this viewer answers requests for \(displayURL) only, not for the host \
                \(JSONValue.string(host).canonicalText) (a page of another site may be trying to read the journal). \
                Open \(displayURL) instead.
                """)
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text(405, "Refused: the viewer answers GET and HEAD requests only.")
            response.headers = [("Allow", "GET, HEAD")]
            return response
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case [""]:
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(ViewerPage.html().utf8))
        case ["favicon.ico"]:
            // Browsers ask for it unprompted: an icon, rather than a 404 in the console of every page.
            return HTTPResponse(status: 200, contentType: "image/svg+xml", body: Array(Self.icon.utf8))
        case ["api", "sessions"]:
            return sessions(query: request.query)
        case let route where route.count == 4 && route[0] == "api" && route[1] == "sessions" && route[3] == "timeline":
            return timeline(session: route[2], query: request.query)
        case let route where route.count == 5 && route[0] == "api" && route[1] == "sessions" && route[3] == "entries":
            return entry(session: route[2], seq: route[4])
        case let route where route.count == 4 && route[0] == "api" && route[1] == "sessions" && route[3] == "changes":
            return changes(session: route[2], query: request.query)
        case let route where route.count == 4 && route[0] == "api" && route[1] == "sessions" && route[3] == "compare":
            return compare(session: route[2], query: request.query)
        default:
            return .json(404, Array(ViewerJSON.error("No such page: the viewer serves /, /api/sessions and /api/sessions/ID/….").canonicalText.utf8))
        }
    }

    func acceptsHost(_ host: String) -> Bool {
        let host = host.lowercased()
        if allowedHosts.contains(host) { return true }
        guard let port = anyAddressPort else { return false }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == Substring(String(port)) else { return false }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && octet.allSatisfy(\.isNumber) && (Int(octet) ?? 256) < 256
        }
    }

    // MARK: - Routes

    /// The newest sessions before `before` (the newest of all without it), at most `limit`, listed
    /// oldest first; `older` is the id to ask `before` for the sessions before them, `null` when
    /// there are none. One answer stays bounded however many sessions the journal holds.
    private func sessions(query: [String: String]) -> HTTPResponse {
        let before: JournalSession.ID?
        let limit: Int
        do {
            before = try query["before"].map { text throws(HTTPRequest.Problem) in
                JournalSession.ID(try Self.integer(text, name: "before", default: 0, range: Int.min...Int.max))
            }
            limit = try Self.integer(query["limit"], name: "limit", default: Self.sessionsLimit, range: 1...Self.sessionsLimit)
        } catch {
            return .json(400, Array(ViewerJSON.error(error.reason).canonicalText.utf8))
        }
        return answer { () throws(ActionLogError) in
            let page = try journal.sessionPage(before: before, limit: limit)
            // A session row that cannot be read is listed under "damaged" with its error; the
            // others still open.
            var sessions: [JSONValue] = []
            var damaged: [JSONValue] = []
            for (_, row) in page.reversed() {
                switch row {
                case .success(let session): sessions.append(ViewerJSON.session(session))
                case .failure(let error): damaged.append(ViewerJSON.error(error))
                }
            }
            // Older sessions may remain when the window filled (none before the least id there is).
            let oldest = page.count == limit ? page.last.map(\.id) : nil
            let older: JSONValue = oldest.flatMap { $0 == .min ? nil : JSONValue.string(String($0)) } ?? .null
            return .object([
                "file": .string(journal.fileName), "sessions": .array(sessions), "damaged": .array(damaged), "older": older,
            ])
        }
    }

    private func timeline(session text: Substring, query: [String: String]) -> HTTPResponse {
        let from: Int
        let limit: Int
        do {
            from = try Self.integer(query["from"], name: "from", default: 0, range: 0...Int.max)
            limit = try Self.integer(query["limit"], name: "limit", default: Self.defaultLimit, range: 0...Self.maximumLimit)
        } catch {
            return .json(400, Array(ViewerJSON.error(error.reason).canonicalText.utf8))
        }
        let pattern: LabelPattern?
        do {
            pattern = try query["label"].flatMap { filter throws(LabelPattern.TooLong) in
                filter.isEmpty ? nil : try LabelPattern(filter: filter)
            }
        } catch {
            return .json(400, Array(ViewerJSON.error(error.description).canonicalText.utf8))
        }
        return answer { () throws(ActionLogError) in
            let id = try sessionID(text)
            let session = try journal.session(id)
            var rows: [JSONValue] = []
            var cursor = try journal.timelineCursor(in: id, from: from, limit: pattern == nil ? limit : Self.filterScanLimit)
            var read = 0
            var lastSeq: Int?
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: filterTimeBudget)
            var outOfTime = false
            while rows.count < limit, let entry = try cursor.next() {
                read += 1
                lastSeq = entry.seq
                let kept = pattern.map { pattern in entry.label.map(pattern.matches) ?? false } ?? true
                if kept { rows.append(ViewerJSON.row(entry, startedAt: session.startedAt)) }
                // Checked after each entry: a filtered window answers what it found once its time
                // is spent (one entry at least), and the page goes on from `next`.
                if pattern != nil, clock.now >= deadline {
                    outOfTime = true
                    break
                }
            }
            // The entry after the last one read (none after Int.max).
            let following = lastSeq.flatMap(\.successor)
            // More may follow when the window filled, or when the filter read as far or as long as it may.
            let next = rows.count == limit || read == Self.filterScanLimit || outOfTime ? following : nil
            // Where reading stopped: a filtered window that found nothing new goes on from there.
            let end = following ?? from
            return .object([
                "session": ViewerJSON.session(session),
                "from": ViewerJSON.number(from),
                "rows": .array(rows),
                "next": next.map(ViewerJSON.number) ?? .null,
                "end": ViewerJSON.number(end),
            ])
        }
    }

    private func entry(session text: Substring, seq seqText: Substring) -> HTTPResponse {
        answer { () throws(ActionLogError) in
            let id = try sessionID(text)
            guard let seq = Int(seqText), seq >= 0 else {
                _ = try journal.session(id)
                throw ActionLogError(.entryNotFound, file: journal.fileName, session: id, reason: "no entry \(JSONValue.string(String(seqText)).canonicalText)")
            }
            let session = try journal.session(id)
            let entry = try journal.entry(seq, in: id)
            var state: JSONValue = .null
            var change: JSONPatch?
            var before: JSONValue?
            var source = "none"
            switch entry.content {
            case .gap:
                break
            case .delta(let patch):
                // The state before comes with the state, from the same read of the entries.
                (before, state) = try journal.stateChange(at: seq, in: id)
                // After a gap the state before is unknown, and the patch (from the state before the
                // gap) holds the lost actions' changes too: nothing is said, as after a keyframe there.
                if before != nil {
                    change = patch
                    source = "delta"
                }
            case .keyframe(let full):
                state = full
                if seq == 0 {
                    source = "initial"
                } else if let previous = try? journal.state(at: seq - 1, in: id) {
                    // The previous state may be unknown (a gap before a keyframe): then nothing is said.
                    change = JSONPatch.diff(from: previous, to: full)
                    before = previous
                    source = "diff"
                }
            }
            let gap = entry.content.gap
            // Member by member: one literal of this size takes the type checker seconds.
            var members: [String: JSONValue] = [:]
            members["session"] = .string(String(id))
            members["seq"] = ViewerJSON.number(seq)
            members["actionNumber"] = ViewerJSON.number(try journal.actionNumbers(in: id).action(ofEntry: seq))
            members["kind"] = .string(entry.kind.rawValue)
            members["label"] = entry.label.map(JSONValue.string) ?? .null
            members["offset"] = ViewerJSON.seconds(entry.time.timeIntervalSince(session.startedAt))
            members["reducerNanoseconds"] = entry.reducerDuration.map { ViewerJSON.number($0.saturatingNanoseconds) } ?? .null
            members["action"] = entry.action ?? .null
            members["effect"] = entry.effect ?? .null
            members["state"] = state
            members["change"] = ViewerJSON.change(change, before: before)
            members["changeSource"] = .string(source)
            members["dropped"] = gap.map { ViewerJSON.number($0.dropped) } ?? .null
            members["note"] = gap?.note.map(JSONValue.string) ?? .null
            members["handler"] = ViewerJSON.handler(try journal.handlerRecords(in: id, seqs: seq...seq).first)
            return .object(members)
        }
    }

    /// The entries up to `at` that changed the value at `path`, newest first, at most `limit`
    /// (``Journal/changes(to:in:through:becoming:limit:)``): what `replay-cli why --json` lists, a
    /// value of more than 64 KiB of JSON left out (`oldValueOmitted`, `newValueOmitted`).
    private func changes(session text: Substring, query: [String: String]) -> HTTPResponse {
        guard let pathText = query["path"], let path = JSONPointer(pathText), !path.isRoot else {
            return .json(400, Array(ViewerJSON.error("The parameter path must be a JSON Pointer inside the state (/cart/total).").canonicalText.utf8))
        }
        let at: Int?
        let limit: Int
        do {
            at = try query["at"].map { text throws(HTTPRequest.Problem) in try Self.integer(text, name: "at", default: 0, range: 0...Int.max) }
            limit = try Self.integer(query["limit"], name: "limit", default: 20, range: 1...Self.maximumLimit)
        } catch {
            return .json(400, Array(ViewerJSON.error(error.reason).canonicalText.utf8))
        }
        return answer { () throws(ActionLogError) in
            let id = try sessionID(text)
            let found = try journal.changes(to: path, in: id, through: at, limit: limit)
            return .object([
                "session": .string(String(id)),
                "path": .string(path.description),
                "changes": .array(found.map { $0.jsonValue(largestValue: 64 << 10) }),
                "more": .bool(found.count == limit),
            ])
        }
    }

    /// What differs between the states after two entries, as `replay-cli diff` compares them.
    private func compare(session text: Substring, query: [String: String]) -> HTTPResponse {
        let from: Int
        let to: Int
        guard query["from"] != nil, query["to"] != nil else {
            return .json(400, Array(ViewerJSON.error("The parameters from and to name the two entries to compare.").canonicalText.utf8))
        }
        do {
            from = try Self.integer(query["from"], name: "from", default: 0, range: 0...Int.max)
            to = try Self.integer(query["to"], name: "to", default: 0, range: 0...Int.max)
        } catch {
            return .json(400, Array(ViewerJSON.error(error.reason).canonicalText.utf8))
        }
        return answer { () throws(ActionLogError) in
            let id = try sessionID(text)
            let earlier = try journal.state(at: from, in: id)
            let later = try journal.state(at: to, in: id)
            return .object([
                "session": .string(String(id)),
                "from": ViewerJSON.number(from),
                "to": ViewerJSON.number(to),
                "differences": ViewerJSON.differences(from: earlier, to: later),
            ])
        }
    }

    // MARK: - Support

    private func sessionID(_ text: Substring) throws(ActionLogError) -> JournalSession.ID {
        guard let id = JournalSession.ID(text) else {
            throw ActionLogError(.sessionNotFound, file: journal.fileName, reason: "no session \(JSONValue.string(String(text)).canonicalText)")
        }
        return id
    }

    /// Runs a route; a journal error becomes a JSON error with the status that fits it.
    ///
    /// A journal another connection holds locked past the reader's wait (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`: a `vacuum`, a tool with an exclusive lock) is 503 with `Retry-After: 1`, a
    /// state that passes, rather than 500, a fault of the viewer.
    private func answer(_ body: () throws(ActionLogError) -> JSONValue) -> HTTPResponse {
        do {
            return .json(200, try body().canonicalBytes)
        } catch {
            // A lock held by another connection reaches here as `.busy` (JournalFile.wrap).
            let status =
                switch error.code {
                case .sessionNotFound, .entryNotFound: 404
                case .corrupt, .invalidArgument: 422
                case .busy: 503
                default: 500
                }
            var response = HTTPResponse.json(status, ViewerJSON.error(error).canonicalBytes)
            if status == 503 { response.headers = [("Retry-After", "1")] }
            return response
        }
    }

    private static func integer(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(HTTPRequest.Problem) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw HTTPRequest.Problem(status: 400, reason: "The parameter \(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \(JSONValue.string(text).canonicalText).")
        }
        return number
    }
}
