import CatalogModel
import Foundation

extension Catalog {
    /// Checks every rule that concerns the catalogue as a whole: required fields and their
    /// lengths, references between entities, the 1..* relations, duplicate ids, names, texts
    /// and positions, and promotions. Returns every problem found, errors and warnings, in a
    /// stable order; an empty array means the catalogue is valid. Synchronous; it uses a second
    /// thread for part of the work while the calling one does the rest.
    ///
    /// - Parameters:
    ///   - today: the day to judge promotions against; a promotion whose last day is before it
    ///     gets a `promotion-ended` warning. Nil skips that check.
    ///   - unloaded: entities that exist but could not be loaded (their files have errors of
    ///     their own). References to them are not reported as unknown, a kind with unloaded
    ///     entities is not reported empty, and while a recipe is unloaded no product is reported
    ///     unused, since that recipe may use it. A reference with an empty id, such as
    ///     `EntityReference(.product)`, stands for a whole kind that could not be read (its
    ///     folder was refused): no reference to that kind is judged, since any id may exist.
    package func validate(today: Day? = nil, unloaded: Set<EntityReference> = []) -> [EntityDiagnostic] {
        let rules = CatalogRules(catalog: self, unloaded: unloaded)
        // The duplicate-text check, about half the work, runs on a second core beside the
        // rest; its diagnostics still come last.
        let parts = IssueParts()
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var rules = rules
            if part == 0 {
                rules.checkCatalog()
                rules.checkProducts()
                rules.checkRecipes()
                rules.checkRetailers()
                rules.checkHome(today: today)
                rules.checkCompany()
                rules.checkDuplicateNames()
            } else {
                rules.checkDuplicateTexts()
            }
            parts.set(part, rules.diagnostics)
        }
        return parts.joined
    }
}

/// The diagnostics each part of `validate` found, handed back from the threads that ran them.
private final class IssueParts: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[EntityDiagnostic]] = [[], []]  // guarded by `lock`

    func set(_ part: Int, _ diagnostics: [EntityDiagnostic]) {
        lock.withLock { parts[part] = diagnostics }
    }

    var joined: [EntityDiagnostic] { lock.withLock { parts.flatMap { $0 } } }
}

