import CatalogModel
import ChannelFormat
import Foundation

/// Writes a VCDIFF delta between two bundles with Debian's `xdelta3` (a tool `digno publish`
/// runs, as nginx is one the host runs: no library of it is packaged, and the format was chosen
/// by measurement, docs/BENCHMARKS.md), then applies it with the client's own decoder
/// (ChannelFormat's `VCDIFFDecoder`) and keeps it only if that gives the target's exact bytes: a
/// delta published is one every client can apply.
package struct DeltaEncoder: Sendable {
    /// The `xdelta3` run.
    package var executable: String

    package init(executable: String) {
        self.executable = executable
    }

    /// `xdelta3` on the `PATH` of `environment`; nil when it is not installed.
    package static func onPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DeltaEncoder? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let path = String(folder) + "/xdelta3"
            if FileManager.default.isExecutableFile(atPath: path) { return DeltaEncoder(executable: path) }
        }
        return nil
    }

    /// The options: the best compression, no secondary compression (the client reads plain
    /// VCDIFF), no application header (it would hold the files' names, machine paths in a
    /// published file), 8 MiB windows (the client reads up to 16 MiB), overwrite.
    static let options = ["-e", "-9", "-S", "none", "-A", "-W", "8388608", "-f"]

    /// Writes the delta from the bundle at `source` to the one at `target` into `output`.
    package func encode(from source: String, to target: String, output: String) throws(ChannelPublisher.Failure) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Self.options + ["-s", source, target, output]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw .deltas("\(executable) cannot be run", cause: ErrorCause(error)) }
        // Read before waiting, so that a full pipe cannot stall xdelta3.
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let status = process.terminationReason == .exit ? "exit:\(process.terminationStatus)" : "signal:\(process.terminationStatus)"
            throw .deltas("xdelta3 failed (status \(process.terminationStatus))",
                          cause: ErrorCause(code: status, message: message.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
    }

    /// Checks that the delta at `delta` applied to `source` by the client's decoder gives the
    /// bundle whose SHA-256 is `targetSHA256` and size `targetBytes`; `scratch` is where the
    /// result goes, removed after.
    package func check(_ delta: String, from source: String, targetSHA256: String, targetBytes: Int, scratch: String) throws(ChannelPublisher.Failure) {
        defer { try? DurableFile.remove(scratch) }
        do {
            _ = try VCDIFFDecoder(source: source, targetLimit: targetBytes).apply(delta: delta, to: scratch)
        } catch {
            throw .deltas("xdelta3's delta does not apply with the client's decoder", cause: ErrorCause(error))
        }
        guard BundleFileDigest.sha256(path: scratch)?.hex == targetSHA256 else {
            throw .deltas("xdelta3's delta does not give the bundle's bytes")
        }
    }
}
