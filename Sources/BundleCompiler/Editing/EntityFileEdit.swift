import CatalogContent
import CatalogModel

/// A form's texts written into an entity's content file as a careful editor would write them by
/// hand (`digno studio`): only the elements whose text changed change, each in place; a new
/// translation on a line of its own after the languages before it; a translation removed with
/// its line. Comments, order, indentation, line ends and every other element stay as written.
package enum EntityFileEdit {
    /// One text of an entity given a value.
    package struct Change: Hashable, Sendable {
        package var entity: EntityReference
        package var field: FieldPath
        /// The translation's language; nil for the default language's text.
        package var language: LanguageCode?
        /// The words; nil removes the translation (the default language's text cannot be removed).
        package var value: String?
        /// The formatted text, for a body or method (`value` is then its markup).
        package var rich: RichText?

        package init(entity: EntityReference, field: FieldPath, language: LanguageCode?, value: String?, rich: RichText? = nil) {
            self.entity = entity
            self.field = field
            self.language = language
            self.value = value
            self.rich = rich
        }
    }

    /// Why a change could not be written: the file is not what its form was made from, or does
    /// not parse.
    package struct Unplaceable: Error, CustomStringConvertible {
        package var description: String
    }

    /// The file `entity` is written in, relative to the content folder (`products/espresso.xml`,
    /// a promotion's `home.xml`); nil for an entity of a repeated kind without an id.
    package static func path(of entity: EntityReference) -> String? {
        ContentFile.named(for: entity)?.path
    }

    /// `bytes`, the content file of the changes' entities (all in one file), with `changes`
    /// written in. `languages`: the catalogue's, the default first, in declared order.
    package static func applying(_ changes: [Change], to bytes: [UInt8], languages: [LanguageCode]) throws(Unplaceable) -> [UInt8] {
        guard let first = changes.first else { return bytes }
        guard let file = ContentFile.named(for: first.entity), changes.allSatisfy({ ContentFile.named(for: $0.entity) == file }) else {
            throw Unplaceable(description: "the changes are not all of one content file")
        }
        var edited = bytes
        // One language at a time, the default's first: each edit finds its places in the
        // text the one before it wrote.
        let byLanguage = Dictionary(grouping: changes, by: \.language)
        let order: [LanguageCode?] = [nil] + languages.dropFirst().map { $0 }
        for language in order + byLanguage.keys.filter({ !order.contains($0) }).sorted(by: { ($0?.rawValue ?? "") < ($1?.rawValue ?? "") }) {
            guard let group = byLanguage[language], !group.isEmpty else { continue }
            let edit = ContentFileEdit(file: file, bytes: edited, language: language, languageOrder: languages)
            do {
                edited = try edit.applying(group.map {
                    ContentFileEdit.Translation(entity: $0.entity, field: $0.field,
                                                value: $0.value == nil ? nil : $0.rich.map { .rich($0) } ?? $0.value.map { .plain($0) })
                }).bytes
            } catch {
                throw Unplaceable(description: error.message)
            }
        }
        return edited
    }
}
