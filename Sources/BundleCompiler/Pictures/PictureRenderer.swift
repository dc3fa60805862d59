import CBuildTuning
import CatalogContent
import Crypto
import Foundation

/// Makes the renditions of a content folder's pictures, side by side on every core, each from
/// the cache where it is there already.
struct PictureRenderer: Sendable {
    /// Where renditions are kept between builds; nil keeps none.
    var cache: RenditionCache?
    /// How many pictures are rendered at once; nil: one per core.
    var workers: Int?
    /// The memory the decodes share: a picture waits until its decode fits.
    var budget = DecodeBudget()
    /// The preview's: a picture not in the cache gets its stand-in now and its renditions later,
    /// on the preview's own thread (`RenditionDeferral`); nil renders every picture now.
    var deferral: RenditionDeferral?

    /// The renditions to make from one source picture.
    struct Job: Sendable {
        /// The picture's path in the content folder, as `src` names it.
        var path: String
        /// Its file on disk.
        var file: String
        /// The SHA-256 of its bytes when validation read them.
        var source: String
        /// What the compiler read of the picture.
        var picture: PictureCodec.Source
        /// The bytes its decode and renditions take (`DecodeMemory`).
        var memory: Int
        /// What to make, from one decode (`RenditionRequest.ladder`).
        var requests: [RenditionRequest]
        /// Its boxes, where it is a HEIF file: whether it has a thumbnail (`StandIn`).
        var heif: HEIFStructure?
        /// Its size as shown, upright: a placeholder's shape.
        var shape: (width: Int, height: Int)
    }

    /// What became of a job.
    enum Outcome: Sendable {
        /// Made now, and kept in the cache if there is one: one rendition per request.
        case made([Rendition])
        /// Found in the cache, every one.
        case cached([Rendition])
        /// libvips could not decode the source, or not make the rendition.
        case failed(PictureCodec.Failure)
        /// The file is no longer the one validation read (it changed meanwhile, or is gone).
        case changed
        /// Not in the cache, and left for later (`deferral`): what the preview shows meanwhile.
        case deferred(StandIn)

        /// The renditions, made or found.
        var renditions: [Rendition]? {
            switch self {
            case .made(let renditions), .cached(let renditions): renditions
            case .failed, .changed, .deferred: nil
            }
        }
    }

    /// The outcome of every job, in the jobs' order.
    func render(_ jobs: [Job]) -> [Outcome] {
        digno_map_large_allocations()
        // Decoding is the work: each picture on its own thread, libvips single-threaded inside
        // it (CPictureCodec), so that two cores make two renditions at once.
        let workers = max(1, min(jobs.count, workers ?? ProcessInfo.processInfo.activeProcessorCount))
        return Parallel.map(jobs, workers: workers, makeWorker: { _ in () }) { _, job in render(job) }
    }

    private func render(_ job: Job) -> Outcome {
        if let cache {
            let cached = job.requests.compactMap { cache.rendition(source: job.source, request: $0) }
            if cached.count == job.requests.count { return .cached(cached) }
        }
        guard case .success(let bytes) = FileSystem.read(job.file, limit: PictureLimits.fileBytes),
              SHA256.hash(data: bytes).hexString == job.source else { return .changed }
        if let deferral, deferral.defers(job, cache: cache), let main = job.requests.first {
            return .deferred(StandIn.make(bytes, source: job.picture, heif: job.heif, shape: job.shape, request: main))
        }
        // One missing entry makes the whole ladder again: one decode for all of them, when its
        // memory fits beside the decodes running.
        // The source's bytes are held meanwhile too.
        let memory = job.memory + bytes.count
        budget.acquire(memory)
        defer {
            // A picture's decode and encodes free tens of megabytes in pieces, which malloc
            // keeps for its thread unless asked: given back before the next decode may start,
            // two threads' worth would otherwise pile up (a peak of 500 to 590 MB for 100
            // photos, not 320; 440 MB for two 48-megapixel HEICs one after the other, not 370).
            digno_release_free_memory()
            budget.release(memory)
        }
        switch PictureCodec.render(bytes, job.picture, job.requests) {
        case .success(let renditions):
            for (rendition, request) in zip(renditions, job.requests) { cache?.keep(rendition, source: job.source, request: request) }
            return .made(renditions)
        case .failure(let failure):
            return .failed(failure)
        }
    }
}
