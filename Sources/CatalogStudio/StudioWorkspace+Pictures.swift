import CatalogContent
import CatalogModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pictures taken into the content folder (a photo dropped on a form) and pictures no longer
/// used removed from it.
extension StudioWorkspace {
    /// The folder under `images/` an entity's pictures go in, as the shipped content has them.
    static func pictureFolder(of kind: EntityReference.Kind) -> String {
        switch kind {
        case .product: "images/products"
        case .recipe: "images/recipes"
        case .retailer: "images/retailers"
        case .company: "images/company"
        case .section: "images/tabs"
        case .home, .promotion, .catalog: "images/home"
        }
    }

    /// Writes the picture `bytes` (judged already: `PictureIntake`) under `images/`, named from
    /// `entity` and the field's `element` as the shipped pictures are (`espresso-3.jpg`,
    /// `espresso-icon.png`), never a camera's `IMG_4032.HEIC`, and never over a file: the first
    /// name no file has with any ending. Written whole into a temporary file, then linked to
    /// its name (which fails where a file is, and the next is tried). Its path, or why not.
    func placePicture(_ bytes: [UInt8], fileExtension: String, for entity: EntityReference, element: String) -> Result<String, FileFailure> {
        let folder = Self.pictureFolder(of: entity.kind)
        if let failure = checkPlace(folder + "/x") {
            guard failure == .missing else { return .failure(failure) }
            // `images/` or its kind's folder not made yet: made, each a real folder.
            var made = contentFolder
            for part in folder.split(separator: "/") {
                made += "/" + part
                if !DurableFile.exists(made) {
                    do { try DurableFile.makeFolder(made) } catch { return .failure(.system("cannot make \(folder): \(error)")) }
                }
            }
            if let failure = checkPlace(folder + "/x") { return .failure(failure) }
        }
        let base = (entity.id.isEmpty ? entity.kind.rawValue : entity.id) + (element == "icon" ? "-icon" : element == "logo" ? "-logo" : "")
        let taken = Set(((try? FileManager.default.contentsOfDirectory(atPath: contentFolder + "/" + folder)) ?? []).map { ($0 as NSString).deletingPathExtension })
        let temporary = contentFolder + "/" + folder + "/.taking-" + UUID().uuidString
        do { try DurableFile.writeFlushed(bytes, to: temporary) } catch { return .failure(.system("cannot write into \(folder): \(error)")) }
        defer { unlink(temporary) }
        // A picture's list numbers its files from 1; an icon or a logo has its name, then a number.
        let named = element == "icon" || element == "logo"
        for number in 1...1000 {
            let stem = named && number == 1 ? base : "\(base)-\(number)"
            guard !taken.contains(stem) else { continue }
            let path = folder + "/" + stem + "." + fileExtension
            if link(temporary, contentFolder + "/" + path) == 0 { return .success(path) }
            guard errno == EEXIST else { return .failure(.system("cannot name \(path): \(String(cString: strerror(errno)))")) }
        }
        return .failure(.system("\(folder) has a thousand pictures named from \(base) already"))
    }

    /// Removes the picture `path` under `images/` when the last check found it used by nothing
    /// (`image-unused`); why not, else nil.
    func removeUnusedPicture(_ path: String) -> String? {
        guard path.hasPrefix("images/"), checkPlace(path) == nil else { return "\(path) is not a picture of the content folder" }
        guard let report = latest.withLock({ $0.report }),
              report.diagnostics.contains(where: { $0.code == .imageUnused && $0.file == path }) else {
            return "\(path) is used, or was not found unused by the last check"
        }
        guard DurableFile.size(contentFolder + "/" + path, regularFileOnly: true, followingLinks: false) != nil else { return "\(path) is not a file" }
        do { try DurableFile.remove(contentFolder + "/" + path) } catch { return "cannot remove \(path): \(error)" }
        return nil
    }

    /// The pictures of `entity`'s folder named from it (`placePicture`'s names, and the shipped
    /// pictures') that the last check found used by nothing.
    func unusedPictures(of entity: EntityReference) -> [String] {
        let base = Self.pictureFolder(of: entity.kind) + "/" + (entity.id.isEmpty ? entity.kind.rawValue : entity.id)
        return unusedPictures().filter { $0.hasPrefix(base + "-") || $0.hasPrefix(base + ".") }
    }

    /// The pictures the last check found used by nothing, sorted.
    func unusedPictures() -> [String] {
        (latest.withLock { $0.report }?.diagnostics ?? []).filter { $0.code == .imageUnused }.compactMap(\.file).sorted()
    }
}
