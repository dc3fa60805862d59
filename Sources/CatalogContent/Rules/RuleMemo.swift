import CatalogModel
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
    /// The entities of one type (products, recipes, retailers) with what their own rules found.
    private final class Entries<Value: Equatable> {
        var byKey: [Key: (value: Value, diagnostics: [EntityDiagnostic])] = [:]
        func forget(unless kept: Set<Key>) {
            for key in byKey.keys.filter({ !kept.contains($0) }) { byKey.removeValue(forKey: key) }
        }
    }
    /// One `Entries` per type of entity, by the type (typed: an `AnyHashable` per lookup cost
    /// an allocation and a copy of the entity).
    private var entries: [ObjectIdentifier: AnyObject] = [:]
    private var forgetters: [(Set<Key>) -> Void] = []
    /// Each product's body and recipe's method with the hash of its collapsed text, nil for
    /// one that shows nothing (`CatalogRules.checkDuplicateTexts`).
    private var textHashes: [Key: (text: RichText, hash: Int?)] = [:]
    /// The entities the check under way has asked for: the others are forgotten at its end.
    private var checked = Set<Key>()
    private var hits = 0, misses = 0

    package init() {}

    /// How many entities' own rules were taken from the memo and how many run, since it was made.
    package var counts: (hits: Int, misses: Int) {
        lock.withLock { (hits, misses) }
    }

    /// The entries for entities of type `Value`, made at first use. Under `lock`.
    private func entries<Value: Equatable>(of type: Value.Type) -> Entries<Value> {
        if let found = entries[ObjectIdentifier(type)] { return unsafeDowncast(found, to: Entries<Value>.self) }
        let made = Entries<Value>()
        entries[ObjectIdentifier(type)] = made
        forgetters.append(made.forget)
        return made
    }

    /// The diagnostics of `entity`'s own rules when it was `value`, if it was.
    func diagnostics<Value: Equatable>(of entity: EntityReference, in language: LanguageCode?, ifStill value: Value) -> [EntityDiagnostic]? {
        let key = Key(entity: entity, language: language)
        return lock.withLock {
            checked.insert(key)
            guard let entry = entries(of: Value.self).byKey[key], entry.value == value else {
                misses += 1
                return nil
            }
            hits += 1
            return entry.diagnostics
        }
    }

    func store<Value: Equatable>(_ diagnostics: [EntityDiagnostic], of entity: EntityReference, in language: LanguageCode?, value: Value) {
        lock.withLock { entries(of: Value.self).byKey[Key(entity: entity, language: language)] = (value, diagnostics) }
    }

    /// The hash of `text`'s collapsed text (`CatalogRules.CollapsedText`) as `compute` gives
    /// it, or as it gave it for `entity` when its text was the same.
    func textHash(of entity: EntityReference, in language: LanguageCode?, _ text: RichText, compute: () -> Int?) -> Int? {
        let key = Key(entity: entity, language: language)
        if let kept = lock.withLock({ textHashes[key] }), kept.text == text { return kept.hash }
        let hash = compute()
        lock.withLock { textHashes[key] = (text, hash) }
        return hash
    }

    /// Ends a check: forgets the entities (and languages) it did not ask for, so that the memo
    /// holds one catalogue's, not every entity ever seen.
    func finishCheck() {
        lock.withLock {
            for forget in forgetters { forget(checked) }
            // Every body and method belongs to a product or recipe whose own rules were asked for.
            for key in textHashes.keys.filter({ !checked.contains($0) }) { textHashes.removeValue(forKey: key) }
            checked.removeAll(keepingCapacity: true)
        }
    }
}
