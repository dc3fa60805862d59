import ArgumentParser
import BundleCompiler
import CatalogModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Benchmarks of `digno build`, and the synthetic content they run on. Run in release:
/// `swift run -c release digno-bench run`.
@main
struct DignoBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digno-bench",
        abstract: "Generate synthetic content and measure digno build.",
        subcommands: [Generate.self, Measure.self, Run.self, Queries.self, UpdateLatency.self, ApplyDelta.self])
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a deterministic synthetic content folder.")

    @Option var products = 400
    @Option var recipes = 400
    @Option var retailers = 200
    @Option var seed: UInt64 = 1
    @Option var output: String
    @Option(name: .customLong("language"), help: "A language besides Finnish into which every text is translated (repeatable: --language sv --language en).")
    var languages: [String] = []

    func run() throws {
        try SyntheticContent(products: products, recipes: recipes, retailers: retailers, seed: seed, languages: languages)
            .write(to: URL(fileURLWithPath: output))
    }
}

/// One build, in this process, so that its peak memory is this process's.
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build one content folder and print wall time and peak memory as JSON.")

    @Option var content: String
    @Option var output: String
    /// The schemas to write, as `digno build --schema` takes them: by default every one, as a
    /// default build writes them.
    @Option(name: .customLong("schema")) var schemas: [Int] = BundleSchema.writableVersions

    func run() throws {
        let start = ContinuousClock.now
        var stages: [(name: String, started: ContinuousClock.Instant, cpu: Double)] = []
        func stage(_ name: String) { stages.append((name, ContinuousClock.now, Self.cpuSeconds())) }
        var builder = BundleBuilder(contentFolder: content, output: output)
        let order = Array(Set(schemas)).sorted(by: >)
        builder.schemaVersion = order[0]
        builder.olderSchemas = Array(order.dropFirst())
        let report = try builder.validate(progress: stage)
        let validated = ContinuousClock.now
        let manifest = try builder.write(report, progress: stage)
        let end = ContinuousClock.now
        let cpu = Self.cpuSeconds()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        var result: [String: Double] = [
            "seconds": (end - start).seconds, "validateSeconds": (validated - start).seconds,
            "writeSeconds": (end - validated).seconds, "peakMegabytes": Double(usage.ru_maxrss) / 1024,
            "bundleBytes": Double(manifest.bundle.bytes), "errors": Double(report.errorCount), "cpuSeconds": cpu,
        ]
        // Each stage's wall seconds, keyed by the first word of its progress text
        // ("stage.writing"), the processor seconds of all threads in it ("cpu.writing"), and
        // its place in the build, from 0 ("order.writing"). A stage that comes more than once
        // (each schema's sealing) is summed, and each time is also given alone, numbered from
        // 1 ("stage.sealing#1", "stage.sealing#2").
        func word(_ name: String) -> String { name.split(separator: " ").first.map(String.init) ?? name }
        var times: [String: Int] = [:]
        for current in stages { times[word(current.name), default: 0] += 1 }
        var seen: [String: Int] = [:]
        for (index, current) in stages.enumerated() {
            let next = index + 1 < stages.count ? stages[index + 1] : (name: "", started: end, cpu: cpu)
            let word = word(current.name)
            let time = seen[word, default: 0] + 1
            seen[word] = time
            for key in [word] + (times[word, default: 0] > 1 ? ["\(word)#\(time)"] : []) {
                result["stage." + key, default: 0] += (next.started - current.started).seconds
                result["cpu." + key, default: 0] += next.cpu - current.cpu
                if result["order." + key] == nil { result["order." + key] = Double(index) }
            }
        }
        var output: [String: Any] = result
        output["bundleSHA256"] = manifest.bundle.sha256
        let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

extension Measure {
    /// User and system processor time of all this process's threads so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build 1k, 10k and 100k-entity catalogues and print the figures.",
        discussion: """
            Each size is generated once and built --runs times, each build in a child process \
            (digno-bench measure). Wall, CPU and stage times are medians; wall time also shows \
            the range, since a shared machine's speed varies from run to run.
            """)

    @Option(help: "Entity counts to build (products 40 %, recipes 40 %, retailers 20 %).")
    var sizes: [Int] = [1_000, 10_000, 100_000]

    @Option(help: "Builds of each size; the figures are their medians.")
    var runs = 5

    @Option(help: "Scratch folder for the generated content and bundles.")
    var scratch = "/tmp/digno-bench"

    /// The issue's targets: 100,000 entities in at most 3 s, under 400 MB, and ten times the
    /// entities in at most eleven times the time.
    static let target = (entities: 100_000, seconds: 3.0, megabytes: 400.0, growth: 11.0)

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 5 }) else { throw ValidationError("each size must be at least 5 entities") }
    }

    func run() throws {
        let columns = [("entities", 8), ("runs", 4), ("wall s (min–max)", 19), ("CPU s", 6), ("validate s", 10), ("write s", 7),
                       ("entities/s", 10), ("peak MB", 7), ("bundle bytes", 12)]
        print(Self.line(columns.map { ($0.0, $0.1) }))
        var results: [(size: Int, figures: [[String: Double]])] = []
        for size in sizes {
            let folder = URL(fileURLWithPath: scratch).appendingPathComponent("\(size)")
            let content = folder.appendingPathComponent("content")
            try SyntheticContent(products: size * 2 / 5, recipes: size * 2 / 5, retailers: size - 2 * (size * 2 / 5), seed: 1)
                .write(to: content)
            // The content just written is still being flushed to the disk; a build beside
            // that flush measured 6.5 s instead of 4.1 at 100,000 entities.
            sync()
            let builds = try (0..<runs).map { _ in try Self.measure(content: content.path, output: folder.appendingPathComponent("catalog.sqlite").path) }
            // The same content gives the same bundle: a difference between runs is a broken
            // build, not noise.
            let digests = Set(builds.map(\.sha256))
            guard digests.count == 1 else {
                throw Failure(description: "the \(size)-entity builds gave \(digests.count) different bundles; builds must be reproducible")
            }
            let figures = builds.map(\.figures)
            results.append((size, figures))
            let wall = figures.map { $0["seconds"] ?? 0 }
            let seconds = Self.median(wall)
            let values = [
                "\(size)", "\(runs)", String(format: "%.2f (%.2f–%.2f)", seconds, wall.min() ?? 0, wall.max() ?? 0),
                String(format: "%.2f", Self.median(figures, "cpuSeconds")), String(format: "%.2f", Self.median(figures, "validateSeconds")),
                String(format: "%.2f", Self.median(figures, "writeSeconds")), String(format: "%.0f", Double(size) / seconds),
                String(format: "%.1f", figures.map { $0["peakMegabytes"] ?? 0 }.max() ?? 0), String(format: "%.0f", figures[0]["bundleBytes"] ?? 0),
            ]
            print(Self.line(zip(values, columns).map { ($0, $1.1) }))
        }
        printGrowth(results)
        if let largest = results.last { printStages(largest.size, largest.figures) }
        printTargets(results)
    }

    /// A failed benchmark: the message, and exit status 1.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Texts in columns of the given widths, right-aligned, or left-aligned for a negative
    /// width; a wider text pushes the rest along rather than being cut.
    static func line(_ cells: [(String, Int)]) -> String {
        cells.map { text, width in
            let padding = String(repeating: " ", count: max(0, abs(width) - text.count))
            return width < 0 ? text + padding : padding + text
        }.joined(separator: "  ")
    }

    /// Runs `digno-bench measure` in a child process, so that its peak memory is one build's.
    static func measure(content: String, output: String) throws -> (figures: [String: Double], sha256: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["measure", "--content", content, "--output", output]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let command = "digno-bench measure --content \(content)"
        guard process.terminationReason == .exit else {
            throw Failure(description: "\(command) was killed by signal \(process.terminationStatus)")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(command) failed with exit status \(process.terminationStatus)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let sha256 = object["bundleSHA256"] as? String else {
            throw Failure(description: "\(command) printed no figures")
        }
        return (object.compactMapValues { ($0 as? NSNumber)?.doubleValue }, sha256)
    }

    /// Ten times the entities against the time they took, for each size ten times another.
    private func printGrowth(_ results: [(size: Int, figures: [[String: Double]])]) {
        for (smaller, larger) in zip(results, results.dropFirst()) where larger.size == smaller.size * 10 {
            let ratio = Self.median(larger.figures, "seconds") / Self.median(smaller.figures, "seconds")
            print(String(format: "growth %d → %d entities: %.1f× the time (target at most %.0f×)", smaller.size, larger.size, ratio, Self.target.growth))
        }
    }

    /// The largest size's stages in build order: median wall and CPU seconds. A stage that
    /// comes once per schema is shown each time, not summed too, so that the rows add up.
    private func printStages(_ size: Int, _ figures: [[String: Double]]) {
        let keys = Set(figures.flatMap { $0.keys.filter { $0.hasPrefix("stage.") }.map { String($0.dropFirst(6)) } })
        let names = keys.filter { !keys.contains($0 + "#1") }
        let ordered = names.sorted { (Self.median(figures, "order." + $0), $0) < (Self.median(figures, "order." + $1), $1) }
        let width = max(ordered.map(\.count).max() ?? 0, 12)
        print("")
        print(Self.line([("stage", -width), ("wall s", 6), ("CPU s", 6)]) + "   (\(size) entities, medians)")
        for name in ordered {
            print(Self.line([(name, -width), (String(format: "%.2f", Self.median(figures, "stage." + name)), 6),
                             (String(format: "%.2f", Self.median(figures, "cpu." + name)), 6)]))
        }
    }

    /// Whether the targets hold, for a run that built the target's size.
    private func printTargets(_ results: [(size: Int, figures: [[String: Double]])]) {
        guard let result = results.first(where: { $0.size == Self.target.entities }) else { return }
        let seconds = Self.median(result.figures, "seconds")
        let megabytes = result.figures.map { $0["peakMegabytes"] ?? 0 }.max() ?? 0
        print(String(format: "\ntarget, %d entities in at most %.0f s: %.2f s, %@", Self.target.entities, Self.target.seconds, seconds,
                     (seconds <= Self.target.seconds ? "met" : "missed") as NSString))
        print(String(format: "target, peak memory under %.0f MB: %.1f MB, %@", Self.target.megabytes, megabytes,
                     (megabytes < Self.target.megabytes ? "met" : "missed") as NSString))
    }

    /// The median of `key` over the runs.
    static func median(_ figures: [[String: Double]], _ key: String) -> Double {
        median(figures.map { $0[key] ?? 0 })
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
