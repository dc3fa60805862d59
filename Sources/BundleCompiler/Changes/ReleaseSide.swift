import CatalogContent
import CatalogModel
import Foundation

typealias ReleaseOrders = CatalogChanges.ListOrders

/// One side of `digno diff`: a bundle, or a content folder read as `digno build` would write it
/// (its pictures named by SHA-256, its lists in list order), as a catalogue to compare.
package struct ReleaseSide {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case invalidContent(path: String, errors: Int)

        package var description: String {
            switch self {
            case .unreadable(let path, let reason): "'\(path)' cannot be compared: \(reason)"
            case .invalidContent(let path, let errors):
                "the content in '\(path)' has \(errors) error\(errors == 1 ? "" : "s"); run digno validate \(path) and fix \(errors == 1 ? "it" : "them") first"
            }
        }
    }

    package var catalog: Catalog
    package var contentDigest: String?

    /// The changes from the release at `old` to the one at `new`, each a bundle or a content
    /// folder. Two bundles are compared by their rows first (`CatalogBundle.listDigests()`),
    /// and only the entities that differ or moved are read whole.
    package static func changes(from old: String, to new: String) throws(Failure) -> CatalogChanges {
        if !isFolder(old), !isFolder(new) {
            return try bundleChanges(from: old, to: new)
        }
        let (before, after) = (try read(old), try read(new))
        return CatalogChanges(from: before.catalog, to: after.catalog, oldDigest: before.contentDigest, newDigest: after.contentDigest)
    }

    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    static func bundleChanges(from oldPath: String, to newPath: String) throws(Failure) -> CatalogChanges {
        // Each side opened (its `quick_check`) and its lists hashed on a core of its own, without
        // SQLite's memory statistics, whose process-wide mutex the two threads would fight over
        // (as the build's writers did).
        _ = BundleWriter.quietAllocator
        @Sendable func open(_ path: String) throws(Failure) -> (CatalogBundle, ListDigests) {
            guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(path: path, reason: "there is no such file or folder") }
            do {
                let bundle = try CatalogBundle(path: path)
                return (bundle, try bundle.listDigests())
            } catch {
                throw .unreadable(path: path, reason: "\(error)")
            }
        }
        let oldSide = Background { () throws(Failure) -> (CatalogBundle, ListDigests) in try open(oldPath) }
        let (new, after) = try open(newPath)
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
            return CatalogChanges(from: try old.catalog(only: chosen), to: try new.catalog(only: chosen),
                                  oldDigest: old.release.contentDigest, newDigest: new.release.contentDigest,
                                  orders: orders, pictures: (try old.pictureSHA256s(), try new.pictureSHA256s()))
        } catch {
            throw .unreadable(path: "\(oldPath)' or '\(newPath)", reason: "\(error)")
        }
    }

    /// Reads `path`: a folder is content, anything else a bundle.
    package static func read(_ path: String) throws(Failure) -> ReleaseSide {
        guard FileManager.default.fileExists(atPath: path) else { throw .unreadable(path: path, reason: "there is no such file or folder") }
        return isFolder(path) ? try content(path) : try bundle(path)
    }

    static func bundle(_ path: String) throws(Failure) -> ReleaseSide {
        do {
            let bundle = try CatalogBundle(path: path)
            return ReleaseSide(catalog: try bundle.catalog(), contentDigest: bundle.release.contentDigest)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    static func content(_ path: String) throws(Failure) -> ReleaseSide {
        let report: ValidationReport
        do {
            report = try ContentValidator(contentFolder: path).validate()
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard report.isValid, var catalog = report.catalog else { throw .invalidContent(path: path, errors: max(report.errorCount, 1)) }
        let images: BundleImages
        do {
            images = try BundleImages(paths: report.imagePaths, spellings: report.imageSpellings, root: path)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        let lists = BundleWriter.Lists(ordering: catalog)
        catalog.products = lists.products
        catalog.recipes = lists.recipes
        catalog.retailers = lists.retailers
        catalog.mapImages { ImageReference(source: images.sha256(of: $0), alt: $0.alt) }
        return ReleaseSide(catalog: catalog, contentDigest: ContentDigest.compute(files: report.fileDigests, images: images))
    }
}

extension Catalog {
    /// Replaces every picture reference through `transform`, and forgets the lists' positions
    /// (a bundle keeps the order they gave, not the numbers), as a bundle's catalogue has them.
    package mutating func mapImages(_ transform: (ImageReference) -> ImageReference) {
        for index in sections.indices { sections[index].icon = transform(sections[index].icon) }
        home.logo = transform(home.logo)
        home.image = transform(home.image)
        for index in home.promotions.indices { home.promotions[index].image = transform(home.promotions[index].image) }
        company.logo = transform(company.logo)
        company.images = company.images.map(transform)
        for index in products.indices {
            products[index].icon = transform(products[index].icon)
            products[index].images = products[index].images.map(transform)
            products[index].position = nil
        }
        for index in recipes.indices {
            recipes[index].icon = transform(recipes[index].icon)
            recipes[index].images = recipes[index].images.map(transform)
            recipes[index].position = nil
        }
        for index in retailers.indices {
            retailers[index].logo = transform(retailers[index].logo)
            retailers[index].position = nil
        }
    }
}
