import CatalogModel
import ChannelFormat
import Foundation

extension ChannelPublisher {
    /// Removes what no head names any more, after `head` replaced `previous`, and returns the
    /// paths removed. Retained: what this head and the folder's other channels' heads name (and
    /// the bundles their deltas start from, for the next publish's deltas); the previous head's
    /// notes, and every delta to a bundle a head still names or retains (a client may be
    /// fetching them as the head changes).
    func removeUnretained(after head: ChannelHead, previous: ChannelHead?) -> [String] {
        // Every schema each head offers, as a head of its own.
        let heads = ([head] + otherChannelsHeads()).flatMap(Self.perSchema)
        var retained = heads.reduce(into: Set<String>()) { $0.formUnion(Self.paths(named: $1)) }
        retained.formUnion(previous.map { Self.perSchema($0).flatMap(Self.notesPaths(of:)) } ?? [])
        let served = Set(heads.flatMap { [$0.bundle.sha256] + $0.retained.map(\.sha256) })
        return removeUnnamed(in: ChannelLayout.bundlesFolder, suffixes: ChannelLayout.bundleSuffixes, retained: retained)
            + removeUnnamed(in: ChannelLayout.deltasFolder, suffixes: ChannelLayout.deltaSuffixes, retained: retained) { name in
                // A delta is retained while the bundle it leads to is served.
                ChannelLayout.deltaTarget(ofName: name).map(served.contains) ?? false
            }
            + removeUnnamed(in: ChannelLayout.notesFolder, suffixes: ChannelLayout.notesSuffixes, retained: retained)
    }

    /// The paths of the files `head` needs on the host: its bundle and the retained ones, their
    /// gzip copies, its notes and deltas; and the bundles its deltas start from, which the next
    /// publish makes deltas from.
    static func paths(named head: ChannelHead) -> Set<String> {
        let bundles = ([head.bundle] + head.retained).map(\.path) + (head.deltas ?? []).map { ChannelLayout.bundlePath(sha256: $0.from) }
        let deltas = (head.deltas ?? []).map(\.path)
        return Set(bundles + bundles.map(ChannelLayout.gzipPath) + deltas + deltas.map(ChannelLayout.gzipPath) + notesPaths(of: head))
    }

    /// `head` as one head per schema it offers.
    static func perSchema(_ head: ChannelHead) -> [ChannelHead] {
        head.offered.compactMap { head.release(schema: $0.schemaVersion) }
    }

    /// The paths of every release notes file `head` names.
    static func notesPaths(of head: ChannelHead) -> [String] {
        ([head.notes].compactMap { $0 } + (head.notesFrom ?? [])).flatMap { [$0.json.path, $0.markdown.path] }
    }

    /// The heads of the folder's other channels (read as this publisher wrote them, not
    /// verified: they are its own folder's).
    func otherChannelsHeads() -> [ChannelHead] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.channelsFolder))) ?? []
        return names.filter { $0 != channel }.sorted().compactMap { name in
            FileManager.default.contents(atPath: path(ChannelLayout.headPath(channel: name))).flatMap(ChannelHead.unverified)
        }
    }

    /// Removes the files of `folder` (`bundles`, `deltas` or `notes`) with one of `suffixes`
    /// whose paths `retained` does not hold and that `alsoRetained` does not retain, and returns
    /// their paths. Other files (one an operator put there) are left alone, and so are hidden ones.
    func removeUnnamed(in folder: String, suffixes: [String], retained: Set<String>, alsoRetained: (String) -> Bool = { _ in false }) -> [String] {
        var removed: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []).sorted()
        where !name.hasPrefix(".") && suffixes.contains(where: name.hasSuffix) && !retained.contains(folder + "/" + name) && !alsoRetained(name) {
            if (try? FileManager.default.removeItem(atPath: path(folder + "/" + name))) != nil { removed.append(folder + "/" + name) }
        }
        return removed
    }

    /// Removes the temporary files (`.<name>.partial`) of a publish that was stopped midway;
    /// called with the folder's lock held, so no publish is writing them.
    func removeStoppedWrites() {
        for folder in [ChannelLayout.bundlesFolder, ChannelLayout.deltasFolder, ChannelLayout.notesFolder] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
            where name.hasPrefix(".") && name.hasSuffix(".partial") {
                try? DurableFile.remove(path(folder + "/" + name))
            }
        }
    }
}
