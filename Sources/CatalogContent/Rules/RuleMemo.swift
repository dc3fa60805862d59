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
    // @unchecked Sendable: `entries`, `check` and the counts are read and written under `lock`,
    // `textHashes` under `textLock` (`check` is read there: it changes only in `finishCheck`,
    // when no check is under way).
    private let lock = NSLock()
    private struct Key: Hashable {
        var entity: EntityReference
        /// Nil for the default language's catalogue, else the language it was translated to.
        var language: LanguageCode?
    }
    /// What the memo keeps by key, with the number of the last check that asked for it: those
    /// the check under way has not asked for are forgotten at its end. A number rather than a
    /// set of the keys asked for: building that set cost a tenth of a keystroke's check.
    private struct Kept<Value> {
        var byKey: [Key: (value: Value, asked: Int)] = [:]
        /// How many keys the check under way has asked for, each once.
        var asked = 0

        /// What `read` makes of the value kept for `key`, which is marked as asked for by
        /// check `check`; nil if none is kept. The value is read in place, not copied out.
        mutating func read<Result>(_ key: Key, check: Int, _ read: (Value) -> Result?) -> Result? {
            guard let index = byKey.index(forKey: key) else { return nil }
            if byKey.values[index].asked != check {
                byKey.values[index].asked = check
                asked += 1
            }
            return read(byKey.values[index].value)
        }

        mutating func set(_ value: Value, for key: Key, check: Int) {
            let previous = byKey.updateValue((value, check), forKey: key)
            if previous?.asked != check { asked += 1 }
        }

        /// Forgets the keys check `check` did not ask for: only when there are some, which the
        /// count tells without looking at each.
        mutating func finish(_ check: Int) {
            if byKey.count > asked { byKey = byKey.filter { $0.value.asked == check } }
            asked = 0
        }
    }
    /// An entity and what its own rules found; a class, so that reading one out of the memo
    /// is one retain, not a copy of every field.
    private final class Entry<Value> {
        let value: Value
        let diagnostics: [EntityDiagnostic]
        init(_ value: Value, _ diagnostics: [EntityDiagnostic]) {
            self.value = value
            self.diagnostics = diagnostics
        }
    }
    /// The entities of one type (products, recipes, retailers) with what their own rules found.
    private final class Entries<Value: Equatable> {
        var kept = Kept<Entry<Value>>()
    }
    /// One `Entries` per type of entity, by the type (typed: an `AnyHashable` per lookup cost
    /// an allocation and a copy of the entity).
    private var entries: [ObjectIdentifier: AnyObject] = [:]
    private var finishers: [(Int) -> Void] = []
    /// Each product's body and recipe's method with the hash of its collapsed text, nil for
    /// one that shows nothing (`CatalogRules.checkDuplicateTexts`). Under a lock of its own:
    /// the duplicate-text check runs beside the rest, which asks for the entries at each entity.
    private let textLock = NSLock()
    private var textHashes = Kept<(text: RichText, hash: Int?)>()
    /// The last catalogue translated to each language, and what it gave (under `lock`): the
    /// next is made from it (`Catalog.translated(to:reusing:)`). Its entities are those the
    /// entries for that language keep, so they take little memory of their own.
    private var lastTranslated: [LanguageCode: (source: Catalog, translated: Catalog)] = [:]
    /// The number of the check under way.
    private var check = 0
    private var hits = 0, misses = 0

    package init() {}

    /// `catalog` translated to `language`, each entity that is as it was at the last check
    /// taken as it was translated then: a save changes a few entities of thousands.
    package func translated(_ catalog: Catalog, to language: LanguageCode) -> Catalog {
        let previous = lock.withLock { lastTranslated[language] }
        let translated = catalog.translated(to: language, reusing: previous)
        lock.withLock { lastTranslated[language] = (catalog, translated) }
        return translated
    }

    /// How many entities' own rules were taken from the memo and how many run, since it was made.
    package var counts: (hits: Int, misses: Int) {
        lock.withLock { (hits, misses) }
    }

    /// The entries for entities of type `Value`, made at first use. Under `lock`.
    private func entries<Value: Equatable>(of type: Value.Type) -> Entries<Value> {
        if let found = entries[ObjectIdentifier(type)] { return unsafeDowncast(found, to: Entries<Value>.self) }
        let made = Entries<Value>()
        entries[ObjectIdentifier(type)] = made
        finishers.append { made.kept.finish($0) }
        return made
    }

    /// The diagnostics of `entity`'s own rules when it was `value`, if it was.
    func diagnostics<Value: Equatable>(of entity: EntityReference, in language: LanguageCode?, ifStill value: Value) -> [EntityDiagnostic]? {
        let key = Key(entity: entity, language: language)
        return lock.withLock {
            guard let diagnostics = entries(of: Value.self).kept.read(key, check: check, { $0.value == value ? $0.diagnostics : nil }) else {
                misses += 1
                return nil
            }
            hits += 1
            return diagnostics
        }
    }

    func store<Value: Equatable>(_ diagnostics: [EntityDiagnostic], of entity: EntityReference, in language: LanguageCode?, value: Value) {
        lock.withLock { entries(of: Value.self).kept.set(Entry(value, diagnostics), for: Key(entity: entity, language: language), check: check) }
    }

    /// The hash of `text`'s collapsed text (`CatalogRules.CollapsedText`) as `compute` gives
    /// it, or as it gave it for `entity` when its text was the same.
    func textHash(of entity: EntityReference, in language: LanguageCode?, _ text: RichText, compute: () -> Int?) -> Int? {
        let key = Key(entity: entity, language: language)
        let kept: Int?? = textLock.withLock { textHashes.read(key, check: check) { $0.text == text ? .some($0.hash) : nil } }
        if let kept { return kept }
        let hash = compute()
        textLock.withLock { textHashes.set((text, hash), for: key, check: check) }
        return hash
    }

    /// Ends a check: forgets the entities (and languages) it did not ask for, so that the memo
    /// holds one catalogue's, not every entity ever seen.
    func finishCheck() {
        lock.withLock {
            for finish in finishers { finish(check) }
            // Under both locks: either orders a read of `check` after it.
            textLock.withLock {
                textHashes.finish(check)
                check += 1
            }
        }
    }
}
