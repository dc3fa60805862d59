import ArgumentParser
import BundleCompiler
import CatalogModel
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the screen a route opens in a bundle, or what a search finds, as the app would show it.",
        usage: "digno show <bundle> (<route> | --search <text>) [--lang <language>] [--format <format>] [--today <day>]",
        discussion: """
            Routes: cafedigno://home, cafedigno://products, cafedigno://products/<id>, \
            cafedigno://recipes, cafedigno://recipes/<id>, cafedigno://retailers, cafedigno://company. \
            With --lang, a text not translated into that language is shown in the language it \
            falls back to, followed by that language in brackets ("[fi]"), as the app marks it. \
            With --search, the hits of a search as the app ranks them, in the language read. \
            Exit status: 0 shown, 1 bad route or bad bundle, 2 usage errors.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The bundle file.")
    var bundle: String

    /// Optional to argument-parser, so that a forgotten bundle is told as such (see `validate`).
    @Argument(help: "The route, such as cafedigno://products/espresso.")
    var route: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "Show the screen in this language, as an app whose reader prefers it would (sv, or sv-FI); the bundle's default language if not given.",
        valueName: "language"),
        transform: ReaderLanguage.argument)
    var language: String?

    @Option(help: ArgumentHelp("Print what searching for this text finds, best first, instead of a screen.", valueName: "text"))
    var search: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Show the promotions running on this day (YYYY-MM-DD) instead of today.", valueName: "day"))
    var today: Day?

    /// The usual slip is a route alone, the bundle forgotten: argument-parser would take the
    /// route for the bundle and ask for a route.
    func validate() throws {
        let example = "digno show dist/catalog.sqlite cafedigno://home"
        let bundleIsRoute = bundle.hasPrefix(Route.scheme + "://")
        if search != nil {
            if let route { throw ValidationError("give a route or --search, not both ('\(route)')") }
            return
        }
        guard let route else {
            if bundleIsRoute {
                throw ValidationError("'\(bundle)' is a route; the first argument must be the bundle file, then the route: \(example)")
            }
            throw ValidationError("name the route to show after the bundle file, such as \(example)")
        }
        if bundleIsRoute && !route.hasPrefix(Route.scheme + "://") {
            throw ValidationError("the bundle file comes first, then the route: digno show \(route) \(bundle)")
        }
    }

    func run() throws {
        // Any error, a route's or the bundle's, is status 1 (the command's discussion).
        do {
            let parsed = search == nil ? try Route(parsing: route ?? "") : .home
            var opened = try CatalogBundle(path: bundle)
            if let language {
                // An app falls back to the default for a language the bundle lacks; a person who
                // asked for one is told.
                guard BundleLanguage.lookup([language], among: opened.languages) != nil else {
                    throw CommandFailed.refused("the bundle has no language '\(language)'; it has \(opened.languages.joined(separator: ", "))")
                }
                opened = opened.reading(in: [language])
            }
            if let search {
                let hits = try opened.search(search)
                print(format == .json ? ScreenText.json(hits) : ScreenText.render(hits, language: opened.language), terminator: "")
                return
            }
            let screen = try opened.screen(for: parsed, today: today ?? Day.today() ?? opened.release.releaseDate)
            print(format == .json ? ScreenText.json(screen) : ScreenText.render(screen, language: opened.language), terminator: "")
        } catch {
            throw CommandFailed(error, status: 1)
        }
    }
}
