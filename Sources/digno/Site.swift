import ArgumentParser
import CatalogModel
import CatalogSite
import Foundation

struct Site: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a bundle's screens as a static web site, the app as a browser shows it.",
        usage: "digno site --bundle <bundle> --output <folder> [--today <day>]",
        discussion: """
            Every screen is a page, every picture a file named by its SHA-256, every link relative: \
            the site works opened from disk (open <folder>/index.html) and on any static host. The \
            same bundle and day give the same files. The folder must be new, empty, or a site \
            digno wrote, which is replaced whole once the new one is complete. \
            Exit status: 0 written, 1 a bad bundle or a folder that cannot be written, 2 usage errors.
            """)

    @Option(help: ArgumentHelp("The bundle file.", valueName: "bundle"))
    var bundle: String

    @Option(help: ArgumentHelp("The folder to write the site into.", valueName: "folder"))
    var output: String

    @Option(help: ArgumentHelp("Show on Etusivu the promotions running on this day (YYYY-MM-DD); by default the bundle's release date, so that the site does not depend on when it is written.", valueName: "day"))
    var today: Day?

    func run() throws {
        do {
            let opened = try CatalogBundle(path: bundle)
            let site = StaticSite(bundle: opened, today: today ?? opened.release.releaseDate)
            let summary = try site.write(to: output)
            let languages = summary.languages.count > 1 ? " in \(summary.languages.count) languages (\(summary.languages.joined(separator: ", ")))" : ""
            print("wrote \(output): \(summary.pages) pages\(languages), \(summary.images) images (\(summary.renditions) renditions beside them), \(summary.bytes) bytes; open \(output)/index.html")
        } catch {
            // A bundle that cannot be read, or a site that cannot be written: status 1.
            throw CommandFailed(error, status: 1)
        }
    }
}
