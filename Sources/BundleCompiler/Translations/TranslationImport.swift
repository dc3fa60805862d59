import CatalogContent
import CatalogModel

/// A translator's XLIFF file read back into the content (`digno translations import`): each
/// unit matched with the text of its id, checked (its source the current one, its codes the
/// source's), and its target written into the entity's file as the translation an editor
/// would write (`ContentFileEdit`); then the edited content is validated as a whole before
/// anything is written. A plan only: the caller writes `files`, each whole.
package struct TranslationImport {
    /// The content folder, and the catalogue validated from it.
    package let contentFolder: String
    package let catalog: Catalog
    /// The XLIFF file as diagnostics name it: relative to the content folder, as content files are.
    package let xliffName: String

    package init(contentFolder: String, catalog: Catalog, xliffName: String) {
        self.contentFolder = contentFolder
        self.catalog = catalog
        self.xliffName = xliffName
    }

    /// A translation the import writes.
    package struct Change: Hashable, Sendable {
        package var id: String
        package var entity: EntityReference
        package var entityName: String
        package var field: FieldPath
        /// Whether the text had no translation into the language before.
        package var isNew: Bool
    }

    /// What importing a file would do: refused (`diagnostics` has errors, nothing to write), or
    /// the files to write.
    package struct Plan: Sendable {
        package var language: LanguageCode?
        package var diagnostics: [Diagnostic] = []
        package var changes: [Change] = []
        /// Units whose target is the translation already in the content.
        package var unchanged = 0
        /// Units the tool does not mark done, or with no target: left as they are.
        package var notDone = 0
        /// Each file's path, relative to the content folder, and its new bytes.
        package var files: [(path: String, bytes: [UInt8])] = []

        package var isRefused: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// What importing `xliff` would do.
    package func plan(_ xliff: ReturnedXLIFF) throws(CompilerError) -> Plan {
        var plan = Plan()
        func refuse(_ code: DiagnosticCode, line: Int?, entity: EntityReference? = nil, _ message: String) {
            plan.diagnostics.append(Diagnostic(.error, code, file: xliffName, line: line, entity: entity, language: plan.language, message: message))
        }
        let languages = catalog.languages
        guard let target = xliff.targetLanguage.map({ LanguageCode(collapsingWhitespace($0)) }) else {
            refuse(.xliffLanguage, line: xliff.languageLine, "the file names no target language (\(xliff.version == .v1_2 ? "target-language" : "trgLang")); export it again with digno translations export")
            return plan
        }
        guard languages.translated.contains(target) else {
            let declared = languages.translated.map(\.rawValue).joined(separator: ", ")
            refuse(.xliffLanguage, line: xliff.languageLine, "the file translates into '\(target)', which the catalogue does not translate into (\(declared.isEmpty ? "none" : declared)); declare it in catalog.xml's <languages> first")
            return plan
        }
        plan.language = target
        if let source = xliff.sourceLanguage.map({ LanguageCode(collapsingWhitespace($0)) }), source != languages.defaultLanguage {
            refuse(.xliffLanguage, line: xliff.languageLine, "the file translates from '\(source)', and the catalogue's texts are in '\(languages.defaultLanguage)'")
            return plan
        }
        let current = catalog.translationTexts(into: target)
        let byID = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: [String: Int] = [:]
        typealias Edit = (unit: TranslationUnit, line: Int, value: TranslationUnit.Text)
        var edits: [Edit] = []
        for (index, returned) in xliff.units.enumerated() {
            // A file of nothing but refusals says so without a line for each of millions of units.
            if plan.diagnostics.count == Self.maxRefusals {
                let left = xliff.units.count - index
                plan.diagnostics[plan.diagnostics.count - 1].message += "; the units after this one (\(left)) were not checked: fix these and import again"
                break
            }
            if let first = seen[returned.id] {
                refuse(.xliffUnitTwice, line: returned.line, "unit '\(returned.id)' is in the file twice (first at line \(first)); keep one")
                continue
            }
            seen[returned.id] = returned.line
            guard let unit = byID[returned.id] else {
                refuse(.xliffUnitUnknown, line: returned.line, "no text of the content has the id '\(returned.id)': the text was removed, or its item or field renamed, since the export; translate what a new export gives")
                continue
            }
            guard Self.comparable(returned.source) == Self.comparable(XLIFFPiece.pieces(of: unit.source)) else {
                refuse(.xliffSourceChanged, line: returned.line, entity: unit.entity,
                       "the source of '\(returned.id)' is not the content's text now (“\(Self.clipped(unit.source.words))”): it changed since the export, so this translation is of an older text; export again and translate the new text")
                continue
            }
            guard let target = returned.target, returned.isDone(in: xliff.version), Self.hasWords(target) else {
                plan.notDone += 1
                continue
            }
            let value: TranslationUnit.Text
            switch unit.source {
            case .plain:
                guard let words = XLIFFPiece.plainText(target) else {
                    let problem = target.first { if case .foreign = $0 { true } else { false } }.map { piece -> XLIFFCodeProblem in
                        if case .foreign(let name) = piece { .foreign(name) } else { .codeInPlainText }
                    } ?? .codeInPlainText
                    refuse(.xliffCodeBroken, line: returned.line, entity: unit.entity, "'\(returned.id)': " + problem.message)
                    continue
                }
                value = .plain(NFC.normalized(collapsingWhitespace(words)))
            case .rich(let source):
                do {
                    value = .rich(Self.collapsed(try XLIFFPiece.richText(from: target, source: source)))
                } catch {
                    refuse(.xliffCodeBroken, line: returned.line, entity: unit.entity, "'\(returned.id)': " + error.message)
                    continue
                }
            }
            guard !value.words.allSatisfy(\.isWhitespace) else {
                plan.notDone += 1
                continue
            }
            if value == unit.target {
                plan.unchanged += 1
            } else {
                edits.append((unit, returned.line, value))
            }
        }
        guard !plan.isRefused, !edits.isEmpty else { return plan }

        // The edited files, validated together as the content they would make.
        let order = [languages.defaultLanguage] + languages.translated
        // Where each edit's element is in its edited file, to show a rule it breaks at its unit.
        var placed: [String: [(lines: ClosedRange<Int>, edit: Edit)]] = [:]
        func edited(_ edits: [Edit]) throws(CompilerError) -> [(path: String, bytes: [UInt8])]? {
            var byFile: [String: (file: ContentFile, translations: [(translation: ContentFileEdit.Translation, edit: Edit)])] = [:]
            for edit in edits {
                let file = Self.file(of: edit.unit.entity)
                byFile[file.path, default: (file, [])].translations.append((ContentFileEdit.Translation(entity: edit.unit.entity, field: edit.unit.field, value: edit.value), edit))
            }
            var files: [(path: String, bytes: [UInt8])] = []
            placed = [:]
            for (path, item) in byFile.sorted(by: { $0.key < $1.key }) {
                guard case .success(let bytes) = FileSystem.read(contentFolder + "/" + path, limit: FileLoader.maxFileSize) else {
                    refuse(.fileUnreadable, line: nil, "\(path) could not be read; nothing was imported")
                    return nil
                }
                do {
                    let (edited, lines) = try ContentFileEdit(file: item.file, bytes: bytes, language: target, languageOrder: order).applying(item.translations.map(\.translation))
                    files.append((path, edited))
                    placed[path] = zip(lines, item.translations.map(\.edit)).map { ($0, $1) }
                } catch {
                    refuse(.fileUnreadable, line: nil, error.message + "; nothing was imported")
                    return nil
                }
            }
            return files
        }
        guard var files = try edited(edits) else { return plan }
        var validator = ContentValidator(contentFolder: contentFolder)
        validator.overlays = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        let report = try validator.validate()
        let errors = report.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let imported = report.catalog else {
            // A rule the translations break, shown at the unit whose element it is in (else the
            // first of its entity's) with the validator's code, naming where it would be.
            var firstOfEntity: [EntityReference: Edit] = [:]
            for edit in edits where firstOfEntity[edit.unit.entity] == nil { firstOfEntity[edit.unit.entity] = edit }
            for error in errors.prefix(Self.maxRefusals) {
                var shown = error
                let atLine = error.file.flatMap { placed[$0] }?.first { place in error.line.map(place.lines.contains) ?? false }?.edit
                if let edit = atLine ?? error.entity.flatMap({ firstOfEntity[$0] }) {
                    shown.file = xliffName
                    shown.line = edit.line
                    shown.column = nil
                    let whose = atLine != nil ? "'\(edit.unit.id)'" : "'\(edit.unit.id)' and the other translations of \(edit.unit.entity.kind.rawValue) “\(edit.unit.entityName)”"
                    shown.message = "\(whose) would break a rule in \(error.file ?? "the content")" + (error.line.map { " at line \($0)" } ?? "") + ": " + error.message
                }
                plan.diagnostics.append(shown)
            }
            return plan
        }
        // A translation written differently but read the same (whitespace at a block's edge)
        // is no change: its file is left as it was.
        let after = Dictionary(imported.translationTexts(into: target).map { ($0.id, $0.target) }, uniquingKeysWith: { first, _ in first })
        let changed = edits.filter { edit in after[edit.unit.id].map { $0 != edit.unit.target } ?? true }
        plan.unchanged += edits.count - changed.count
        if changed.count != edits.count {
            guard let kept = try edited(changed) else { return plan }
            files = kept
        }
        plan.files = files
        plan.changes = changed.map { Change(id: $0.unit.id, entity: $0.unit.entity, entityName: $0.unit.entityName, field: $0.unit.field, isNew: $0.unit.target == nil) }
        return plan
    }

    /// The most refusals an import reports: past them, the rest of the file is not checked.
    static let maxRefusals = 100

    /// The content file an entity is written in (`ContentFile.named(for:)`: every entity the
    /// catalogue holds has one).
    static func file(of entity: EntityReference) -> ContentFile {
        ContentFile.named(for: entity) ?? ContentFile(path: "catalog.xml", kind: .catalog, id: "")
    }

    /// Pieces as compared with the content's source: whitespace runs one space, so that a tool
    /// that wraps or indents a source does not make it another.
    static func comparable(_ pieces: [XLIFFPiece]) -> [XLIFFPiece] {
        var result: [XLIFFPiece] = []
        for piece in pieces {
            switch piece {
            case .text(let text):
                let collapsed = collapsingRuns(text)
                if case .text(let before)? = result.last { result[result.count - 1] = .text(collapsingRuns(before + collapsed)) } else { result.append(.text(collapsed)) }
            case .code(let id, let form, let inner): result.append(.code(id: id, form: form, comparable(inner)))
            case .foreign: result.append(piece)
            }
        }
        if result.count == 1, case .text(let text) = result[0] { return [.text(collapsingWhitespace(text))] }
        return result
    }

    /// Rich text with each run's whitespace one space and in NFC, as a content file's is read
    /// (`RichTextReader` also trims the blocks' edges: the validation after the edit decides).
    static func collapsed(_ text: RichText) -> RichText {
        func inlines(_ parts: [RichText.Inline]) -> [RichText.Inline] {
            parts.map { part in
                switch part {
                case .text(let words): .text(NFC.normalized(collapsingRuns(words)))
                case .emphasis(let inner): .emphasis(inlines(inner))
                case .strong(let inner): .strong(inlines(inner))
                case .link(let target, let inner): .link(target, inlines(inner))
                }
            }
        }
        return RichText(blocks: text.blocks.map { block in
            switch block {
            case .paragraph(let parts): .paragraph(inlines(parts))
            case .heading(let level, let parts): .heading(level: level, inlines(parts))
            case .list(let ordered, let items): .list(ordered: ordered, items: items.map(inlines))
            }
        })
    }

    /// Every run of XML whitespace made one space, the ends kept.
    static func collapsingRuns(_ text: String) -> String {
        var result = ""
        var inSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                if !inSpace { result.append(" ") }
                inSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                inSpace = false
            }
        }
        return result
    }

    /// Whether pieces hold any words, codes aside: a target of empty codes is no translation.
    static func hasWords(_ pieces: [XLIFFPiece]) -> Bool {
        pieces.contains { piece in
            switch piece {
            case .text(let text): !text.allSatisfy(\.isWhitespace)
            case .code(_, _, let inner): hasWords(inner)
            case .foreign: true
            }
        }
    }

    /// A text short enough to quote in a message.
    static func clipped(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(77)) + "…"
    }
}
