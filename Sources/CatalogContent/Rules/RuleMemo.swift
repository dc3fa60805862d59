import Foundation

/// What the rules that concern one entity alone (its texts, their limits and characters, its
/// pictures' count and words, its own lists) found at an earlier check of the same catalogue,
/// by entity and language, kept between checks (`digno lsp`, `digno preview`): an entity equal
/// to the one checked then is not checked again, its diagnostics are taken as they were. The
/// rules across entities (references, the 1..* relations, duplicates) run over the whole
/// catalogue each time. The result is the same as with no memo: those rules read nothing but
/// the entity (`CatalogRules.own`).
package final class RuleMemo: @unchecked Sendable {
    // @unchecked Sendable: `entries`, `checked` and the counts are read and written under `lock`.
    private let lock = NSLock()
    private struct Key: Hashable {
        var entity: EntityReference
        /// Nil for the default language's catalogue, else the language it was translated to.
        var language: LanguageCode?
    }
    private var entries: [Key: (value: AnyHashable, diagnostics: [EntityDiagnostic])] = [:]
    /// The entities the check under way has asked for: the others are forgotten at its end.
    private var checked = Set<Key>()
    private var hits = 0, misses = 0

    package init() {}

    /// How many entities' own rules were taken from the memo and how many run, since it was made.
    package var counts: (hits: Int, misses: Int) {
        lock.withLock { (hits, misses) }
    }

    /// The diagnostics of `entity`'s own rules when it was `value`, if it was.
    func diagnostics(of entity: EntityReference, in language: LanguageCode?, ifStill value: AnyHashable) -> [EntityDiagnostic]? {
        let key = Key(entity: entity, language: language)
        return lock.withLock {
            checked.insert(key)
            guard let entry = entries[key], entry.value == value else {
                misses += 1
                return nil
            }
            hits += 1
            return entry.diagnostics
        }
    }

    func store(_ diagnostics: [EntityDiagnostic], of entity: EntityReference, in language: LanguageCode?, value: AnyHashable) {
        lock.withLock { entries[Key(entity: entity, language: language)] = (value, diagnostics) }
    }

    /// Ends a check: forgets the entities (and languages) it did not ask for, so that the memo
    /// holds one catalogue's, not every entity ever seen.
    func finishCheck() {
        lock.withLock {
            if entries.count > checked.count {
                for key in entries.keys where !checked.contains(key) { entries.removeValue(forKey: key) }
            }
            checked.removeAll(keepingCapacity: true)
        }
    }
}
