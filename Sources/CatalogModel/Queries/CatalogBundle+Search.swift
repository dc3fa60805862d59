import Foundation
import GRDB

extension CatalogBundle {
    /// Products, recipes and retailers matching what the user typed, best first. Accents and
    /// case do not matter ("cafe" finds Café), and the last word matches as a prefix, so results
    /// follow typing ("capp" finds Cappuccino). Ranked in three tiers: names holding every word
    /// whole, then names where the last word is a prefix, each tier in list order (products,
    /// recipes, retailers); then summaries and texts, by relevance (bm25, summaries weighing
    /// more than texts).
    public func search(_ text: String, limit: Int = 50) throws(CatalogBundleError) -> [SearchHit] {
        try read(.search(text, limit: limit, textReading))
    }

    /// Products, recipes and retailers matching what the user typed, best first; see
    /// `search(_:limit:)`.
    public func search(_ text: String, limit: Int = 50) async throws(CatalogBundleError) -> [SearchHit] {
        try await read(.search(text, limit: limit, textReading))
    }

    /// The retailers with coordinates nearest to `coordinate`, nearest first, with their
    /// distance in metres.
    public func retailersNearest(to coordinate: Coordinate, limit: Int = 10) throws(CatalogBundleError) -> [NearbyRetailer] {
        try read(.retailersNearest(to: coordinate, limit: limit, textReading))
    }

    /// The retailers with coordinates nearest to `coordinate`, nearest first, with their
    /// distance in metres.
    public func retailersNearest(to coordinate: Coordinate, limit: Int = 10) async throws(CatalogBundleError) -> [NearbyRetailer] {
        try await read(.retailersNearest(to: coordinate, limit: limit, textReading))
    }
}

extension BundleQuery where Value == [SearchHit] {
    /// The search of `CatalogBundle.search(_:limit:)`.
    static func search(_ text: String, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            guard let prefixQuery = matchQuery(text), limit > 0 else { return [] }
            let wholeWords = String(prefixQuery.dropLast())  // the same words, the last one whole
            // FTS5 scores every match before it can rank them, and a two-letter prefix matches
            // thousands of names; so name tiers are not scored: they come in index order, which
            // is list order (the compiler inserts rows by position), and stop at the limit.
            var hits = try Self.hits(db, reading, match: "name : (\(wholeWords))", order: "search.rowid", limit: limit, excluding: [])
            for (match, order) in [("name : (\(prefixQuery))", "search.rowid"), (prefixQuery, "bm25(search, 10.0, 4.0, 1.0), search.rowid")]
            where hits.count < limit {
                hits += try Self.hits(db, reading, match: match, order: order, limit: limit - hits.count, excluding: Set(hits.map(\.target)))
            }
            return hits
        }
    }

    /// The index is contentless: `search_entries` names each row's entity, whose name and
    /// summary come from its own table.
    private static func hits(
        _ db: Database, _ reading: TextReading, match: String, order: String, limit: Int, excluding: Set<SearchTarget>
    ) throws -> [SearchHit] {
        var texts = TranslatedTexts(reading)
        texts.add("name", "coalesce(p.name, r.name, s.name)", kind: "e.kind", entity: "e.entity_id", field: "'name'")
        texts.add("summary", "coalesce(p.summary, r.summary, '')", kind: "e.kind", entity: "e.entity_id", field: "'summary'")
        return try Row.fetchAll(db, sql: """
            SELECT e.kind, e.entity_id, \(texts.select)
            FROM search
            JOIN search_entries e ON e.rowid = search.rowid
            LEFT JOIN products p ON e.kind = 'product' AND p.id = e.entity_id
            LEFT JOIN recipes r ON e.kind = 'recipe' AND r.id = e.entity_id
            LEFT JOIN retailers s ON e.kind = 'retailer' AND s.id = e.entity_id
            \(texts.join)
            WHERE search MATCH ? ORDER BY \(order) LIMIT ?
            """, arguments: [match, limit + excluding.count]).lazy.map { try SearchHit(row: $0, reading: reading) }
            .filter { !excluding.contains($0.target) }.prefix(limit).map { $0 }
    }

    /// An FTS5 query from free text: its words, each quoted (so nothing the user types is FTS5
    /// syntax), all required, the last one as a prefix. Nil when there is no word.
    static func matchQuery(_ text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"" }.joined(separator: " ") + "*"
    }
}

extension BundleQuery where Value == [NearbyRetailer] {
    /// The query of `CatalogBundle.retailersNearest(to:limit:)`: every located retailer's place,
    /// then the nearest ones' rows, in one read.
    static func retailersNearest(to coordinate: Coordinate, limit: Int, _ reading: TextReading) -> Self {
        Self { db in
            let located = try Row.fetchAll(db, sql: "SELECT id, latitude, longitude FROM retailers WHERE latitude IS NOT NULL").compactMap { row in
                try RetailerRow.coordinate(row).map { (id: RetailerID(rawValue: try row.slug("id")), coordinate: $0) }
            }
            let nearest = located.map { ($0.id, coordinate.metres(to: $0.coordinate)) }
                .sorted { ($0.1, $0.0.rawValue) < ($1.1, $1.0.rawValue) }
                .prefix(max(0, limit))
            let placeholders = Array(repeating: "?", count: nearest.count).joined(separator: ",")
            let rows = try RetailerRow.fetchAll(db, reading: reading, where: "r.id IN (\(placeholders))", arguments: StatementArguments(nearest.map(\.0.rawValue)))
            let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return nearest.compactMap { id, metres in byID[id].map { NearbyRetailer(retailer: $0, metres: metres) } }
        }
    }
}
