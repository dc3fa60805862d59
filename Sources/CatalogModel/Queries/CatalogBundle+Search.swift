import Foundation
import GRDB

extension CatalogBundle {
    /// Products, recipes and retailers matching what the user typed, best first, in the
    /// language the bundle is read in (`reading(in:)`): its texts as its readers see them.
    /// Case does not matter, accents do not ("cafe" finds Café), and the last word matches as
    /// a prefix, so results follow typing ("capp" finds Cappuccino). In Finnish and Swedish, å,
    /// ä and ö are letters of their own: names written with the letters typed come first ("pää"
    /// finds Pää before Paa), and a query typed without them (a foreign keyboard) still finds
    /// them, after. Ranked in tiers, each name tier in list order (products, recipes,
    /// retailers): names holding every word whole with the letters as typed, then as a prefix;
    /// names holding every word whole with any accents, then as a prefix; then summaries and
    /// texts, by relevance (bm25, summaries weighing more than texts). A bundle of schema 2 is
    /// searched as its one language, accents folded.
    public func search(_ text: String, limit: Int = 50) throws(CatalogBundleError) -> [SearchHit] {
        try read(.search(text, limit: limit, textReading, languageIndexes: release.schemaVersion >= 3))
    }

    /// Products, recipes and retailers matching what the user typed, best first; see
    /// `search(_:limit:)`.
    public func search(_ text: String, limit: Int = 50) async throws(CatalogBundleError) -> [SearchHit] {
        try await read(.search(text, limit: limit, textReading, languageIndexes: release.schemaVersion >= 3))
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
    /// The search of `CatalogBundle.search(_:limit:)`. `languageIndexes`: the bundle has
    /// schema 3's (`search_translated`, `search_letters`).
    static func search(_ text: String, limit: Int, _ reading: TextReading, languageIndexes: Bool) -> Self {
        Self { db in
            guard let prefixQuery = matchQuery(text), limit > 0 else { return [] }
            var tiers: [(index: SearchIndex, match: String, ranked: Bool)] = []
            // The rows of each language index are runs of one row per entity, a language after
            // another (schema-3.sql): the reading language's run is found from the count, which
            // a damaged bundle may give as anything.
            let entities = languageIndexes ? (try Int.fetchOne(db, sql: "SELECT max(rowid) FROM search_entries") ?? 0) : 0
            func run(_ number: Int) -> ClosedRange<Int>? {
                let (first, overflow) = number.multipliedReportingOverflow(by: entities)
                guard entities > 0, number >= 0, !overflow, first <= Int.max - entities else { return nil }
                return first + 1...first + entities
            }
            if languageIndexes, !SearchLetters.ownLetters(of: reading.language).isEmpty,
               let letters = matchQuery(SearchLetters.folded(text, language: reading.language)), let rows = run(reading.index) {
                let index = SearchIndex(table: "search_letters", entries: "search_letters_entries", weights: "", rows: rows)
                tiers += [(index, "name : (\(letters.dropLast()))", false), (index, "name : (\(letters))", false)]
            }
            let folded: SearchIndex
            if languageIndexes, reading.index > 0 {
                // A bundle whose count gives no run finds nothing in this language, rather than another's rows.
                guard let rows = run(reading.index - 1) else { return [] }
                folded = SearchIndex(table: "search_translated", entries: "search_translated_entries", weights: "10.0, 4.0, 1.0", rows: rows)
            } else {
                folded = SearchIndex(table: "search", entries: "search_entries", weights: "10.0, 4.0, 1.0", rows: nil)
            }
            let wholeWords = String(prefixQuery.dropLast())  // the same words, the last one whole
            tiers += [(folded, "name : (\(wholeWords))", false), (folded, "name : (\(prefixQuery))", false), (folded, prefixQuery, true)]
            var hits: [SearchHit] = []
            for tier in tiers where hits.count < limit {
                hits += try Self.hits(db, reading, in: tier.index, match: tier.match, ranked: tier.ranked, limit: limit - hits.count,
                                      excluding: Set(hits.map(\.target)))
            }
            return hits
        }
    }

    /// One of the full-text indexes, with the table naming each row's entity, the weights of
    /// its columns for bm25, and the run of rowids of the language searched (nil: every row).
    struct SearchIndex {
        var table: String
        var entries: String
        var weights: String
        var rows: ClosedRange<Int>?
    }

    /// FTS5 scores every match before it can rank them, and a two-letter prefix matches
    /// thousands of names; so name tiers are not scored: they come in index order, which is
    /// list order (the compiler inserts rows by position), and stop at the limit. The indexes
    /// are contentless: the entries table names each row's entity, whose name and summary come
    /// from its own table, read in the reading's language.
    private static func hits(
        _ db: Database, _ reading: TextReading, in index: SearchIndex, match: String, ranked: Bool, limit: Int, excluding: Set<SearchTarget>
    ) throws -> [SearchHit] {
        var texts = TranslatedTexts(reading)
        texts.add("name", "coalesce(p.name, r.name, s.name)", kind: "e.kind", entity: "e.entity_id", field: TranslatedColumn.name.fieldSQL())
        texts.add("summary", "coalesce(p.summary, r.summary, '')", kind: "e.kind", entity: "e.entity_id", field: TranslatedColumn.summary.fieldSQL())
        // The index's table, entries and weights are names and numbers of ours (identifiers,
        // which SQL cannot bind); the match, the run of rows and the limit are bound.
        let table = index.table
        let range: SQL = index.rows.map { "AND \(sql: table).rowid BETWEEN \($0.lowerBound) AND \($0.upperBound)" } ?? ""
        let order = ranked ? "bm25(\(table), \(index.weights)), \(table).rowid" : "\(table).rowid"
        return try SQLRequest<Row>(literal: """
            SELECT e.kind, e.entity_id, \(literal: texts.select)
            FROM \(sql: table)
            JOIN \(sql: index.entries) e ON e.rowid = \(sql: table).rowid
            LEFT JOIN products p ON e.kind = 'product' AND p.id = e.entity_id
            LEFT JOIN recipes r ON e.kind = 'recipe' AND r.id = e.entity_id
            LEFT JOIN retailers s ON e.kind = 'retailer' AND s.id = e.entity_id
            \(literal: texts.join)
            WHERE \(sql: table) MATCH \(match) \(literal: range) ORDER BY \(sql: order) LIMIT \(limit + excluding.count)
            """).fetchAll(db).lazy.map { try SearchHit(row: $0, reading: reading) }
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
            let rows = try RetailerRow.fetchAll(db, reading: reading, where: "r.id IN \(nearest.map(\.0.rawValue))")
            let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return nearest.compactMap { id, metres in byID[id].map { NearbyRetailer(retailer: $0, metres: metres) } }
        }
    }
}
