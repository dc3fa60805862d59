import ArgumentParser
import BundleCompiler
import CatalogModel
import Foundation

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what changed between two releases: bundles, or a bundle and a content folder.",
        usage: "digno diff <old> <new> [--format text|json|markdown] [--language <code>]",
        discussion: """
            Compares two bundles, or a bundle and a content folder (read as digno build would \
            write it): the products, recipes, retailers, promotions, sections, home and company \
            added, removed and changed, each change down to the field, text word by word, \
            relations and pictures gained and lost. Exit status, as diff's: 0 the same, 1 they \
            differ, 2 errors (a file that is not a bundle, content with errors).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    @Argument(help: ArgumentHelp("The older release: a bundle or a content folder.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The newer release: a bundle or a content folder.", valueName: "new"))
    var new: String

    @Option(help: "How to write the changes: text, json (stable, documented) or markdown.")
    var format: Format = .text

    @Option(help: ArgumentHelp(
        "Show the changes as a reader of this language sees them (sv, or sv-FI as a phone lists it): each text in it, or said to be in the one it falls back to.",
        valueName: "code"),
        transform: ReaderLanguage.argument)
    var language: String?

    func run() throws {
        let comparison = try ReleaseSide.compare(old, with: new)
        if let note = ReleaseSide.languageNote(from: old, to: new) {
            FileHandle.standardError.write(Data("note: \(note)\n".utf8))
        }
        let (sizes, names) = (comparison.sizes, comparison.pictureNames)
        let changes = language.map { comparison.changes.reading(in: [$0]) } ?? comparison.changes
        switch format {
        case .json: FileHandle.standardOutput.write(changes.encoded() + Data("\n".utf8))
        case .text: FileHandle.standardOutput.write(Data((ChangesText.render(changes, style: .text, pictureNames: names) + sizes.line + "\n").utf8))
        case .markdown:
            FileHandle.standardOutput.write(Data((ChangesText.render(changes, style: .markdown, pictureNames: names) + "\n" + sizes.line + "\n").utf8))
        }
        if !changes.isEmpty { throw ExitCode(1) }
    }
}
