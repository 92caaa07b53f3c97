import ActionLogStore

/// The city search's effect handler, simulated: a fixed catalogue and no network, so every run
/// gives the same answers. A query containing a digit fails, to exercise the failure path.
public struct CitySearchEffects: EffectHandler {
    public typealias State = CitySearch

    public static let catalogue: [City] = [
        City(name: "Paris", country: "FR", population: 2_102_650),
        City(name: "Parma", country: "IT", population: 198_292),
        City(name: "Paramaribo", country: "SR", population: 240_924),
        City(name: "Berlin", country: "DE", population: 3_878_100),
        City(name: "Bern", country: "CH", population: 134_591),
        City(name: "Bergen", country: "NO", population: 291_940),
        City(name: "Lisbon", country: "PT", population: 545_796),
        City(name: "Lima", country: "PE", population: 10_004_141),
        City(name: "Lyon", country: "FR", population: 522_250),
        City(name: "Oslo", country: "NO", population: 717_710),
    ]

    /// Shown when the query is empty (on appear).
    public static let favourites = ["Paris", "Oslo"]

    public init() {}

    public func handle(_ effect: CitySearch.Effect) async -> CitySearch.Feedback? {
        switch effect {
        case .fetch(let requestID, let query):
            await Task.yield()
            if query.contains(where: \.isNumber) {
                return .loadFailed(requestID: requestID, message: "The city service rejected \"\(query)\": digits are not allowed")
            }
            if query.isEmpty {
                return .resultsLoaded(requestID: requestID, cities: Self.catalogue.filter { Self.favourites.contains($0.name) })
            }
            let matches = Self.catalogue
                .filter { $0.name.lowercased().hasPrefix(query.lowercased()) }
                .sorted { $0.population > $1.population }
            return .resultsLoaded(requestID: requestID, cities: matches)
        }
    }
}
