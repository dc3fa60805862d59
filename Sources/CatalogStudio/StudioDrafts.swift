import CatalogContent
import Foundation

/// The forms an editor changed and has not saved, kept by the studio as they are typed, so that
/// a closed tab, a browser that crashed or a studio stopped loses nothing: each form's fields as
/// its page last sent them, one file per entity in a folder outside the content folder (the
/// command chooses it: the user's state folder; nothing of it reaches git or a bundle). A draft
/// is offered back when its form opens again, and goes at a save, a discard, or once the file
/// holds what it does.
final class StudioDrafts: Sendable {
    /// A form's fields as its page sent them (the token left out), and when they were kept.
    struct Draft {
        var fields: [(String, String)]
        var kept: Date
    }

    let folder: String

    init(folder: String) {
        self.folder = folder
    }

    /// The longest draft file read back: a form is at most `StudioResponder.formLimit` bytes as
    /// sent, and its JSON at most six times that (every byte escaped as `\u00XX`).
    static let fileLimit = 6 * StudioResponder.formLimit

    /// Keeps `fields` as the draft of `entity`, in place of any before (written whole, then
    /// renamed over: a studio stopped while writing leaves the last draft). False when the
    /// folder cannot be written.
    @discardableResult
    func keep(_ fields: [(String, String)], of entity: EntityReference) -> Bool {
        let data: Data
        do {
            data = try JSONEncoder().encode(fields.map { [$0.0, $0.1] })
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path(of: entity)), options: .atomic)
        } catch {
            return false
        }
        return true
    }

    /// The draft of `entity`, if one is kept and readable.
    func draft(of entity: EntityReference) -> Draft? {
        let url = URL(fileURLWithPath: path(of: entity))
        guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey]),
              let size = values.fileSize, size <= Self.fileLimit,
              let data = try? Data(contentsOf: url),
              let pairs = try? JSONDecoder().decode([[String]].self, from: data) else { return nil }
        let fields = pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        return Draft(fields: fields, kept: values.contentModificationDate ?? Date(timeIntervalSince1970: 0))
    }

    /// Forgets the draft of `entity`, if any.
    func discard(_ entity: EntityReference) {
        try? FileManager.default.removeItem(atPath: path(of: entity))
    }

    /// `product.espresso.json`, `home.json`: an entity's id is a slug (no dot, no slash).
    private func path(of entity: EntityReference) -> String {
        folder + "/" + entity.kind.rawValue + (entity.id.isEmpty ? "" : "." + entity.id) + ".json"
    }
}
