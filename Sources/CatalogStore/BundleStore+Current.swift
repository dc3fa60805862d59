import CatalogModel
import ChannelFormat
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The bundle to show. Opening one checks its identity and schema (and its `quick_check` once
// per file per trust store), so a store keeps the bundle it opened and gives it again for as
// long as the state file and the bundle's file are the very files they were (the same inode,
// size and modification time): an update that installs, a report of damage, a decayed bundle
// removed, in this process or another, each changes one of them.

extension BundleStore {
    /// The bundle to show: the release installed last, if it opens and passes its checks; else
    /// the one before it; else the seed. For a store pinning root keys, only a release that a
    /// kept head signed by the newest root's release keys names is shown: after a root drops a
    /// key, the seed is shown until a head signed by the new keys names a release. The seed also
    /// comes first when it is a newer release than any installed (an app update shipped newer
    /// content). `passedOver` says why a newer release was not shown. After the first call, a
    /// call opens nothing while the store's files are unchanged.
    public func current() throws(BundleStoreError) -> Current {
        try currentBundle()
    }

    /// `current()` off the caller's thread (the first call opens the bundle: 186 ms for
    /// `quick_check` at 100,000 entities the first time a file is seen), for an app's launch.
    public func current() async throws(BundleStoreError) -> Current {
        try currentBundle()
    }

    func currentBundle() throws(BundleStoreError) -> Current {
        // The kept roots' folder too: a root kept by another process that was killed before it
        // saved its state changes what may be served.
        let stamps = [FileStamp(layout.state), FileStamp(layout.roots)]
        if let cached = opened.current(stamps: stamps) { return cached }
        let current = try openCurrent()
        opened.keep(current, stamps: stamps)
        return current
    }

    private func openCurrent() throws(BundleStoreError) -> Current {
        var problems: [String] = []
        let state = try? StoreState.load(layout.state)
        let installed = servable(state, problems: &problems)
        var causes: [ErrorCause] = []
        var found: Current?
        for release in installed {
            let path = layout.bundle(release.sha256)
            guard StoreFiles.size(path) == release.bytes else {
                problems.append("release \(release.releaseVersion) is missing or has another size")
                continue
            }
            do {
                let bundle = try CatalogBundle(path: path, trust: trust)
                guard bundle.release.contentDigest == release.contentDigest else {
                    problems.append("release \(release.releaseVersion) holds other content than installed")
                    continue
                }
                found = Current(bundle: bundle, source: release == state?.installed.first ? .installed(release) : .previous(release), passedOver: problems)
                break
            } catch {
                problems.append("release \(release.releaseVersion): \(error)")
                causes.append(ErrorCause(error))
            }
        }
        if let seed {
            do {
                let seedBundle = try CatalogBundle(path: seed, trust: trust)
                guard let installed = found else { return Current(bundle: seedBundle, source: .seed, passedOver: problems) }
                if ReleaseVersion.isNewer(seedBundle.release.releaseVersion, than: installed.bundle.release.releaseVersion) {
                    problems.append("the seed's release \(seedBundle.release.releaseVersion) is newer than the installed "
                        + installed.bundle.release.releaseVersion)
                    return Current(bundle: seedBundle, source: .seed, passedOver: problems)
                }
            } catch {
                problems.append("the seed: \(error)")
                causes.append(ErrorCause(error))
            }
        }
        if let found { return found }
        throw .noBundle(problems.isEmpty ? "nothing is installed and there is no seed" : problems.joined(separator: "; "), causes: causes)
    }
}
