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

    /// One rendition to make from one source picture.
    struct Job: Sendable {
        /// The picture's path in the content folder, as `src` names it.
        var path: String
        /// Its file on disk.
        var file: String
        /// The SHA-256 of its bytes when validation read them.
        var source: String
        var format: PictureFormat
        var request: RenditionRequest
    }

    /// What became of a job.
    enum Outcome: Sendable {
        /// Made now, and kept in the cache if there is one.
        case made(Rendition)
        /// Found in the cache.
        case cached(Rendition)
        /// libvips could not decode the source, or not make the rendition.
        case failed(PictureCodec.Failure)
        /// The file is no longer the one validation read (it changed meanwhile, or is gone).
        case changed

        /// The rendition, made or found.
        var rendition: Rendition? {
            switch self {
            case .made(let rendition), .cached(let rendition): rendition
            case .failed, .changed: nil
            }
        }
    }

    /// The outcome of every job, in the jobs' order.
    func render(_ jobs: [Job]) -> [Outcome] {
        // Decoding is the work: each picture on its own thread, libvips single-threaded inside
        // it (CPictureCodec), so that two cores make two renditions at once.
        let workers = max(1, min(jobs.count, workers ?? ProcessInfo.processInfo.activeProcessorCount))
        return Parallel.map(jobs, workers: workers, makeWorker: { _ in () }) { _, job in render(job) }
    }

    private func render(_ job: Job) -> Outcome {
        if let cached = cache?.rendition(source: job.source, request: job.request) { return .cached(cached) }
        guard case .success(let bytes) = FileSystem.read(job.file, limit: ImageChecker.maxImageSize),
              SHA256.hash(data: bytes).hexString == job.source else { return .changed }
        switch PictureCodec.render(bytes, format: job.format, job.request) {
        case .success(let rendition):
            cache?.keep(rendition, source: job.source, request: job.request)
            return .made(rendition)
        case .failure(let failure):
            return .failed(failure)
        }
    }
}

/// A content picture made ready for a bundle: its source's SHA-256 (the content digest's
/// line) and its rendition.
struct RenderedPicture: Sendable {
    /// The SHA-256 of the source file's bytes, in hexadecimal.
    var source: String
    var rendition: Rendition
    /// Whether the rendition came from the cache.
    var fromCache: Bool
    /// Whether the source is smaller than its use's largest rendition on both sides: it is
    /// not enlarged, so the largest screens show it less sharp.
    var isSmallerThanUse: Bool
}
