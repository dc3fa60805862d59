import CatalogModel
import Foundation

/// Decides list order: items the editor placed (`position`) come first in that order; the rest
/// follow by name in Finnish alphabetical order (å, ä, ö after z), ties broken by id so the
/// order never depends on file order.
enum ListOrder {
    /// The collation: Foundation's locale-aware comparison for Finnish.
    static let finnish = Locale(identifier: "fi_FI")

    /// The 1-based positions of `items`, by id.
    static func positions(_ items: [(id: String, name: String, position: Int?)]) -> [String: Int] {
        let placed = items.filter { $0.position != nil }.sorted { ($0.position!, $0.id) < ($1.position!, $1.id) }
        let unplaced = items.filter { $0.position == nil }.sorted { a, b in
            switch a.name.compare(b.name, options: [.caseInsensitive], range: nil, locale: finnish) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: a.id < b.id
            }
        }
        var result: [String: Int] = [:]
        result.reserveCapacity(items.count)
        for (index, item) in (placed + unplaced).enumerated() { result[item.id] = index + 1 }
        return result
    }
}
