import ArgumentParser
import CatalogModel
import ChannelFormat
import Foundation

/// ChannelFormat's VCDIFF decoder (the one CatalogStore uses) applying a delta, timed inside the process (median of the runs):
/// the target is under 0.5 s at 10,000 entities. `scripts/bench-delta.sh` writes deltas.
struct ApplyDelta: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apply-delta", abstract: "Time the VCDIFF decoder CatalogStore applies deltas with.")

    @Option(help: "The bundle the delta starts from.")
    var source: String

    @Option(help: "The delta (xdelta3 -S none).")
    var delta: String

    @Option(help: "Where to write the result.")
    var output: String

    @Option(help: "Repetitions.")
    var runs = 5

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        let bytes = (try FileManager.default.attributesOfItem(atPath: delta)[.size] as? Int) ?? 0
        var times: [Double] = []
        var size = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            size = try VCDIFFDecoder(source: source, targetLimit: 1 << 40).apply(delta: delta, to: output)
            let elapsed = ContinuousClock.now - start
            times.append(elapsed.seconds)
        }
        print(String(format: "applied a %d-byte delta into %d bytes: median %.3f s (%d runs)", bytes, size, Run.median(times), runs))
    }
}
