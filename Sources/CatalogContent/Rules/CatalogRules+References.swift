import CatalogModel

extension CatalogRules {
    // MARK: References to products and recipes

    mutating func checkReference(_ target: LinkTarget, _ field: FieldPath, _ entity: EntityReference, element: String) {
        switch target {
        case .product(let id) where !productIDs.contains(id) && !unreadKinds.contains(.product):
            report(.unknownProduct, entity, field,
                   "\(element) names product '\(id)', which does not exist; use the id of a file in products/"
                       + Self.suggestion(for: id.rawValue, among: productIDs.map(\.rawValue)))
        case .recipe(let id) where !recipeIDs.contains(id) && !unreadKinds.contains(.recipe):
            report(.unknownRecipe, entity, field,
                   "\(element) names recipe '\(id)', which does not exist; use the id of a file in recipes/"
                       + Self.suggestion(for: id.rawValue, among: recipeIDs.map(\.rawValue)))
        default:
            break
        }
    }

    /// ` (did you mean 'espresso'?)` when one id is close to the unknown one.
    static func suggestion(for unknown: String, among candidates: [String]) -> String {
        nearest(to: unknown, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The id nearest to an unknown one, if one is close enough to be what was meant; of
    /// equally near ones, the first in code-point order, whatever the candidates' order.
    static func nearest(to unknown: String, among candidates: [String]) -> String? {
        let typed = Array(unknown)
        let limit = max(2, typed.count / 4)
        return candidates
            .compactMap { id in editDistance(typed, Array(id), limit: limit).map { (id: id, distance: $0) } }
            .min { ($0.distance, $0.id) < ($1.distance, $1.id) }?.id
    }
}
