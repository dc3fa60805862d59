import ArgumentParser
import CatalogModel
import CatalogStore
import Foundation

/// `BundleStore.update()` when nothing is new, timed inside the process (no start-up): the
/// conditional request for the head and the checks around it. Prints median and p99 in
/// milliseconds. `scripts/bench-update.py` runs it against nginx.
struct UpdateLatency: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update-latency", abstract: "Time BundleStore.update() with nothing new (median and p99).")

    @Option(help: "Where the channel folder is served.")
    var url: String

    @Option(help: "A store that already has the channel's release.")
    var store: String

    @Option(help: "The channel's public key.")
    var key: String

    @Option(help: "Repetitions.")
    var iterations = 200

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    func run() async throws {
        guard let base = URL(string: url) else { throw ValidationError("--url is not a URL") }
        let bundleStore = BundleStore(folder: store, seed: nil, keys: [try ChannelKey(key)], baseURL: base)
        var samples: [Double] = []
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            let outcome: BundleStore.UpdateOutcome
            do { outcome = try await bundleStore.update() } catch { throw ValidationError("\(error)") }
            let elapsed = ContinuousClock.now - start
            guard case .upToDate = outcome else { throw ValidationError("the store is not up to date: \(outcome)") }
            samples.append(elapsed.seconds * 1000)
        }
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * 0.99).rounded()))]
        print(String(format: "update() with nothing new: median %.2f ms, p99 %.2f ms (%d runs)", median, p99, sorted.count))
    }
}
