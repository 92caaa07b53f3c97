import ActionLogStore

/// Example feature for the reference ``Store``: search a catalogue of cities as the user types.
///
/// Inputs `onAppear` and `queryChanged`; the `fetch` effect answers with `resultsLoaded` or `loadFailed`.
/// Each fetch carries a request id, so an answer to an older query is ignored.
public struct CitySearch: StoreState, Codable, Equatable, Sendable {
    public var query = ""
    public var results: [City] = []
    public var isLoading = false
    public var errorMessage: String?
    public var hasAppeared = false
    /// The id of the newest fetch; feedback for any other id is stale.
    public var requestID = 0

    public init() {}

    public enum Input: Codable, Equatable, Sendable {
        case onAppear
        case queryChanged(String)
    }

    public enum Feedback: Codable, Equatable, Sendable {
        case resultsLoaded(requestID: Int, cities: [City])
        case loadFailed(requestID: Int, message: String)
    }

    public enum Effect: Codable, Equatable, Sendable {
        case fetch(requestID: Int, query: String)
    }

    /// Queries shorter than this do not search (except the empty query on appear, which lists favourites).
    public static let minimumQueryLength = 2

    public static func reduce(state: inout CitySearch, with message: Message<Input, Feedback>) -> Effect? {
        switch message {
        case .input(.onAppear):
            guard !state.hasAppeared else { return nil }
            state.hasAppeared = true
            return startFetch(&state, query: "")

        case .input(.queryChanged(let query)):
            state.query = query
            let trimmed = query.trimmingWhitespace()
            guard trimmed.count >= minimumQueryLength else {
                state.results = []
                state.isLoading = false
                state.errorMessage = nil
                return nil
            }
            return startFetch(&state, query: trimmed)

        case .feedback(.resultsLoaded(let id, let cities)):
            guard id == state.requestID else { return nil }
            state.results = cities
            state.isLoading = false
            state.errorMessage = nil
            return nil

        case .feedback(.loadFailed(let id, let message)):
            guard id == state.requestID else { return nil }
            state.results = []
            state.isLoading = false
            state.errorMessage = message
            return nil
        }
    }

    private static func startFetch(_ state: inout CitySearch, query: String) -> Effect {
        state.requestID += 1
        state.isLoading = true
        return .fetch(requestID: state.requestID, query: query)
    }
}

/// A city in search results.
public struct City: Codable, Equatable, Hashable, Sendable {
    public var name: String
    public var country: String
    public var population: Int

    public init(name: String, country: String, population: Int) {
        self.name = name
        self.country = country
        self.population = population
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
