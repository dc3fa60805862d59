import ArgumentParser
import BundleCompiler
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Benchmarks of `digno build`, and the synthetic content they run on. Run in release:
/// `swift run -c release digno-bench run`.
@main
struct DignoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digno-bench",
        abstract: "Generate synthetic content and measure digno build.",
        subcommands: [Generate.self, Measure.self, Run.self, Queries.self])
}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a deterministic synthetic content folder.")

    @Option var products = 400
    @Option var recipes = 400
    @Option var retailers = 200
    @Option var seed: UInt64 = 1
    @Option var output: String

    func run() throws {
        try SyntheticContent(products: products, recipes: recipes, retailers: retailers, seed: seed)
            .write(to: URL(fileURLWithPath: output))
    }
}

/// One build, in this process, so that its peak memory is this process's.
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Build one content folder and print wall time and peak memory as JSON.")

    @Option var content: String
    @Option var output: String

    func run() throws {
        let start = ContinuousClock.now
        var stages: [(name: String, started: ContinuousClock.Instant, cpu: Double)] = []
        func stage(_ name: String) { stages.append((name, ContinuousClock.now, Self.cpuSeconds())) }
        let builder = BundleBuilder(contentFolder: content, output: output)
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
        // ("stage.writing"), and the processor seconds of all threads in it ("cpu.writing").
        for (index, current) in stages.enumerated() {
            let next = index + 1 < stages.count ? stages[index + 1] : (name: "", started: end, cpu: cpu)
            let word = current.name.split(separator: " ").first.map(String.init) ?? current.name
            result["stage." + word, default: 0] += (next.started - current.started).seconds
            result["cpu." + word, default: 0] += next.cpu - current.cpu
        }
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
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
    static let configuration = CommandConfiguration(abstract: "Build 1k, 10k and 100k-entity catalogues and print the figures.")

    @Option(help: "Entity counts to build (products 40 %, recipes 40 %, retailers 20 %).")
    var sizes: [Int] = [1_000, 10_000, 100_000]

    @Option(help: "Scratch folder for the generated content and bundles.")
    var scratch = "/tmp/digno-bench"

    func run() throws {
        print("entities  wall s  validate s  write s  entities/s  peak MB  bundle bytes")
        for size in sizes {
            let folder = URL(fileURLWithPath: scratch).appendingPathComponent("\(size)")
            let content = folder.appendingPathComponent("content")
            try SyntheticContent(products: size * 2 / 5, recipes: size * 2 / 5, retailers: size - 2 * (size * 2 / 5), seed: 1)
                .write(to: content)
            // The content just written is still being flushed to the disk; a build beside
            // that flush measured 6.5 s instead of 4.1 at 100,000 entities.
            sync()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["measure", "--content", content.path, "--output", folder.appendingPathComponent("catalog.sqlite").path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard let figures = try JSONSerialization.jsonObject(with: data) as? [String: Double] else { throw ExitCode(1) }
            let seconds = figures["seconds"] ?? 0
            print(String(format: "%8d  %6.2f  %10.2f  %7.2f  %10.0f  %7.1f  %12.0f", size, seconds, figures["validateSeconds"] ?? 0,
                         figures["writeSeconds"] ?? 0, Double(size) / seconds, figures["peakMegabytes"] ?? 0, figures["bundleBytes"] ?? 0))
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
