import ActionLog
// The model types, reducers and action sequences the benchmark journals.

// MARK: - Cart

struct CartItem: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var priceCents: Int
    var quantity: Int
    var tags: [String]
}

struct Cart: Codable, Equatable, Sendable {
    var items: [CartItem]

    /// A cart of `count` items: names of about 20 characters, 2 or 3 short tags each.
    init(count: Int) {
        let adjectives = ["Organic", "Roasted", "Vintage", "Compact", "Premium", "Classic", "Natural", "Deluxe"]
        let nouns = ["Coffee Beans", "Olive Oil", "Desk Lamp", "Tea Kettle", "Wool Socks", "Notebook", "Dark Cocoa"]
        let tagPool = ["sale", "new", "gift", "bulk", "eco", "local", "fragile"]
        var random = SplitMix64(seed: 42)
        items = (0..<count).map { index in
            let name = "\(adjectives[index % adjectives.count]) \(nouns[index % nouns.count]) #\(index)"
            let tagCount = 2 + index % 2
            let tags = (0..<tagCount).map { tagPool[(index + $0 * 3) % tagPool.count] }
            return CartItem(id: 10_000 + index, name: name, priceCents: 199 + random.next(below: 9_800), quantity: 1, tags: tags)
        }
    }

    static func reduce(_ state: inout Cart, _ action: CartAction) {
        switch action {
        case .setQuantity(let index, let quantity):
            guard state.items.indices.contains(index) else { return }
            state.items[index].quantity = quantity
        }
    }

    /// `count` actions, each changing one item's quantity; the index varies.
    static func actions(_ count: Int, items: Int) -> [CartAction] {
        var random = SplitMix64(seed: 7)
        return (0..<count).map { _ in
            .setQuantity(index: random.next(below: items), quantity: 1 + random.next(below: 9))
        }
    }
}

enum CartAction: Codable, Equatable, Sendable {
    case setQuantity(index: Int, quantity: Int)
}

// MARK: - City search

struct City: Codable, Equatable, Sendable {
    var name: String
    var country: String
    var population: Int
    var latitude: Double
    var longitude: Double
}

struct CitySearch: Codable, Equatable, Sendable {
    var query: String = ""
    var results: [City] = []

    static let resultCount = 20

    /// The cities searched: 400 of them, deterministic.
    static let catalog: [City] = {
        let stems = ["Port", "Saint", "New", "Fort", "Lake", "Mount", "East", "West", "North", "South"]
        let roots = ["Ridge", "Haven", "Field", "Burg", "Ville", "Mouth", "Stead", "Worth", "Ford", "Dale"]
        let countries = ["France", "Canada", "Brazil", "Japan", "Kenya", "Norway", "Chile", "India"]
        var random = SplitMix64(seed: 11)
        return (0..<400).map { index in
            City(
                name: "\(stems[index % stems.count]) \(roots[(index / stems.count) % roots.count]) \(index)",
                country: countries[index % countries.count],
                population: 5_000 + random.next(below: 3_000_000),
                latitude: Double(random.next(below: 180_000_000)) / 1_000_000 - 90,
                longitude: Double(random.next(below: 360_000_000)) / 1_000_000 - 180
            )
        }
    }()

    /// Sets the query and replaces the results wholesale with 20 cities picked by the query.
    static func reduce(_ state: inout CitySearch, _ action: SearchAction) {
        switch action {
        case .queryChanged(let query):
            state.query = query
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike `hashValue`.
            for byte in query.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let start = Int(hash % UInt64(catalog.count - resultCount))
            state.results = Array(catalog[start..<(start + resultCount)])
        }
    }

    static func actions(_ count: Int) -> [SearchAction] {
        let words = ["par", "lon", "ber", "tok", "osl", "lim", "nai", "del", "ros", "vil"]
        return (0..<count).map { .queryChanged("\(words[$0 % words.count]) \($0)") }
    }
}

enum SearchAction: Codable, Equatable, Sendable {
    case queryChanged(String)
}

// MARK: - Counter

struct Counter: Codable, Equatable, Sendable {
    var count = 0

    static func reduce(_ state: inout Counter, _ action: CounterAction) {
        switch action {
        case .increment: state.count += 1
        }
    }

    static func actions(_ count: Int) -> [CounterAction] {
        Array(repeating: .increment, count: count)
    }
}

enum CounterAction: Codable, Equatable, Sendable {
    case increment
}

// MARK: - Ledger (a state that grows)

/// One line of the ledger's history: what a chat, an activity feed or an undo stack appends.
struct LedgerLine: Codable, Equatable, Sendable {
    var id: Int
    var memo: String
    var amountCents: Int
}

/// A state whose `history` gains one element per action, and whose balance changes with it.
struct Ledger: Codable, Equatable, Sendable {
    var balanceCents = 0
    var history: [LedgerLine] = []

    static func reduce(_ state: inout Ledger, _ action: LedgerAction) {
        switch action {
        case .post(let memo, let amountCents):
            state.balanceCents += amountCents
            state.history.append(LedgerLine(id: state.history.count, memo: memo, amountCents: amountCents))
        }
    }

    /// `count` postings with memos of about 20 characters; the amounts vary.
    static func actions(_ count: Int) -> [LedgerAction] {
        let memos = ["coffee", "rent", "groceries", "refund", "transfer", "salary", "books", "train"]
        var random = SplitMix64(seed: 23)
        return (0..<count).map { index in
            .post(memo: "\(memos[index % memos.count]) #\(index)", amountCents: random.next(below: 20_000) - 10_000)
        }
    }
}

/// The same ledger with its history in a `ChunkedArray`: an append copies at most one leaf of it
/// while the recorder still holds the previous state, and the writer compares the shared leaves unread.
struct ChunkedLedger: Codable, Equatable, Sendable {
    var balanceCents = 0
    var history: ChunkedArray<LedgerLine> = []

    static func reduce(_ state: inout ChunkedLedger, _ action: LedgerAction) {
        switch action {
        case .post(let memo, let amountCents):
            state.balanceCents += amountCents
            state.history.append(LedgerLine(id: state.history.count, memo: memo, amountCents: amountCents))
        }
    }
}

enum LedgerAction: Codable, Equatable, Sendable {
    case post(memo: String, amountCents: Int)
}

// MARK: - Workload

/// How many actions each measurement dispatches.
struct Plan: Sendable {
    /// Actions per ActionLog run (and per no-journaling run).
    var actionLog: Int
    /// Actions per naive-journal run (one transaction each: the slowest).
    var naive: Int
    /// Actions per action-only-floor run.
    var floor: Int

    func scaled(by factor: Double) -> Plan {
        func scale(_ value: Int) -> Int { max(20, Int(Double(value) * factor)) }
        return Plan(actionLog: scale(actionLog), naive: scale(naive), floor: scale(floor))
    }
}

/// A state, its reducer and the actions dispatched to it.
struct Workload<State: Codable & Equatable & Sendable, Action: Codable & Equatable & Sendable> {
    var name: String
    /// The number of cart items, when it is a cart.
    var size: Int?
    var initial: State
    var reduce: (inout State, Action) -> Void
    /// A deterministic sequence of `count` actions.
    var actions: (_ count: Int) -> [Action]
    var plan: Plan
}

func cartWorkload(items: Int, plan: Plan) -> Workload<Cart, CartAction> {
    Workload(name: "cart N=\(items)", size: items, initial: Cart(count: items), reduce: Cart.reduce, actions: { Cart.actions($0, items: items) }, plan: plan)
}

func searchWorkload(plan: Plan) -> Workload<CitySearch, SearchAction> {
    Workload(name: "search", initial: CitySearch(), reduce: CitySearch.reduce, actions: CitySearch.actions, plan: plan)
}

func ledgerWorkload(plan: Plan) -> Workload<Ledger, LedgerAction> {
    Workload(name: "ledger", initial: Ledger(), reduce: Ledger.reduce, actions: Ledger.actions, plan: plan)
}

func counterWorkload(plan: Plan) -> Workload<Counter, CounterAction> {
    Workload(name: "counter", initial: Counter(), reduce: Counter.reduce, actions: Counter.actions, plan: plan)
}

// MARK: - Randomness

/// A small deterministic generator, so that every run dispatches the same actions.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
