import ActionLog

/// A product service with a fixed catalogue and stock, answering after a fixed delay: the same
/// answers every time, so the recorded sessions are the same on every machine.
public actor SimulatedProductService: ProductService {
    private let catalogue: [String: Product]
    private var stock: [String: Int]
    private var basket = 0
    private let delay: Duration

    public init(delay: Duration = .milliseconds(20)) {
        catalogue = [
            "lamp-7": Product(id: "lamp-7", name: "Brass desk lamp", priceCents: 8_900, imageCount: 4),
            "vase-2": Product(id: "vase-2", name: "Stoneware vase", priceCents: 3_400, imageCount: 2),
        ]
        stock = ["lamp-7": 2, "vase-2": 0]
        self.delay = delay
    }

    public func fetchProduct(id: String) async throws -> Product {
        try? await Task.sleep(for: delay)
        guard let product = catalogue[id] else { throw ProductError.notFound(id: id) }
        return product
    }

    public func addToBasket(productID: String, quantity: Int) async throws -> Int {
        try? await Task.sleep(for: delay)
        let left = stock[productID] ?? 0
        guard left >= quantity else { throw ProductError.outOfStock(id: productID) }
        stock[productID] = left - quantity
        basket += quantity
        return basket
    }
}

/// The product service as recorded: each call goes to `live` and is journaled with the action whose
/// handler made it; on replay the journal answers instead. One line per method.
public struct RecordedProductService: ProductService {
    let live: any ProductService
    let recorded = RecordedService("ProductService", errors: [ProductError.self])

    /// - Parameter live: the service to call while recording; never called on replay.
    public init(live: any ProductService) {
        self.live = live
    }

    public func fetchProduct(id: String) async throws -> Product {
        try await recorded.call("fetchProduct", id) { try await live.fetchProduct(id: id) }
    }

    public func addToBasket(productID: String, quantity: Int) async throws -> Int {
        try await recorded.call("addToBasket", productID, quantity) { try await live.addToBasket(productID: productID, quantity: quantity) }
    }
}

/// What a replayed ViewModel is given as its live service: replay answers every recorded call from
/// the journal, so reaching this is a bug of the replay.
public struct UnreachableProductService: ProductService {
    public struct Unreachable: Error, CustomStringConvertible {
        public var description: String { "the network was reached during a replay" }
    }

    public init() {}
    public func fetchProduct(id: String) async throws -> Product { throw Unreachable() }
    public func addToBasket(productID: String, quantity: Int) async throws -> Int { throw Unreachable() }
}
