import CatalogModel
import ChannelFormat
import Foundation

extension BundleStore {
    /// What trying a delta came to.
    enum DeltaAttempt: Equatable {
        /// No delta to use: none starts from a bundle the store holds, or none is small enough.
        case none
        /// `staging/<sha256>.part` is the head's bundle, made from the bundle `from`, its
        /// SHA-256 checked.
        case applied(from: String)
        /// The delta failed (its path, and why); the bundle is to be downloaded whole.
        case failed(String, ErrorCause)
    }

    /// Makes the head's bundle from a delta, if the head has one from a bundle the store holds
    /// (an installed release, or the seed) that is less than half the bundle's size: downloads
    /// it (resumed like a bundle, checked against its signed SHA-256 and size), applies it to
    /// a file of its own in the staging folder, checks the result's SHA-256 against the
    /// bundle's signed one, and only then renames it to the bundle's part. The installed
    /// bundles are only read. Any failure but cancellation is `failed`; a cancelled delta's
    /// download is kept, to be resumed.
    func applyDelta(_ head: ChannelHead, installed: [Release]) async throws(BundleStoreError) -> DeltaAttempt {
        // Less than half the bundle (sizes are at most 2^53: `verified` checks them).
        let deltas = (head.deltas ?? []).filter { $0.bytes <= (head.bundle.bytes - 1) / 2 }
        let part = layout.part(head.bundle.sha256)
        // A part already whole (an update stopped before installing it) needs no delta.
        guard !deltas.isEmpty, StoreFiles.size(part) != head.bundle.bytes else { return .none }
        var sources: [String: String] = [:]
        for release in installed where StoreFiles.size(layout.bundle(release.sha256)) == release.bytes {
            sources[release.sha256] = layout.bundle(release.sha256)
        }
        if let seed, !deltas.contains(where: { sources[$0.from] != nil }), let digest = BundleFileDigest.sha256(path: seed) {
            sources[digest.hex] = seed
        }
        guard let delta = deltas.first(where: { sources[$0.from] != nil }), let source = sources[delta.from] else { return .none }
        let deltaPart = layout.part(delta.sha256)
        let result = layout.fromDelta(head.bundle.sha256)
        var keepDelta = false
        defer {
            if !keepDelta { StoreFiles.remove(deltaPart) }
            StoreFiles.remove(result)
        }
        do {
            try await download(delta.file, .delta, keeping: part)
            _ = try VCDIFFDecoder(source: source, targetLimit: head.bundle.bytes).apply(delta: deltaPart, to: result)
            guard let digest = Self.checkedDigest(path: result, total: head.bundle.bytes) else { throw BundleStoreError.storage(StorageFailure(path: result, errorNumber: nil, message: "\(result) cannot be read")) }
            guard digest.hex == head.bundle.sha256 else {
                return .failed(delta.path, ErrorCause(code: "bundle:digest", message: "it gives a bundle whose SHA-256 is \(digest.hex), not the signed \(head.bundle.sha256)"))
            }
            try StoreFiles.sync(result)
            try StoreFiles.move(result, to: part)
            return .applied(from: delta.from)
        } catch BundleStoreError.cancelled {
            keepDelta = true
            throw .cancelled
        } catch BundleStoreError.refused(.bundleDigest(let found, let signed)) {
            return .failed(delta.path, ErrorCause(code: "bundle:digest", message: "its SHA-256 is \(found), not the signed \(signed)"))
        } catch {
            return .failed(delta.path, ErrorCause(error))
        }
    }
}
