import Foundation

extension BundleStore {
    /// Removes the bundles (and notes) the state does not name. An app still reading one keeps
    /// reading it: the system frees a removed file's bytes when the last reader closes it.
    func removeUnlisted(_ state: StoreState) {
        let listed = Set(state.installed.flatMap { [layout.bundle($0.sha256), notesPath($0.sha256), layout.headCopy($0.sha256)] })
        for name in StoreFiles.names(in: layout.bundles) where !listed.contains(layout.inBundles(name)) {
            StoreFiles.remove(layout.inBundles(name))
        }
    }
}
