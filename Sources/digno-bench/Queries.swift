import BundleCompiler
import ArgumentParser
import CatalogModel
import Foundation

/// The query library's speed on a bundle: opening it and showing the home screen, a list page,
/// a detail screen, a search. Prints median and 99th percentile in milliseconds.
struct Queries: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Time CatalogModel's queries on a bundle (median and p99).")

    @Option(help: "The bundle file.")
    var bundle: String

    @Option(help: "Repetitions of each query.")
    var iterations = 200

    @Option(help: "Read the screens in this language of the bundle (its default if not given).")
    var language: String?

    func run() throws {
        var random = SplitMix64(seed: 7)
        let day = Day("2026-11-22")!
        let trust = InMemoryTrustStore()
        let languages = language.map { [$0] } ?? []
        let firstOpen = try time(1) { _ = try CatalogBundle(path: bundle, trust: trust).reading(in: languages).home(on: day) }
        let open = try time(iterations) { _ = try CatalogBundle(path: bundle, trust: trust).reading(in: languages).home(on: day) }
        // The deep check an app may run once after a download: the whole file's SHA-256.
        guard let sha256 = BundleFileDigest.sha256(path: bundle)?.hex else { throw ValidationError("cannot read \(bundle)") }
        let deepOpen = try time(5) { _ = try CatalogBundle(path: bundle, expectedSHA256: sha256, trust: trust).home(on: day) }
        // The peer for the deep check, timed beside it: coreutils' sha256sum reading the same file.
        let peer = FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")
            ? try time(5) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
                process.arguments = [bundle]
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
            } : []
        let catalog = try CatalogBundle(path: bundle, trust: trust).reading(in: languages)
        guard language == nil || catalog.language == language else {
            throw ValidationError("the bundle has no language '\(language ?? "")'; it has \(catalog.languages.joined(separator: ", "))")
        }
        let products = try catalog.productRows().map(\.id)
        let recipes = try catalog.recipeRows().map(\.id)
        let names = try catalog.recipeRows().map(\.name) + catalog.productRows().map(\.name)
        let pageSize = 50
        let listPage = try time(iterations) {
            _ = try catalog.recipeRows(offset: random.next(below: max(recipes.count - pageSize, 1)), limit: pageSize)
        }
        let productDetail = try time(iterations) { _ = try catalog.product(products[random.next(below: products.count)]) }
        let recipeDetail = try time(iterations) { _ = try catalog.recipe(recipes[random.next(below: recipes.count)]) }
        let search = try time(iterations) {
            let name = names[random.next(below: names.count)]
            _ = try catalog.search(String(name.prefix(2 + random.next(below: 4))), limit: 50)
        }
        print("bundle: \(bundle) (\(products.count) products, \(recipes.count) recipes), read in \(catalog.language)")
        print("query                                median ms   p99 ms")
        for (name, samples) in [("first open + home + quick_check", firstOpen), ("open + home", open),
                                ("open + home + SHA-256 of the file", deepOpen), ("recipe list page of 50", listPage),
                                ("product detail", productDetail), ("recipe detail", recipeDetail), ("search as you type", search),
                                ("peer: sha256sum of the file", peer)] where !samples.isEmpty {
            print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "  %9.3f  %7.3f", percentile(samples, 0.5), percentile(samples, 0.99)))
        }
    }

    func time(_ count: Int, _ body: () throws -> Void) throws -> [Double] {
        try (0..<count).map { _ in
            let start = ContinuousClock.now
            try body()
            return (ContinuousClock.now - start).seconds * 1000
        }
    }

    func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
