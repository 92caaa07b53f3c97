import ActionLog

/// A product card in the style of an actor ViewModel behind a `Reducer` front: the view sends
/// ``ProductCardAction``s, the ``ProductCardViewModel`` actor calls a ``ProductService`` and updates a
/// `@MainActor` state class, ``ProductCardState``, whose ``ProductCard`` snapshot is what the journal
/// records after each action.

/// A product as the service returns it.
public struct Product: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var priceCents: Int
    public var imageCount: Int

    public init(id: String, name: String, priceCents: Int, imageCount: Int) {
        self.id = id
        self.name = name
        self.priceCents = priceCents
        self.imageCount = imageCount
    }
}

/// What the product service throws. `Codable`, so a replay throws it again as itself.
public enum ProductError: Error, Codable, Equatable, Sendable {
    case notFound(id: String)
    case outOfStock(id: String)
}

/// The service the ViewModel talks to: the network, in an app.
public protocol ProductService: Sendable {
    func fetchProduct(id: String) async throws -> Product
    /// Adds to the basket; returns how many items the basket holds now.
    func addToBasket(productID: String, quantity: Int) async throws -> Int
}

/// What the card shows: the `Codable` snapshot of ``ProductCardState``, recorded after each action.
public struct ProductCard: Codable, Equatable, Sendable {
    public enum Loading: Codable, Equatable, Sendable {
        case idle
        case loading
        case loaded
        case failed(message: String)
    }

    public var loading: Loading = .idle
    public var product: Product?
    /// The image the slider shows, `0..<product.imageCount`.
    public var sliderPosition = 0
    public var basketCount = 0
    public var isAddingToBasket = false
    /// A message under the button ("Added", "Out of stock").
    public var notice: String?

    public init() {}
}

/// The actions of the card and of its subviews.
public enum ProductCardAction: Codable, Equatable, Sendable {
    /// What the image slider subview sends.
    public enum ImageSliderAction: Codable, Equatable, Sendable {
        case onTapSlider(Int)
        case onSwipe(forward: Bool)
    }

    case viewDidLoad(productID: String)
    case onImageSliderAction(ImageSliderAction)
    case addToBasketTapped
}

/// The state object the view observes; the ViewModel changes it on the main actor.
@MainActor
public final class ProductCardState {
    public private(set) var card: ProductCard

    public init(_ card: ProductCard = ProductCard()) {
        self.card = card
    }

    public func update(_ change: (inout ProductCard) -> Void) {
        change(&card)
    }
}

/// The card's logic: an actor whose handler awaits the service and updates the state class.
public actor ProductCardViewModel {
    public nonisolated let state: ProductCardState
    private let service: any ProductService
    private let quantityPerTap: Int

    /// - Parameters:
    ///   - state: the state class the view observes.
    ///   - service: the product service (a ``RecordedProductService`` to journal its calls).
    ///   - quantityPerTap: how many items one tap on "Add to basket" adds.
    public init(state: ProductCardState, service: any ProductService, quantityPerTap: Int = 1) {
        self.state = state
        self.service = service
        self.quantityPerTap = quantityPerTap
    }

    public func handle(_ action: ProductCardAction) async {
        switch action {
        case .viewDidLoad(let id):
            await state.update { $0.loading = .loading }
            do {
                let product = try await service.fetchProduct(id: id)
                await state.update {
                    $0.product = product
                    $0.loading = .loaded
                    $0.sliderPosition = 0
                }
            } catch ProductError.notFound(let id) {
                await state.update { $0.loading = .failed(message: "No product \(id)") }
            } catch {
                await state.update { $0.loading = .failed(message: "Could not load the product") }
            }
        case .onImageSliderAction(.onTapSlider(let index)):
            await state.update { card in
                guard let count = card.product?.imageCount, count > 0 else { return }
                card.sliderPosition = min(max(0, index), count - 1)
            }
        case .onImageSliderAction(.onSwipe(let forward)):
            await state.update { card in
                guard let count = card.product?.imageCount, count > 0 else { return }
                card.sliderPosition = (card.sliderPosition + (forward ? 1 : count - 1)) % count
            }
        case .addToBasketTapped:
            guard let product = await state.card.product else { return }
            await state.update {
                $0.isAddingToBasket = true
                $0.notice = nil
            }
            do {
                let count = try await service.addToBasket(productID: product.id, quantity: quantityPerTap)
                await state.update {
                    $0.basketCount = count
                    $0.notice = "Added"
                }
            } catch ProductError.outOfStock {
                await state.update { $0.notice = "Out of stock" }
            } catch {
                await state.update { $0.notice = "Could not add to the basket" }
            }
            await state.update { $0.isAddingToBasket = false }
        }
    }
}
