import ArgumentParser
import BundleCompiler
import CatalogModel
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the screen a route opens in a bundle, as the app would show it.",
        discussion: """
            Routes: cafedigno://home, cafedigno://products, cafedigno://products/<id>, \
            cafedigno://recipes, cafedigno://recipes/<id>, cafedigno://retailers, cafedigno://company. \
            Exit status: 0 shown, 1 bad route or bad bundle, 2 usage errors.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The bundle file.")
    var bundle: String

    @Argument(help: "The route, such as cafedigno://products/espresso.")
    var route: String

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Show the promotions running on this day (YYYY-MM-DD) instead of today.", valueName: "day"))
    var today: Day?

    func run() throws {
        do {
            let parsed = try Route(parsing: route)
            let opened = try CatalogBundle(path: bundle)
            let screen = try opened.screen(for: parsed, today: today ?? Day.today() ?? opened.release.releaseDate)
            print(format == .json ? ScreenText.json(screen) : ScreenText.render(screen), terminator: "")
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
