import Foundation
import GRDB

extension CatalogBundle {
    /// Products, recipes and retailers matching what the user typed, best first. Accents and
    /// case do not matter ("cafe" finds Café), and the last word matches as a prefix, so results
    /// follow typing ("capp" finds Cappuccino). Names weigh more than summaries, summaries
    /// more than texts.
    public func search(_ text: String, limit: Int = 50) throws(CatalogBundleError) -> [SearchHit] {
        guard let query = Self.matchQuery(text) else { return [] }
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT kind, entity_id, name, summary FROM search WHERE search MATCH ?
                ORDER BY bm25(search, 0, 0, 10.0, 4.0, 1.0), entity_id LIMIT ?
                """, arguments: [query, limit]).compactMap { row in
                let id: String = row["entity_id"]
                let target: SearchTarget
                switch row["kind"] as String {
                case "product": target = .product(ProductID(rawValue: id))
                case "recipe": target = .recipe(RecipeID(rawValue: id))
                case "retailer": target = .retailer(RetailerID(rawValue: id))
                default: return nil
                }
                return SearchHit(target: target, name: row["name"], summary: row["summary"])
            }
        }
    }

    /// An FTS5 query from free text: its words, each quoted (so nothing the user types is FTS5
    /// syntax), all required, the last one as a prefix. Nil when there is no word.
    static func matchQuery(_ text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"" }.joined(separator: " ") + "*"
    }

    /// The retailers with coordinates nearest to `coordinate`, nearest first, with their
    /// distance in metres.
    public func retailersNearest(to coordinate: Coordinate, limit: Int = 10) throws(CatalogBundleError) -> [(retailer: RetailerRow, metres: Double)] {
        let located = try read { db in
            try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM retailers WHERE latitude IS NOT NULL")
                .map { (id: RetailerID(rawValue: $0["id"]), coordinate: Coordinate(latitude: $0["latitude"], longitude: $0["longitude"])) }
        }
        let nearest = located.map { ($0.id, coordinate.metres(to: $0.coordinate)) }
            .sorted { ($0.1, $0.0.rawValue) < ($1.1, $1.0.rawValue) }
            .prefix(limit)
        return try read { db in
            try nearest.compactMap { id, metres in try Self.retailerRow(db, id).map { ($0, metres) } }
        }
    }
}

extension Coordinate {
    /// The great-circle distance in metres (haversine, mean earth radius).
    public func metres(to other: Coordinate) -> Double {
        let radius = 6_371_008.8
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = (other.latitude - latitude) * .pi / 180, Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
