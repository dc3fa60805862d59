import CatalogModel
import Foundation

/// A bundle's manifest as `digno inspect` compares it with the bundle: the manifest's SHA-256
/// is the one check that finds every change to the file's bytes, and its release says whether
/// the two files belong together (a publish interrupted between its two renames, or a copy of
/// one file from another release, leaves a bundle beside another bundle's manifest).
struct ManifestComparison {
    /// The manifest's path.
    var path: String
    /// Whether it was asked for (`--manifest`) rather than found beside the bundle.
    var explicit: Bool
    /// The manifest, or why it could not be read.
    var manifest: Result<Manifest, ManifestUnreadable>

    struct ManifestUnreadable: Error {
        var reason: String
    }

    /// The manifest a manifest's JSON may be at most: a real one is under 1 KiB.
    static let sizeLimit = 1 << 20

    /// The manifest at `explicit`, which must exist, or else the one the compiler writes
    /// beside `bundle`, if there is one.
    static func load(explicit: String?, besideBundle bundle: String) throws(BundleInspection.Failure) -> ManifestComparison? {
        let path = explicit ?? Manifest.path(forBundle: bundle)
        guard FileSystem.entryType(path) != nil else {
            if explicit != nil { throw .missing(path) }
            return nil
        }
        let manifest: Result<Manifest, ManifestUnreadable>
        switch FileSystem.read(path, limit: sizeLimit) {
        case .success(let bytes):
            do {
                manifest = .success(try JSONDecoder().decode(Manifest.self, from: Data(bytes)))
            } catch {
                manifest = .failure(ManifestUnreadable(reason: "it is not a bundle manifest's JSON"))
            }
        case .failure(.tooLarge(let size)):
            manifest = .failure(ManifestUnreadable(reason: "it is \(size) bytes, too large for a manifest"))
        case .failure(.notAFile):
            manifest = .failure(ManifestUnreadable(reason: "it is not a file"))
        case .failure(.unreadable(let reason)):
            manifest = .failure(ManifestUnreadable(reason: reason))
        }
        return ManifestComparison(path: path, explicit: explicit != nil, manifest: manifest)
    }

    /// Every way the bundle and the manifest disagree.
    func problems(bundle: BundleInspection) -> [String] {
        let manifest: Manifest
        switch self.manifest {
        case .success(let found): manifest = found
        case .failure(let unreadable): return ["manifest: \(path) cannot be read: \(unreadable.reason)"]
        }
        guard manifest.format == BundleSchema.format else {
            return ["manifest: its format is '\(manifest.format)', not \(BundleSchema.format)"]
        }
        var problems: [String] = []
        let name = AtomicFile.split(bundle.file).name
        if !explicit, manifest.bundle.file != name {
            problems.append("manifest: it describes the bundle file '\(manifest.bundle.file)', not '\(name)'")
        }
        // The release a manifest and a bundle state, compared field by field; a bundle whose
        // release information could not be read is compared by its bytes only.
        let release = ["release_version": manifest.releaseVersion, "release_date": manifest.releaseDate, "content_digest": manifest.contentDigest]
        let readable = release.keys.allSatisfy { bundle.info[$0] != nil }
        if readable, release.contains(where: { bundle.info[$0.key] != $0.value }) || manifest.schemaVersion != bundle.schemaVersion {
            let described = "release \(manifest.releaseVersion) of \(manifest.releaseDate), content digest \(manifest.contentDigest.prefix(12))…"
            let found = "release \(bundle.info["release_version"] ?? "?") of \(bundle.info["release_date"] ?? "?"), content digest \((bundle.info["content_digest"] ?? "?").prefix(12))…"
            problems.append("manifest: it belongs to another bundle (\(described)), not this one (\(found)), "
                + "as an interrupted publish or a copy from two releases leaves them; build or copy both files again")
        } else if manifest.bundle.sha256.lowercased() != bundle.sha256 || manifest.bundle.bytes != bundle.bytes {
            problems.append("manifest: the file's SHA-256 is \(bundle.sha256) (\(bundle.bytes) bytes), not the manifest's "
                + "\(manifest.bundle.sha256) (\(manifest.bundle.bytes) bytes): its bytes changed after the build; build or copy it again")
        }
        return problems
    }
}
