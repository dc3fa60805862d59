import CatalogModel
import ChannelFormat
import Foundation

extension ChannelPublisher {
    /// The bundles to write deltas from: the `deltas` most recent releases before the new one
    /// whose bundles the folder still has (the current head's, then those its deltas start
    /// from and those it retains), not the new bundle itself (a rollback's).
    func deltaSources(after current: ChannelHead, to file: ChannelHead.BundleFile) -> [String] {
        var sources: [String] = []
        for sha in [current.bundle.sha256] + (current.deltas ?? []).map(\.from) + current.retained.map(\.sha256)
        where sha != file.sha256 && !sources.contains(sha) && FileManager.default.fileExists(atPath: path(ChannelLayout.bundlePath(sha256: sha))) {
            sources.append(sha)
        }
        return Array(sources.prefix(deltas))
    }

    /// Writes a delta from each of `sources` (bundle SHA-256s) to `file` under `deltas/`, with
    /// its gzip copy. A delta not smaller than half the bundle is left out, as a client would
    /// not use it; so is one xdelta3 cannot make or the client's decoder cannot apply, which
    /// `deltasLeftOut` then reports: the release is published, those clients download it whole.
    /// A delta already in place (the same two bundles published on another channel, or again
    /// after a publish stopped midway) is kept if it checks, never rewritten: a head may name it.
    func writeDeltas(from sources: [String], to file: ChannelHead.BundleFile) throws(Failure) -> ([ChannelHead.Delta], [String]) {
        guard let deltaEncoder, !sources.isEmpty else { return ([], []) }
        try makeFolder(ChannelLayout.deltasFolder)
        var written: [ChannelHead.Delta] = [], leftOut: [String] = []
        let bundle = path(file.path)
        for sha in sources {
            let sourcePath = ChannelLayout.bundlePath(sha256: sha)
            let source = path(sourcePath)
            let deltaPath = ChannelLayout.deltaPath(from: sha, to: file.sha256)
            let target = path(deltaPath)
            guard BundleFileDigest.sha256(path: source)?.hex == sha else {
                leftOut.append("from \(sourcePath): its bytes are not its SHA-256's")
                continue
            }
            let scratch = DurableFile.temporaryPath(for: target + ".check")
            let check = { (delta: String) throws(Failure) in
                try deltaEncoder.check(delta, from: source, targetSHA256: file.sha256, targetBytes: file.bytes, scratch: scratch)
            }
            var wrote = false
            do {
                if DurableFile.size(target) == nil || (try? check(target)) == nil {
                    try writeInPlace(target) { temporary throws(Failure) in
                        try deltaEncoder.encode(from: source, to: bundle, output: temporary)
                        try check(temporary)
                    }
                    wrote = true
                }
            } catch .deltas(let reason, let cause) {
                leftOut.append("from \(sourcePath): \(reason)" + (cause.map { ": \($0)" } ?? ""))
                continue
            }
            guard let digest = BundleFileDigest.sha256(path: target) else { throw .writing("'\(target)' cannot be read") }
            guard digest.bytes <= (file.bytes - 1) / 2 else {
                if wrote { try? DurableFile.remove(target) }
                leftOut.append("from \(sourcePath): it would be \(digest.bytes) bytes, not less than half the bundle's \(file.bytes); clients download the bundle")
                continue
            }
            if wrote || DurableFile.size(ChannelLayout.gzipPath(of: target)) == nil {
                try writeInPlace(ChannelLayout.gzipPath(of: target)) { temporary throws(Failure) in try GzipCopy.write(target, to: temporary) }
            }
            written.append(ChannelHead.Delta(from: sha, path: deltaPath, sha256: digest.hex, bytes: digest.bytes))
        }
        return (written, leftOut)
    }
}
