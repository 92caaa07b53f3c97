import ActionLog
import Foundation

// MARK: - A small feature to record

struct Shop: Codable, Equatable, Sendable {
    /// Large enough that a step's delta is smaller than a keyframe.
    var catalog: [String] = (1...20).map { "product number \($0) of the catalog" }
    var items: [String] = []
    var note: String?
    var paid = false
}

enum ShopAction: Codable, Equatable, Sendable {
    case addItem(String)
    case removeItem(String)
    case setNote(String)
    case checkout
}

enum ShopEffect: Codable, Equatable, Sendable {
    case charge(items: Int)
}

func reduceShop(_ state: inout Shop, _ action: ShopAction) -> ShopEffect? {
    switch action {
    case .addItem(let name): state.items.append(name)
    case .removeItem(let name): state.items.removeAll { $0 == name }
    case .setNote(let note): state.note = note
    case .checkout:
        state.paid = true
        return .charge(items: state.items.count)
    }
    return nil
}

typealias ShopRecorder = Recorder<Shop, ShopAction, ShopEffect>

/// A configuration that keeps errors out of the test output (the fixtures' drops are on purpose).
func quietConfiguration(_ change: (inout RecorderConfiguration) -> Void = { _ in }) -> RecorderConfiguration {
    var configuration = RecorderConfiguration()
    configuration.onError = { _ in }
    configuration.appVersion = "2.1 (40)"
    change(&configuration)
    return configuration
}

/// The journal most viewer tests open: session 1 "cart" (a keyframe, deltas, a gap, and the entry after it) and
/// session 2 "other" (three entries), both closed.
///
/// Session 1, entry by entry: 0 the initial state; 1 `addItem("tea")`; 2 `addItem("cup")` (adds
/// `/items/1`); 3 `setNote("gift")` (adds `/note`); 4 `removeItem("tea")`; 5 a gap (`addItem("pot")`
/// dropped: a queue of two and a writer that takes only on flush); 6 `checkout` (after the gap: stored, as the
/// keyframe policy decides, from entry 4's state).
func recordShopJournal(at path: String) throws -> (cart: JournalSession.ID, other: JournalSession.ID) {
    let cart = try ShopRecorder(path: path, sessionName: "cart", initialState: Shop(), configuration: quietConfiguration {
        $0.queueCapacity = 2
        $0.batchSize = 10_000
        $0.writerWaitsForFlush = true
        $0.batchInterval = .seconds(3600)
        $0.backpressure = .drop
    })
    let reduce = cart.recording(reduceShop)
    var state = Shop()
    cart.flush()
    _ = reduce(&state, .addItem("tea")); _ = reduce(&state, .addItem("cup"))
    cart.flush()
    _ = reduce(&state, .setNote("gift")); _ = reduce(&state, .removeItem("tea")); _ = reduce(&state, .addItem("pot"))
    cart.flush()
    _ = reduce(&state, .checkout)
    cart.close()

    let other = try ShopRecorder(path: path, sessionName: "other", initialState: Shop(), configuration: quietConfiguration())
    let reduceOther = other.recording(reduceShop)
    var otherState = Shop()
    _ = reduceOther(&otherState, .addItem("lamp")); _ = reduceOther(&otherState, .checkout)
    other.close()
    return (cart.sessionID, other.sessionID)
}

// MARK: - A journal full of HTML

/// Strings that would run script if a page put them into its HTML: each sets `window.__pwned`.
enum Hostile {
    static let script = "<script>window.__pwned = 1</script>"
    static let image = #"<img src=x onerror="window.__pwned = 2">"#
    static let toggle = #"<details open ontoggle="window.__pwned = 3"><summary>s</summary></details>"#
    static let attribute = #"" onmouseover="window.__pwned = 4" x=""#
    static let closing = "</script><script>window.__pwned = 5</script>"
    static let entity = "&lt;b&gt;not bold&lt;/b&gt; & <b>bold?</b>"
    static let all = [script, image, toggle, attribute, closing, entity]
    /// An image without quotes, for where a page shows a string as a JSON literal (quotes escaped).
    static let unquotedImage = "<img src=x onerror=window.__pwned=6>"
}

struct HostileState: Codable, Equatable, Sendable {
    var fields: [String: String] = [:]
    var list: [String] = []
}

struct HostileAction: Codable, Equatable, Sendable, ActionLabeled {
    var key: String
    var value: String
    var actionLabel: String { value }
}

func reduceHostile(_ state: inout HostileState, _ action: HostileAction) -> String? {
    state.fields[action.key] = action.value
    state.list.append(action.value)
    return action.value
}

/// One session whose name, app version, labels, keys, values and effects hold the `Hostile` strings.
func recordHostileJournal(at path: String) throws -> JournalSession.ID {
    let recorder = try Recorder<HostileState, HostileAction, String>(
        path: path, sessionName: Hostile.script + Hostile.image, initialState: HostileState(),
        configuration: quietConfiguration { $0.appVersion = Hostile.toggle })
    let reduce = recorder.recording(reduceHostile)
    var state = HostileState()
    for (index, text) in Hostile.all.enumerated() {
        _ = reduce(&state, HostileAction(key: Hostile.all[(index + 1) % Hostile.all.count], value: text))
    }
    recorder.close()
    return recorder.sessionID
}
