import Foundation

/// The preview's way with a photo just saved (issue 61): a picture whose renditions are not in
/// the cache is built with its stand-in (`StandIn`: its embedded thumbnail, or a placeholder),
/// and waits here; the preview then makes its renditions on a thread of its own
/// (`renderWaiting`), into the cache, and builds again, which takes them from there. A picture
/// is deferred once: after its renditions were tried, made or not, a build renders it as any
/// build does, so that one that cannot be decoded is reported as at any build.
package final class RenditionDeferral: @unchecked Sendable {
    // @unchecked Sendable: every stored property below is read and written under `lock`.
    private let lock = NSLock()
    /// The sources (SHA-256 of their bytes) whose renditions have been tried.
    private var tried: Set<String> = []
    /// The jobs waiting, by source.
    private var waiting: [String: PictureRenderer.Job] = [:]
    /// Where the build that deferred them keeps renditions: where they are made into.
    private var cache: RenditionCache?

    package init() {}

    /// Whether `job` is left for later: true, and kept, unless its renditions were tried.
    func defers(_ job: PictureRenderer.Job, cache: RenditionCache?) -> Bool {
        lock.withLock {
            guard !tried.contains(job.source) else { return false }
            waiting[job.source] = job
            self.cache = cache
            return true
        }
    }

    /// Whether any picture waits for its renditions.
    package var isWaiting: Bool { lock.withLock { !waiting.isEmpty } }

    /// Makes the renditions of the pictures waiting, one after another on the calling thread
    /// (the preview's own), into the cache of the build that deferred them, while `going()` says
    /// so before each; how many it tried.
    package func renderWaiting(while going: () -> Bool) -> Int {
        var count = 0
        while going() {
            let next: (job: PictureRenderer.Job, cache: RenditionCache?)? = lock.withLock {
                guard let source = waiting.keys.min(), let job = waiting.removeValue(forKey: source) else { return nil }
                return (job, cache)
            }
            guard let next else { break }
            _ = PictureRenderer(cache: next.cache, workers: 1).render([next.job])
            lock.withLock { _ = tried.insert(next.job.source) }
            count += 1
        }
        return count
    }
}
