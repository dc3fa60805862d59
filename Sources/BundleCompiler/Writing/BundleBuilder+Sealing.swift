import CatalogContent
import CatalogModel
import GRDB

/// Each bundle a build wrote is sealed before it is renamed into place: SQLite's integrity
/// check, the catalogue's rules over it, its SHA-256 for the manifest, and the sync to disk.
extension BundleBuilder {
    /// Checks the bundle of `schema` written under the temporary name of `output`, syncs it and
    /// writes its manifest beside it, ready to be renamed into place; refused if it is larger
    /// than `budget`. `derived`: an older schema's bundle derived from the newest's scratch
    /// databases (`BundleWriter.deriveOlderSchemas`), checked after the newest one passed.
    func sealTemporary(_ catalog: Catalog, schema: Int, output: String, images: BundleImages, digest: String,
                         budget: BundleBudget?, derived: Bool = false, progress: (String) -> Void) throws(BuildError) -> Manifest {
        let version = releaseVersion ?? catalog.releaseVersion
        let temporary = AtomicFile.temporaryPath(for: output)
        progress("sealing \(output)")
        // Four things at once: syncing the file waits on the disk, not on a core; SQLite's
        // integrity check reads every page; schema 3's language rules read its 1.3 million
        // translations at 100,000 entities in three languages; the other rules, the hashing
        // and the manifest. Three of them on two cores take about as long as each other.
        let synced = Background { try AtomicFile.sync(temporary) }
        let integrity = Background { try Self.check(temporary, BundleChecks.integrityProblems) }
        // Schema 3's language rules read the languages' tables, which a derived bundle holds as
        // the newest one's very rows: `VACUUM INTO` copied them from the same scratch database,
        // and the newest bundle's check has just run these rules over them. Run again they took
        // 4 s of a 100,000-entity build in three languages. Its languages' search indexes are
        // copied into it on their own, so the rule reading them runs on it too; its integrity
        // check reads every page of the copy, and its other rules run as on any bundle.
        let languages = Background { try Self.check(temporary) { db in try BundleChecks.languageProblems(in: db, searchOnly: derived) } }
        let described = Result { () throws(BuildError) -> Manifest in
            try Self.check(temporary) { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
                return try BundleChecks.ruleProblems(in: db, languages: false) + (mode == "delete" ? [] : ["journal mode is \(mode ?? "?")"])
            }
            let (bundleSHA256, bundleBytes) = try Self.sha256(ofFile: temporary)
            if let budget, bundleBytes > budget.bytes {
                throw BuildError.overBudget(path: output, bytes: bundleBytes, pictureBytes: images.byteCount(schema: schema), budget: budget)
            }
            let manifest = Manifest(
                format: BundleSchema.format, schemaVersion: schema, releaseVersion: version,
                releaseDate: catalog.releaseDate.description, contentDigest: digest,
                bundle: Manifest.File(file: AtomicFile.split(output).name, sha256: bundleSHA256, bytes: bundleBytes),
                counts: [
                    "products": catalog.products.count, "recipes": catalog.recipes.count,
                    "retailers": catalog.retailers.count, "promotions": catalog.home.promotions.count,
                    "images": images.bySHA256.count,
                ],
                renditions: Manifest.Renditions(libraries: PictureCodec.libraries, settings: RenditionSettings.summary))
            // Written and synced beside its temporary name; a failure removes it.
            try AtomicFile.writeTemporary(manifest.encoded(), for: Manifest.path(forBundle: output))
            return manifest
        }
        // Every thread is waited for before anything fails, so that none is still reading or
        // syncing the file when a failure removes it.
        let checked = Result { () throws(BuildError) in try Self.wait(for: integrity) }
        let languagesVerified = Result { () throws(BuildError) in try Self.wait(for: languages) }
        let flushed = Result { () throws(BuildError) in try Self.wait(for: synced) }
        try checked.get()
        try languagesVerified.get()
        try flushed.get()
        return try described.get()
    }

    /// SHA-256 and size of a file, read in pieces so that a large bundle is never all in memory:
    /// the same reading a client's deep check does (`BundleFileDigest`).
    static func sha256(ofFile path: String) throws(BuildError) -> (String, Int) {
        guard let digest = BundleFileDigest.sha256(path: path) else {
            throw .output(path: path, reason: "cannot read back the written bundle")
        }
        return (digest.hex, digest.bytes)
    }

    /// The outcome of work running on another thread, as a build error.
    private static func wait(for checks: Background<Void, any Error>) throws(BuildError) {
        do {
            try checks.wait()
        } catch let error as BuildError {
            throw error
        } catch {
            throw .bundleCheckFailed("a check stopped", cause: ErrorCause(error))
        }
    }

    /// Opens the written file read-only and runs `checks` on it; throws if they find anything.
    static func check(_ path: String, _ checks: @escaping (Database) throws -> [String]) throws(BuildError) {
        do {
            // Opened as every reader of a bundle opens it (read-only, SQLite's settings for a
            // database from elsewhere), so that the checks see what a reader will.
            let queue = try DatabaseQueue(path: path, configuration: CatalogBundle.configuration(label: "digno.check"))
            let problems = try queue.read(checks)
            try queue.close()
            if !problems.isEmpty { throw BuildError.bundleCheckFailed(problems.joined(separator: "; ")) }
        } catch let error as BuildError {
            throw error
        } catch {
            throw .bundleCheckFailed("the written bundle cannot be read back", cause: ErrorCause(error))
        }
    }
}
