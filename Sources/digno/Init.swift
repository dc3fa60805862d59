import ArgumentParser
import BundleCompiler
import CatalogModel
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a new content folder to start from.",
        discussion: """
            Writes catalog.xml, home.xml, company.xml, one product, one recipe and one retailer \
            (Finnish, with Swedish and English declared), placeholder pictures, and the schema \
            for editors' tools (as `digno schema --write`). `digno validate` passes it with \
            nothing to say. The folder must be new or empty. Exit status: 0 when written, 2 \
            for usage or I/O errors.
            """)

    @Argument(help: ArgumentHelp("The new content folder.", valueName: "folder"))
    var folder: String

    func run() throws {
        guard let day = Day.today() else { throw CommandFailed.failed("the clock gives no day of the Gregorian calendar") }
        let written = try ContentStarter.create(folder, day: day)
        for path in written { print("wrote \(path)") }
        print("a new content folder in \(folder): `digno validate \(folder)` checks it, `digno preview \(folder)` shows it")
    }
}
