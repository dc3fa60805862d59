import CatalogContent
import CatalogModel
import Foundation

typealias ReleaseOrders = CatalogChanges.ListOrders

/// One side of `digno diff`: a bundle, or a content folder read as `digno build` would write it
/// (its pictures named by SHA-256, its lists in list order), as a catalogue to compare.
package struct ReleaseSide {
    package enum Failure: CausedError, Equatable, CustomStringConvertible {
        /// A side that cannot be read: `cause` says why (SQLite's code, the bundle check's, the system's).
        case unreadable(path: String, cause: ErrorCause)
        case invalidContent(path: String, errors: Int)

        package var description: String {
            switch self {
            case .unreadable(let path, let cause): "'\(path)' cannot be compared: \(cause)"
            case .invalidContent(let path, let errors):
                "the content in '\(path)' has \(errors) error\(errors == 1 ? "" : "s"); run digno validate \(path) and fix \(errors == 1 ? "it" : "them") first"
            }
        }

        package var cause: ErrorCause? {
            switch self {
            case .unreadable(_, let cause): cause
            case .invalidContent: nil
            }
        }
    }

    package var catalog: Catalog
    package var contentDigest: String?
    /// The bundle file's bytes; nil for a content folder, which has no bundle yet.
    package var bundleBytes: Int?
    /// The pictures' bytes, as a bundle stores them (each rendition once).
    package var pictureBytes = 0
    /// A name people know each picture by, by its SHA-256: its file in a content folder
    /// (`images/espresso.jpg`); in a bundle, which keeps no file names, where it is used
    /// (`13063ef3df66 (product espresso's picture 2)`).
    package var pictureNames: [String: String] = [:]

    /// How many bytes a release adds: each side's bundle and pictures.
    package struct Sizes: Equatable, Sendable {
        package var oldBundle: Int?
        package var newBundle: Int?
        package var oldPictures: Int
        package var newPictures: Int

        /// One line, such as "size: the bundle 606208 → 983040 bytes (+376832), its pictures
        /// 42044 → 50000 bytes (+7956)"; a content folder's bundle is not known before it is built.
        package var line: String {
            func change(_ old: Int, _ new: Int) -> String { "\(old) → \(new) bytes (\(new >= old ? "+" : "−")\(abs(new - old)))" }
            let pictures = change(oldPictures, newPictures)
            guard let oldBundle, let newBundle else {
                return "size: the pictures \(pictures); a content folder's bundle is known once it is built"
            }
            return "size: the bundle \(change(oldBundle, newBundle)), its pictures \(pictures)"
        }
    }

    /// Two releases compared: what changed, both sides' sizes, and the pictures' names.
    package struct Comparison {
        package var changes: CatalogChanges
        package var sizes: Sizes
        /// Each added or removed picture's name (`ReleaseSide.pictureNames`), the newer side's
        /// first.
        package var pictureNames: [String: String]
    }

    /// The changes from `old` to `new`, as `changes(from:to:)` finds them, the sizes of both
    /// sides and the pictures' names (`digno diff`): each side read once.
    ///
    /// `newIsPatched`: `new` is the preview's bundle, patched in place (`PatchableBundle`), opened
    /// as `CatalogBundle(patchedAt:)` opens it.
    package static func compare(_ old: String, with new: String, newIsPatched: Bool = false) throws(Failure) -> Comparison {
        let defaultLanguageOnly = languageNote(from: old, to: new, newIsPatched: newIsPatched) != nil
        if !isFolder(old), !isFolder(new) {
            let (changes, names) = try bundleChanges(from: old, to: new, defaultLanguageOnly: defaultLanguageOnly, newIsPatched: newIsPatched)
            let (before, after) = (try bundleSizes(old), try bundleSizes(new, patched: newIsPatched))
            return Comparison(
                changes: changes, sizes: Sizes(oldBundle: before.bundle, newBundle: after.bundle, oldPictures: before.pictures, newPictures: after.pictures),
                pictureNames: names)
        }
        var (before, after) = (try read(old), try read(new))
        if defaultLanguageOnly { (before.catalog, after.catalog) = (before.catalog.defaultLanguageOnly, after.catalog.defaultLanguageOnly) }
        let changes = CatalogChanges(from: before.catalog, to: after.catalog, oldDigest: before.contentDigest, newDigest: after.contentDigest)
        return Comparison(
            changes: changes,
            sizes: Sizes(oldBundle: before.bundleBytes, newBundle: after.bundleBytes, oldPictures: before.pictureBytes, newPictures: after.pictureBytes),
            pictureNames: after.pictureNames.merging(before.pictureNames) { newer, _ in newer })
    }

    /// A bundle's file size and its pictures' bytes, read from its `images` table.
    static func bundleSizes(_ path: String, patched: Bool = false) throws(Failure) -> (bundle: Int?, pictures: Int) {
        do {
            let bundle = try open(path, patched: patched)
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            return (bytes, try bundle.pictureByteCount())
        } catch {
            throw .unreadable(path: path, cause: ErrorCause(error))
        }
    }

    /// The changes from the release at `old` to the one at `new`, each a bundle or a content
    /// folder. Two bundles are compared by their rows first (`CatalogBundle.listDigests()`),
    /// and only the entities that differ or moved are read whole.
    ///
    /// A bundle of schema 2 holds the default language alone: compared with one, both sides are
    /// compared in the default language (`languageNote` says so), not every translation called added.
    package static func changes(from old: String, to new: String) throws(Failure) -> CatalogChanges {
        try compare(old, with: new).changes
    }

    /// Why two releases are compared in the default language alone, when they are: one is a
    /// bundle of an older schema than the other side's, which holds no other language. Nil when
    /// both hold their languages (or a side cannot be read, which `changes` reports).
    package static func languageNote(from old: String, to new: String, newIsPatched: Bool = false) -> String? {
        func schema(_ path: String, patched: Bool = false) -> Int? {
            isFolder(path) ? BundleSchema.version : (try? open(path, patched: patched))?.release.schemaVersion
        }
        guard let a = schema(old), let b = schema(new, patched: newIsPatched), a != b, min(a, b) < 3 else { return nil }
        let older = a < b ? old : new
        return "'\(older)' is of bundle schema \(min(a, b)), which holds the default language alone: both are compared in it"
    }

    /// The bundle at `path`; `patched`, the preview's patched in place.
    static func open(_ path: String, patched: Bool) throws(CatalogBundleError) -> CatalogBundle {
        patched ? try CatalogBundle(patchedAt: path) : try CatalogBundle(path: path)
    }

    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The changes between two bundles, and the pictures' names as the entities read for them
    /// use them.
    static func bundleChanges(
        from oldPath: String, to newPath: String, defaultLanguageOnly: Bool = false, newIsPatched: Bool = false
    ) throws(Failure) -> (CatalogChanges, pictureNames: [String: String]) {
        // Each side opened (its `quick_check`) and its lists hashed on a core of its own, without
        // SQLite's memory statistics, whose process-wide mutex the two threads would fight over
        // (as the build's writers did).
        _ = BundleWriter.quietAllocator
        @Sendable func open(_ path: String, patched: Bool = false) throws(Failure) -> (CatalogBundle, ListDigests) {
            guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(path: path, cause: ErrorCause(errno: ENOENT)) }
            do {
                let bundle = try Self.open(path, patched: patched)
                return (bundle, try bundle.listDigests())
            } catch {
                throw .unreadable(path: path, cause: ErrorCause(error))
            }
        }
        let oldSide = Background { () throws(Failure) -> (CatalogBundle, ListDigests) in try open(oldPath) }
        let (new, after) = try open(newPath, patched: newIsPatched)
        let (old, before) = try oldSide.wait()
        do {
            func selection(_ keyPath: KeyPath<ListDigests, ListDigests.List>) -> Set<String> {
                let a = before[keyPath: keyPath], b = after[keyPath: keyPath]
                var ids = ReleaseOrders.moved(from: a.ids, to: b.ids)
                for (id, digest) in a.digests where b.digests[id] != digest { ids.insert(id) }
                for id in b.digests.keys where a.digests[id] == nil { ids.insert(id) }
                return ids
            }
            let chosen = CatalogBundle.EntitySelection(products: selection(\.products), recipes: selection(\.recipes), retailers: selection(\.retailers))
            let orders = (old: ReleaseOrders(products: before.products.ids, recipes: before.recipes.ids, retailers: before.retailers.ids),
                          new: ReleaseOrders(products: after.products.ids, recipes: after.recipes.ids, retailers: after.retailers.ids))
            var (before, after) = (try old.catalog(only: chosen), try new.catalog(only: chosen))
            if defaultLanguageOnly { (before, after) = (before.defaultLanguageOnly, after.defaultLanguageOnly) }
            let changes = CatalogChanges(from: before, to: after,
                                         oldDigest: old.release.contentDigest, newDigest: new.release.contentDigest,
                                         orders: orders, pictures: (try old.pictureSHA256s(), try new.pictureSHA256s()))
            return (changes, Self.namesByUse(after).merging(Self.namesByUse(before)) { newer, _ in newer })
        } catch {
            throw .unreadable(path: "\(oldPath)' or '\(newPath)", cause: ErrorCause(error))
        }
    }

    /// Reads `path`: a folder is content, anything else a bundle.
    package static func read(_ path: String) throws(Failure) -> ReleaseSide {
        guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(path: path, cause: ErrorCause(errno: ENOENT)) }
        return isFolder(path) ? try content(path) : try bundle(path)
    }

    static func bundle(_ path: String) throws(Failure) -> ReleaseSide {
        do {
            let bundle = try CatalogBundle(path: path)
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            let catalog = try bundle.catalog()
            return ReleaseSide(catalog: catalog, contentDigest: bundle.release.contentDigest, bundleBytes: bytes,
                               pictureBytes: try bundle.pictureByteCount(), pictureNames: namesByUse(catalog))
        } catch {
            throw .unreadable(path: path, cause: ErrorCause(error))
        }
    }

    static func content(_ path: String) throws(Failure) -> ReleaseSide {
        let report: ValidationReport
        do {
            report = try ContentValidator(contentFolder: path).validate()
        } catch {
            throw .unreadable(path: path, cause: ErrorCause(error))
        }
        guard report.isValid, var catalog = report.catalog else { throw .invalidContent(path: path, errors: max(report.errorCount, 1)) }
        let images = BundleImages(pictures: report.pictures)
        let lists = BundleWriter.Lists(ordering: catalog)
        catalog.products = lists.products
        catalog.recipes = lists.recipes
        catalog.retailers = lists.retailers
        var names: [String: String] = [:]
        catalog.mapImages { reference in
            let sha256 = images.sha256(of: reference)
            // Two files with the same bytes are one picture: named by the first in path order.
            if names[sha256].map({ reference.source < $0 }) ?? true { names[sha256] = reference.source }
            return ImageReference(source: sha256, alt: reference.alt)
        }
        return ReleaseSide(catalog: catalog, contentDigest: ContentDigest.compute(files: report.fileDigests, images: images),
                           pictureBytes: images.byteCount(schema: BundleSchema.version), pictureNames: names)
    }

    /// A bundle's pictures named by where they are used, as a bundle keeps no file names: the
    /// SHA-256's first 12 digits and the first use in the catalogue's order.
    static func namesByUse(_ catalog: Catalog) -> [String: String] {
        var names: [String: String] = [:]
        var catalog = catalog
        catalog.mapImages { reference, use in
            if names[reference.source] == nil { names[reference.source] = ChangesText.shortened(reference.source) + " (" + use + ")" }
            return reference
        }
        return names
    }
}

extension Catalog {
    /// Replaces every picture reference through `transform`, and forgets the lists' positions
    /// (a bundle keeps the order they gave, not the numbers), as a bundle's catalogue has them.
    package mutating func mapImages(_ transform: (ImageReference) -> ImageReference) {
        mapImages { reference, _ in transform(reference) }
    }

    /// `mapImages`, told where each picture is used, as `digno diff` names it: `product
    /// espresso's picture 2`, `the home's logo`.
    package mutating func mapImages(_ transform: (ImageReference, _ use: String) -> ImageReference) {
        func pictures(_ references: [ImageReference], of owner: String) -> [ImageReference] {
            references.enumerated().map { transform($1, "\(owner)'s picture \($0 + 1)") }
        }
        for index in sections.indices { sections[index].icon = transform(sections[index].icon, "section \(sections[index].id.rawValue)'s icon") }
        home.logo = transform(home.logo, "the home's logo")
        home.image = transform(home.image, "the home's picture")
        for index in home.promotions.indices {
            home.promotions[index].image = transform(home.promotions[index].image, "promotion \(home.promotions[index].id.rawValue)'s picture")
        }
        company.logo = transform(company.logo, "the company's logo")
        company.images = pictures(company.images, of: "the company")
        for index in products.indices {
            products[index].icon = transform(products[index].icon, "product \(products[index].id.rawValue)'s icon")
            products[index].images = pictures(products[index].images, of: "product \(products[index].id.rawValue)")
            products[index].position = nil
        }
        for index in recipes.indices {
            recipes[index].icon = transform(recipes[index].icon, "recipe \(recipes[index].id.rawValue)'s icon")
            recipes[index].images = pictures(recipes[index].images, of: "recipe \(recipes[index].id.rawValue)")
            recipes[index].position = nil
        }
        for index in retailers.indices {
            retailers[index].logo = transform(retailers[index].logo, "retailer \(retailers[index].id.rawValue)'s logo")
            retailers[index].position = nil
        }
    }
}
