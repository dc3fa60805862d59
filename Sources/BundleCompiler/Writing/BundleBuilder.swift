import CatalogContent
import CatalogModel
import Crypto
import Foundation
import GRDB

/// Compiles a content folder into a bundle: validates exactly as `digno validate` does, and
/// when there is no error writes the bundle and its manifest atomically. A failed or killed
/// build leaves the previous bundle and manifest as they were.
package struct BundleBuilder: Sendable {
    /// The content folder.
    package var contentFolder: String
    /// Where the bundle goes, such as `dist/catalog.sqlite`.
    package var output: String
    /// Overrides the release version from `catalog.xml`.
    package var releaseVersion: String?
    /// The day promotions are judged against (warnings only).
    package var today: Day?
    /// An earlier release to find outdated translations against: its catalogue and version
    /// (`digno preview --compare`'s).
    package var since: (catalog: Catalog, release: String)?
    /// The bundle schema to write: the newest (`BundleSchema.version`, every language), or an
    /// older one apps in the field read (2: the default language only).
    package var schemaVersion = BundleSchema.version
    /// Older schemas written beside `output` too (`BundleSchema.path(forBundle:schema:)`), from
    /// the same content, for the apps in the field: all of them or none (`writeAll`).
    package var olderSchemas: [Int] = []
    /// Where the pictures' renditions are kept between builds (`ContentValidator.renditionCache`);
    /// nil keeps none.
    package var renditionCache: String?
    /// How many pictures are rendered at once (`ContentValidator.renditionWorkers`); nil: one
    /// per core.
    package var renditionWorkers: Int?
    /// The preview's (`ContentValidator.deferral`): never a build's that writes a bundle.
    package var deferral: RenditionDeferral?
    /// Files parsed at an earlier build, reused while their bytes are the same
    /// (`ContentValidator.cache`): the preview's builds.
    package var loadCache: LoadCache?
    /// What changed on disk since the last build with `loadCache`, as the caller knows it
    /// (`ContentValidator.changedOnDisk`): the preview, told by the kernel.
    package var changedOnDisk: Set<String>?

    /// A builder for one content folder and output path.
    package init(contentFolder: String, output: String, releaseVersion: String? = nil, today: Day? = nil) {
        self.contentFolder = contentFolder
        self.output = output
        self.releaseVersion = releaseVersion
        self.today = today
        self.renditionCache = RenditionCache.beside(contentFolder: contentFolder).folder
    }

    /// The manifest's path: the bundle's, with `.manifest.json` for its extension.
    package var manifestPath: String { Manifest.path(forBundle: output) }

    /// Each schema this builder writes and where, once: `schemaVersion` at `output`, each of
    /// `olderSchemas` beside it.
    package var targets: [(schema: Int, output: String)] {
        var schemas = [schemaVersion]
        for schema in olderSchemas where !schemas.contains(schema) { schemas.append(schema) }
        return schemas.enumerated().map { index, schema in (schema, index == 0 ? output : BundleSchema.path(forBundle: output, schema: schema)) }
    }

    /// A bundle `writeAll` wrote.
    package struct Written: Sendable {
        package var schema: Int
        package var output: String
        package var manifest: Manifest
        /// How long writing and checking it took (not validating the content): for the newest
        /// schema, writing every schema's bundle (the older ones are derived as it is written)
        /// and checking its own; for each older one, checking it.
        package var elapsed: Duration
        /// How many of its bytes are its pictures' (the renditions' own bytes).
        package var pictureBytes: Int
    }

    /// Step one: validate. Print the report; call `write` only if it is valid.
    package func validate(progress: (String) -> Void = { _ in }) throws(CompilerError) -> ValidationReport {
        var validator = ContentValidator(contentFolder: contentFolder, today: today, since: since)
        validator.cache = loadCache
        validator.changedOnDisk = loadCache == nil ? nil : changedOnDisk
        validator.renditionCache = renditionCache
        validator.renditionWorkers = renditionWorkers
        validator.deferral = deferral
        return try validator.validate(progress: progress)
    }

    /// Refuses what would make `write` fail whatever the content: a release version that is
    /// not year.month.patch, an output that names a folder, and an output inside the content
    /// folder. `write` checks them too; a command calls this first, so as not to validate in
    /// vain.
    package func checkOptions() throws(BuildError) {
        if let releaseVersion, !Self.isReleaseVersion(releaseVersion) {
            throw .output(path: output, reason: "release version '\(releaseVersion)' is not year.month.patch, such as 2026.11.0")
        }
        if ["", ".", ".."].contains(AtomicFile.split(output).name) {
            throw .output(path: output, reason: "it names a folder; give the bundle's file name, such as dist/catalog.sqlite")
        }
        for schema in [schemaVersion] + olderSchemas where !BundleSchema.writableVersions.contains(schema) {
            throw .output(path: output, reason: "schema \(schema) is not one this compiler writes (\(BundleSchema.writableVersions.map(String.init).joined(separator: ", ")))")
        }
        // The older ones are derived from the newest's rows (`BundleWriter.olderSchemas`).
        for schema in olderSchemas where schema > schemaVersion {
            throw .output(path: output, reason: "schema \(schema) is newer than the schema written at the output, \(schemaVersion); give the newest first")
        }
        for path in targets.flatMap({ [$0.output, Manifest.path(forBundle: $0.output)] }) where FileSystem.entryType(path) == .folder {
            throw .output(path: path, reason: "a folder is there; remove it, or give the bundle another name with --output")
        }
        try AtomicFile.refuseInside(content: contentFolder, output: output)
        // The output folder, or the nearest folder above it that exists (where the missing ones
        // will be made), must be writable. Said of the folder, before any work: SQLite would
        // say it of a hidden temporary file, after validation.
        var folder = AtomicFile.split(output).folder
        while FileSystem.entryType(folder) == nil, AtomicFile.split(folder).folder != folder { folder = AtomicFile.split(folder).folder }
        guard access(folder, W_OK) == 0 else {
            throw .output(path: output, reason: "the folder '\(folder)' cannot be written to", cause: ErrorCause(errno: errno))
        }
    }

    /// Step two: write the bundle and manifest of a valid report's catalogue (and of each older
    /// schema, `writeAll`); the manifest of the bundle at `output`. `progress` hears each stage as
    /// it starts, in words, for a command to show on a terminal.
    package func write(_ report: ValidationReport, progress: (String) -> Void = { _ in }) throws(BuildError) -> Manifest {
        try writeAll(report, progress: progress)[0].manifest
    }

    /// Writes the bundle and manifest of every schema in `targets`, in that order: each is
    /// written and checked under its temporary name first, and only when all are sound are they
    /// renamed into place, so that a failure in writing or checking any schema leaves every pair
    /// as it was. The renames are one pair at a time: a failure of a later pair's rename (a
    /// folder put in its place meanwhile) or a kill between them leaves pairs of two builds,
    /// which `digno publish` refuses as bundles of different content.
    package func writeAll(_ report: ValidationReport, progress: (String) -> Void = { _ in }) throws(BuildError) -> [Written] {
        guard report.isValid, let validated = report.catalog else { throw .contentInvalid(errors: max(report.errorCount, 1)) }
        try checkOptions()
        // The preview's stand-ins (`RenditionDeferral`) are never written into a bundle.
        if let standIn = report.pictures.first(where: { $0.value.standIn != nil }) {
            throw .output(path: output, reason: "the picture '\(standIn.key)' has a stand-in, not its renditions: only the preview builds so")
        }
        progress("reading images and ordering the lists")
        // The images (validation made their renditions) and the content digest, the same in
        // every schema, on one thread while this one waits for the folder's lock and orders the
        // first schema's lists (the products' on another thread, the recipes' and retailers' on
        // this one).
        let imagesAndDigest = Background { () -> (BundleImages, String) in
            let images = BundleImages(pictures: report.pictures)
            return (images, ContentDigest.compute(files: report.fileDigests, images: images))
        }
        let folder = AtomicFile.split(output).folder
        let paths = targets.flatMap { [$0.output, Manifest.path(forBundle: $0.output)] }
        let lock: AtomicFile.FolderLock
        do {
            try AtomicFile.makeFolder(folder)
            // Held until every file is published (or removed): one build at a time per folder.
            lock = try AtomicFile.FolderLock(folder) { progress("waiting for another build writing into \(folder)") }
            for path in paths { try AtomicFile.removeStale(for: path) }
        } catch {
            // Not left hashing the images after the build has failed.
            _ = imagesAndDigest.wait()
            throw error
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            var written: [Written] = []
            let started = ContinuousClock.now
            // Every schema from one writing of the rows: the newest written, the older ones
            // derived from it (`BundleWriter.olderSchemas`); then each checked on its own.
            let newest = targets[0].schema
            let catalog = newest >= 3 ? validated : validated.defaultLanguageOnly
            let lists = BundleWriter.Lists(ordering: catalog)
            let (images, digest) = imagesAndDigest.wait()
            try writeTemporary(catalog, targets: targets, lists: lists, images: images, digest: digest, progress: progress)
            var checked = started
            for (index, (schema, output)) in targets.enumerated() {
                let manifest = try sealTemporary(catalog, schema: schema, output: output, images: images, digest: digest,
                                                   budget: report.budget, derived: index > 0, progress: progress)
                // The writing is the newest schema's; each older one's time is its check.
                let now = ContinuousClock.now
                written.append(Written(schema: schema, output: output, manifest: manifest, elapsed: now - checked,
                                       pictureBytes: images.byteCount(schema: schema)))
                checked = now
            }
            progress("publishing")
            for entry in written {
                try AtomicFile.publish(bundle: entry.output, manifest: Manifest.path(forBundle: entry.output))
            }
            return written
        } catch {
            for path in paths { try? AtomicFile.removeTemporary(for: path) }
            // The output's name, not the hidden temporary file's the failure happened in.
            if case .output(let failed, let reason, let cause) = error, let target = paths.first(where: { AtomicFile.temporaryPath(for: $0) == failed }) {
                throw .output(path: target, reason: reason, cause: cause)
            }
            throw error
        }
    }

    /// The content and release of a bundle's `bundle_info`, for `schema`.
    private func info(_ catalog: Catalog, schema: Int, digest: String) -> [String: String] {
        Self.info(catalog, schema: schema, digest: digest, releaseVersion: releaseVersion)
    }

    /// The content and release of a bundle's `bundle_info`, for `schema`, its release version
    /// `releaseVersion` when given, else the catalogue's.
    static func info(_ catalog: Catalog, schema: Int, digest: String, releaseVersion: String?) -> [String: String] {
        [
            "schema_version": String(schema),
            "release_version": releaseVersion ?? catalog.releaseVersion,
            "release_date": catalog.releaseDate.description,
            "content_digest": digest,
            "brand": catalog.brand,
        ]
    }

    /// Writes the bundle of `catalog` in each schema of `targets` (the newest first) under the
    /// temporary name of its output.
    private func writeTemporary(_ catalog: Catalog, targets: [(schema: Int, output: String)], lists: BundleWriter.Lists, images: BundleImages,
                                digest: String, progress: (String) -> Void) throws(BuildError) {
        let newest = targets[0]
        progress("writing \(Self.counted(catalog.products.count, "product")), \(Self.counted(catalog.recipes.count, "recipe")), "
            + "\(Self.counted(catalog.retailers.count, "retailer")) and the search index")
        var writer = BundleWriter(catalog: catalog, lists: lists, images: images, info: info(catalog, schema: newest.schema, digest: digest),
                                  schemaVersion: newest.schema)
        writer.olderSchemas = targets.dropFirst().map { ($0.schema, AtomicFile.temporaryPath(for: $0.output)) }
        try writer.write(into: AtomicFile.temporaryPath(for: newest.output), scratch: AtomicFile.scratchPath(for: newest.output)) { stage in
            // The output's name, not the hidden temporary file's.
            progress(stage.replacingOccurrences(of: AtomicFile.temporaryPath(for: newest.output), with: newest.output))
        }
    }

    /// A release version, year.month.patch: the pattern of the content schema's
    /// `ReleaseVersion` type, which `catalog.xml` is checked against. A test keeps the two
    /// equal, so `--release-version` accepts exactly what `catalog.xml` may hold.
    static let releaseVersionPattern = #"[1-9][0-9]{3}\.([1-9]|1[0-2])\.(0|[1-9][0-9]{0,3})"#

    /// Whether `text` is a release version: year.month.patch, such as `2026.11.0`, with a
    /// month from 1 to 12 and no leading zeros (`2026.1.0`, never `2026.01.0`: one version,
    /// one spelling, which also makes it a SemVer version).
    package static func isReleaseVersion(_ text: String) -> Bool {
        // An XSD pattern matches the whole value, as `wholeMatch` does.
        guard let pattern = try? Regex(releaseVersionPattern) else { return false }
        return text.wholeMatch(of: pattern) != nil
    }

    /// `1 product`, `2 recipes`: a count as the progress lines say it.
    package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
