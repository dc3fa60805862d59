import ArgumentParser
import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation

/// `digno translations`: the catalogue's texts out to translators' tools as XLIFF, and back.
struct Translations: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give translators the texts to translate as XLIFF, for their own tools, and take their translations back.",
        subcommands: [Export.self, Import.self])

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the texts to translate into one language as an XLIFF file.",
            usage: "digno translations export [<folder>] --language <code> --output <file> [--since <bundle>] [--only missing,outdated] [--xliff 1.2|2.0]",
            discussion: """
                One unit per translatable text (texts marked translate="no" are left out), grouped \
                by entity, each with an id that stays the same across releases, the source in the \
                catalogue's default language, the translation if there is one, a note naming the \
                entity and the field, the field's length limit, and its state: no target (needs \
                translation), needs-review-translation (the source changed since the release given \
                by --since while the translation did not, with the source as it was), or translated. \
                Rich text keeps its form as inline codes. XLIFF 1.2 by default (Xcode, Lokalise, \
                Weblate), 2.0 with --xliff 2.0 (Crowdin). Exit status as digno validate's: 0 \
                written, 1 the content has errors (nothing written), 2 usage or I/O errors.
                """)

        @OptionGroup var folder: ContentFolderArguments

        @Option(help: ArgumentHelp("The language to translate into, one the catalogue declares (sv).", valueName: "code"), transform: LanguageCode.argument)
        var language: LanguageCode

        @Option(help: ArgumentHelp("The XLIFF file to write ('-' for standard output).", valueName: "file"))
        var output: String

        @Option(help: ArgumentHelp("An earlier release's bundle: texts whose source changed since it, their translation unchanged, need review.", valueName: "bundle"))
        var since: String?

        @Option(help: ArgumentHelp("Export only these units: missing, outdated, or both (missing,outdated).", valueName: "states"),
                transform: UnitStates.init)
        var only: UnitStates?

        @Option(help: ArgumentHelp("The XLIFF version: 1.2 (the default) or 2.0.", valueName: "version"))
        var xliff = XLIFFWriter.Version.v1_2

        func run() throws {
            let earlier = try since.map(Validate.earlierRelease)
            let report = try ContentValidator(contentFolder: folder.contentFolder).validate()
            guard report.isValid, let catalog = report.catalog else {
                FileHandle.standardError.write(Data(ReportFormat.text.render(report, contentFolder: folder.contentFolder).utf8))
                throw CommandFailed.refused("the content has errors; fix them (digno validate) and export again; nothing was written")
            }
            let target = language
            guard catalog.languages.translated.contains(target) else {
                let declared = catalog.languages.translated.map(\.rawValue).joined(separator: ", ")
                throw CommandFailed.failed("--language '\(language)' is not one the catalogue translates into (\(declared.isEmpty ? "none" : declared)); "
                                           + "declare it in catalog.xml's <languages>")
            }
            var units = catalog.translationUnits(into: target, since: earlier)
            if let only {
                units = units.filter { unit in
                    switch unit.state {
                    case .missing: only.missing
                    case .outdated: only.outdated
                    case .translated: false
                    }
                }
            }
            let document = XLIFFWriter.document(units, version: xliff,
                                                sourceLanguage: catalog.languages.defaultLanguage.rawValue, targetLanguage: target.rawValue,
                                                original: "content", tool: CompilerVersion.number)
            do {
                if output == "-" {
                    FileHandle.standardOutput.write(Data(document.utf8))
                } else {
                    try Data(document.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                }
            } catch {
                throw CommandFailed.failed("cannot write '\(output)': \(ErrorCause(error))")
            }
            let counts = (missing: units.filter { $0.state == .missing }.count,
                          outdated: units.filter { if case .outdated = $0.state { true } else { false } }.count)
            let message = "wrote \(output == "-" ? "standard output" : output): \(units.count) unit\(units.count == 1 ? "" : "s") into \(target.rawValue) "
                + "(\(counts.missing) to translate, \(counts.outdated) to review, \(units.count - counts.missing - counts.outdated) translated), XLIFF \(xliff.rawValue)\n"
            // Standard output holds the file itself with '-'.
            if output == "-" { FileHandle.standardError.write(Data(message.utf8)) } else { print(message, terminator: "") }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the translations of an XLIFF file back into the content files.",
            usage: "digno translations import <file> [<folder>] [--format text|json|github|sarif]",
            discussion: """
                Each unit is matched with the text of its id; its target, when the translator's \
                tool marks it done (XLIFF 1.2: a state other than new or needs-…, or none; 2.0: \
                translated, reviewed or final), is written as the xml:lang element an editor would \
                write, in place of the translation there or on a line of its own after it, touching \
                nothing else in the file. The import is refused, and nothing written, when a unit's \
                source is not the content's text now, its id is unknown, its inline codes are not \
                the source's, the file's target language is one the catalogue does not translate \
                into, or the translations would break a rule of the content (digno validate). Each \
                file is replaced whole. Exit status as digno validate's: 0 imported (or nothing to \
                import), 1 refused (the diagnostics say why), 2 usage or I/O errors.
                """)

        @Argument(help: ArgumentHelp("The XLIFF file a translator's tool gave back.", valueName: "file"))
        var file: String

        @OptionGroup var folder: ContentFolderArguments

        @Option(help: "Output format of a refusal's diagnostics: text, json, github or sarif.")
        var format: ReportFormat = .text

        func run() throws {
            let contentFolder = folder.contentFolder
            let bytes = try TranslationImport.readXLIFF(file).get()
            let report = try ContentValidator(contentFolder: contentFolder).validate()
            guard report.isValid, let catalog = report.catalog else {
                print(format.render(report, contentFolder: contentFolder), terminator: "")
                throw CommandFailed.refused("the content has errors; fix them (digno validate) and import again; nothing was written")
            }
            let name = TranslationImport.relativeName(of: file, from: contentFolder)
            let plan: TranslationImport.Plan
            do {
                let xliff = try ReturnedXLIFF.read(bytes)
                plan = try TranslationImport(contentFolder: contentFolder, catalog: catalog, xliffName: name).plan(xliff)
            } catch let unreadable as ReturnedXLIFF.Unreadable {
                throw refusal([Diagnostic(.error, .xliffUnreadable, file: name, line: unreadable.line, message: unreadable.message)], contentFolder: contentFolder)
            }
            if plan.isRefused { throw refusal(plan.diagnostics, contentFolder: contentFolder) }
            do {
                try TranslationImport.write(plan.files, into: contentFolder)
            } catch {
                throw CommandFailed.failed("\(error); run the import again to finish it")
            }
            print(TranslationImport.summary(plan), terminator: "")
        }

        /// Prints a refusal's diagnostics in the chosen format; the failure to end with, status 1.
        private func refusal(_ diagnostics: [Diagnostic], contentFolder: String) -> CommandFailed {
            print(format.render(ValidationReport(diagnostics: diagnostics, fileCount: 1), contentFolder: contentFolder), terminator: "")
            return .refused("the import was refused; nothing was written")
        }
    }
}
