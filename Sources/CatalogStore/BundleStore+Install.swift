import CatalogModel
import Foundation

extension BundleStore {
    /// Whether the release's file is in `bundles/`, whole, and opens with its content.
    func opens(_ release: Release) -> Bool {
        let path = layout.bundle(release.sha256)
        guard StoreFiles.size(path) == release.bytes, let bundle = try? CatalogBundle(path: path, trust: trust) else { return false }
        return bundle.release.contentDigest == release.contentDigest
    }

    /// Opens the downloaded bundle as the app will (identity, schema, `quick_check`), checks
    /// that it is the release the head announced, flushes it and renames it into place.
    func install(_ release: Release) throws(BundleStoreError) {
        let part = layout.part(release.sha256)
        let bundle: CatalogBundle
        do {
            bundle = try CatalogBundle(path: part, trust: trust)
        } catch {
            if case .fileMissing = error { throw .storage(StorageFailure(path: part, errorNumber: ENOENT, message: "\(part) is gone")) }
            StoreFiles.remove(part)
            throw .refused(.bundleUnreadable(BundleFailure(error)))
        }
        guard bundle.release.contentDigest == release.contentDigest, bundle.release.releaseVersion == release.releaseVersion else {
            StoreFiles.remove(part)
            throw .refused(.bundleUnreadable(BundleFailure(.content,
                "it is release \(bundle.release.releaseVersion) with content \(bundle.release.contentDigest), "
                    + "not the head's \(release.releaseVersion) with \(release.contentDigest)")))
        }
        try StoreFiles.sync(part)
        try StoreFiles.makeFolder(layout.bundles)
        try StoreFiles.move(part, to: layout.bundle(release.sha256))
        try StoreFiles.sync(layout.staging)
    }
}
