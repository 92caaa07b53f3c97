import Foundation

/// One recording as a journal lists it: the session's id in the journal, and its header.
///
/// The header's properties read as the session's own (`session.name`, `session.status`).
///
/// ```swift
/// for session in try journal.sessions() {
///     print(session.id, session.name, session.status, session.entryCount)
/// }
/// ```
@dynamicMemberLookup
public struct JournalSession: Sendable, Hashable, Identifiable {
    public typealias ID = Int64

    /// The session's id in its journal, the number `replay-cli` takes as `--session`. It belongs to
    /// the journal: a copy of the session in another journal, or in a text file, has another or none.
    public let id: ID
    /// What the journal records of the session besides its entries.
    public let header: SessionHeader

    /// A property of the session's ``header``, read as the session's own: `session.name`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<SessionHeader, Value>) -> Value {
        header[keyPath: keyPath]
    }

    package init(id: ID, header: SessionHeader) {
        self.id = id
        self.header = header
    }
}

/// What a session records about itself besides its entries: its name, times, status, versions,
/// metadata and counts.
///
/// A journal lists it with the session's id (``JournalSession``); a text file holds it in its first
/// line, with no id (``RecordedSession``).
///
/// ```swift
/// let recorded = try RecordedSession(contentsOfJSONL: URL(fileURLWithPath: "fixtures/checkout.jsonl"))
/// print(recorded.session.name, recorded.session.status, recorded.session.entryCount)
/// ```
public struct SessionHeader: Sendable, Hashable {
    /// Where a session stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// A live process is recording it now.
        case recording
        /// Its recorder closed it: every entry handed over was committed or counted as a gap.
        case closed
        /// Its recorder stopped without closing (the process died). Every committed entry is intact.
        case interrupted
    }

    public var name: String
    public var startedAt: Date
    /// When the session was closed; for an interrupted session, the time of its last entry.
    public var endedAt: Date?
    /// The status as of reading. A session whose file says `recording` but that no live process
    /// records reads as ``Status/interrupted``.
    public var status: Status
    /// The ActionLog version that recorded it.
    package var libraryVersion: String
    public var appVersion: String?
    /// `String(reflecting:)` of the recorded state type, e.g. `MyApp.Cart.State`.
    package var stateType: String
    package var actionType: String
    package var effectType: String?
    /// Free-form metadata given at recording time; a JSON object.
    public var metadata: JSONValue
    /// Entries in the session, entry 0 (the initial state) and gaps included. Read from a journal,
    /// the last entry's seq + 1 (entries are numbered from 0 without holes, a loss being a `gap`
    /// entry), so that it costs a primary-key lookup, not a count; `replay-cli verify` names holes.
    public var entryCount: Int
    /// Actions lost to back-pressure or failures; each loss is also a `gap` entry.
    public var droppedCount: Int
    /// The time of the last entry, if any.
    package var lastEntryAt: Date?
    /// The id stored with the session (the `uuid` column, the text form's `uuid`), or `nil` for a
    /// session recorded before sessions had ids: then ``uuid`` is derived from the header.
    package var storedUUID: UUID?

    /// Makes a session's header, for code that builds sessions itself (importing a text form,
    /// recording a golden from a list of actions).
    ///
    /// ```swift
    /// let header = SessionHeader(name: "checkout", startedAt: .now, endedAt: .now, status: .closed,
    ///                            libraryVersion: ActionLogLibrary.version, appVersion: nil, stateType: "Checkout",
    ///                            actionType: "Checkout.Event", effectType: nil, metadata: [:],
    ///                            entryCount: 1, droppedCount: 0, lastEntryAt: nil)
    /// ```
    ///
    /// - Parameters: the properties of the same names.
    package init(
        name: String, startedAt: Date, endedAt: Date?, status: Status, libraryVersion: String,
        appVersion: String?, stateType: String, actionType: String, effectType: String?, metadata: JSONValue,
        entryCount: Int, droppedCount: Int, lastEntryAt: Date?, storedUUID: UUID? = nil
    ) {
        self.storedUUID = storedUUID
        self.name = name
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.status = status
        self.libraryVersion = libraryVersion
        self.appVersion = appVersion
        self.stateType = stateType
        self.actionType = actionType
        self.effectType = effectType
        self.metadata = metadata
        self.entryCount = entryCount
        self.droppedCount = droppedCount
        self.lastEntryAt = lastEntryAt
    }

    /// From the start to the end, or to the last entry while the session is recording.
    package var duration: TimeInterval? {
        (endedAt ?? lastEntryAt).map { $0.timeIntervalSince(startedAt) }
    }
}

extension Int {
    /// The sequence number after this one, or `nil` after the largest there is: a damaged file may
    /// hold an entry at `Int64.max`, and a walk must end there rather than overflow.
    package var successor: Int? {
        let (following, overflow) = addingReportingOverflow(1)
        return overflow ? nil : following
    }
}

extension SessionHeader {
    /// What is wrong with the session's own record, apart from its entries, as phrases: the one
    /// statement of these rules, which `verify` reports as findings and an import refuses (the text
    /// form checked for import, ``RecordedSession/checkImportable()``), so that nothing imported
    /// fails `verify`. Empty for a sound record.
    package var recordProblems: [String] {
        var problems: [String] = []
        if status == .closed, let endedAt, endedAt < startedAt { problems.append("ended before it started") }
        if status == .closed, endedAt == nil { problems.append("closed without an end time") }
        return problems
    }
}

extension [JournalSession] {
    /// The sessions' distinct names, quoted, in the order they first appear, for a message that
    /// says which names there are: `"checkout", "sign in"`, the first `limit` and then how many more
    /// (`"a", "b" and 3 more`); `none` when there are no sessions.
    ///
    /// - Parameter limit: the most names listed.
    package func quotedNames(limit: Int = 8) -> String {
        var seen = Set<String>()
        let names = map { $0.name }.filter { seen.insert($0).inserted }
        return Self.quoted([String](names.prefix(Swift.max(1, limit))), distinct: names.count)
    }

    /// `"a", "b" and 3 more` for the first names listed of `distinct` different ones; `none` for none.
    package static func quoted(_ listed: [String], distinct: Int) -> String {
        guard !listed.isEmpty else { return "none" }
        let text = listed.map { "\"\($0)\"" }.joined(separator: ", ")
        return distinct > listed.count ? "\(text) and \(distinct - listed.count) more" : text
    }
}
