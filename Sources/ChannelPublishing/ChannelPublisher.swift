import BundleCompiler
import CatalogModel
import ChannelFormat
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `digno publish`: puts a bundle on a release channel, a folder to copy to any static host.
///
///     bundles/<sha256>.sqlite          every bundle a head names, immutable (and its .gz)
///     deltas/<from>-<to>.vcdiff        deltas to the head's bundle from recent ones (and .gz)
///     notes/<sha256>.json, .md         the release notes
///     keys/<version>.json              key statements (`rotateKey`)
///     channels/<channel>/head.json     the signed head, written last
///
/// The head is replaced atomically once the files it names are in place; files no head names
/// any more are removed after it. One publish at a time per channel folder (a lock on the
/// folder).
package struct ChannelPublisher {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case badChannelName(String)
        case bundle(String)
        case head(String)
        case notNewer(new: String, current: String)
        case sameContent(String)
        case rollback(String)
        case rotation(String)
        case keyReplaced(statement: String)
        case deltas(String)
        case writing(String)

        package var description: String {
            switch self {
            case .badChannelName(let name):
                ChannelLayout.notAChannelName(name)
            case .bundle(let reason): "the bundle cannot be published: \(reason)"
            case .head(let reason): "the channel's head cannot be read: \(reason)"
            case .notNewer(let new, let current):
                "the bundle is release \(new), not newer than the channel's \(current); build a newer release, or give --rollback-to \(new) to go back on purpose"
            case .sameContent(let version): "the channel already serves this content (release \(version)); nothing was published"
            case .rollback(let reason): "cannot roll back: \(reason)"
            case .rotation(let reason): "cannot change the key: \(reason)"
            case .keyReplaced(let statement):
                "the key given was handed over to another by \(statement); sign with the key it names"
            case .deltas(let reason): "cannot write the deltas: \(reason)"
            case .writing(let reason): "cannot write the channel: \(reason)"
            }
        }
    }

    /// What a publish did.
    package struct Outcome: Equatable {
        package var head: ChannelHead
        /// The head's path from the channel folder, `channels/<channel>/head.json`.
        package var headPath: String
        /// Bundles no head names any more, removed.
        package var removed: [String]
        /// Why the release notes could not be made, when they could not (the head then has none).
        package var notesProblem: String? = nil
        /// The recent releases that have no delta to this one, and why (too large to be worth
        /// it, or the delta could not be made): "from bundles/<sha256>.sqlite: why".
        package var deltasLeftOut: [String] = []
    }

    package var channelFolder: String
    package var channel: String
    package var key: Curve25519.Signing.PrivateKey
    /// How many earlier releases' bundles stay on the host for clients midway through a download.
    package var keep: Int
    /// From how many of the channel's most recent releases a delta to the new one is written.
    package var deltas: Int
    /// What writes them; nil when `xdelta3` is not installed, which a publish needing a delta refuses.
    package var deltaEncoder: DeltaEncoder?

    package init(channelFolder: String, channel: String, key: Curve25519.Signing.PrivateKey, keep: Int = 3, deltas: Int = 5,
                 deltaEncoder: DeltaEncoder? = .onPath()) {
        self.channelFolder = channelFolder
        self.channel = channel
        self.key = key
        self.keep = max(0, keep)
        self.deltas = max(0, deltas)
        self.deltaEncoder = deltaEncoder
    }

    package var headPath: String { ChannelLayout.headPath(channel: channel) }

    /// The file or folder at `relative` (a path of `ChannelLayout`) in the channel folder.
    func path(_ relative: String) -> String { channelFolder + "/" + relative }

    /// Publishes the bundle at `bundlePath` as the channel's new head, valid until `now` plus
    /// `lifetime`. A release not newer than the head's is refused unless `rollbackTo` names its
    /// version: then it is published again under a new sequence number, so that going back never
    /// lowers the number clients have seen.
    package func publish(bundle bundlePath: String, now: Date, lifetime: TimeInterval, rollbackTo: String? = nil) throws(Failure) -> Outcome {
        guard ChannelLayout.isChannelName(channel) else { throw .badChannelName(channel) }
        let release: ReleaseInfo
        do {
            release = try CatalogBundle(path: bundlePath).release
        } catch {
            throw .bundle("\(error)")
        }
        guard let digest = BundleFileDigest.sha256(path: bundlePath) else { throw .bundle("'\(bundlePath)' cannot be read") }

        try makeFolder(ChannelLayout.channelFolder(channel))
        try makeFolder(ChannelLayout.bundlesFolder)
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }

        try refuseReplacedKey()
        removeStoppedWrites()
        let current = try currentHead()
        if let current {
            let newer = ReleaseVersion.isNewer(release.releaseVersion, than: current.releaseVersion)
            if let rollbackTo {
                guard rollbackTo == release.releaseVersion else {
                    throw .rollback("the bundle is release \(release.releaseVersion), not \(rollbackTo)")
                }
                guard !newer else { throw .rollback("release \(rollbackTo) is newer than the channel's \(current.releaseVersion); publish it without --rollback-to") }
            } else if !newer {
                if current.contentDigest == release.contentDigest { throw .sameContent(current.releaseVersion) }
                throw .notNewer(new: release.releaseVersion, current: current.releaseVersion)
            }
        } else if let rollbackTo {
            throw .rollback("the channel has no head yet to roll back from (asked for \(rollbackTo))")
        }

        guard (current?.sequence ?? 0) < ChannelHead.maximumSequence else { throw .head("its sequence number is the highest a head may have") }
        let file = ChannelHead.BundleFile(path: ChannelLayout.bundlePath(sha256: digest.hex), sha256: digest.hex, bytes: digest.bytes)
        let sources = current.map { deltaSources(after: $0, to: file) } ?? []
        if !sources.isEmpty, deltaEncoder == nil {
            throw .deltas("xdelta3 is not installed (Debian: apt-get install xdelta3); install it, or publish with --deltas 0")
        }
        try copyIntoPlace(bundlePath, as: file)
        var retained: [ChannelHead.BundleFile] = []
        if let current {
            for earlier in [current.bundle] + current.retained where earlier.sha256 != file.sha256 && !retained.contains(earlier) {
                retained.append(earlier)
            }
        }
        retained = Array(retained.prefix(keep))
        // The notes are a courtesy: a previous bundle that no longer opens (a schema this
        // digno does not read, a damaged file) leaves the release without them, not unpublished.
        var notes: ChannelHead.Notes?
        var notesProblem: String?
        if let current {
            do { notes = try writeNotes(from: current, to: file) } catch { notesProblem = "\(error)" }
        }
        let (deltaFiles, deltasLeftOut) = try writeDeltas(from: sources, to: file)
        let head = ChannelHead(
            channel: channel, sequence: (current?.sequence ?? 0) + 1, releaseVersion: release.releaseVersion,
            releaseDate: release.releaseDate, schemaVersion: release.schemaVersion, contentDigest: release.contentDigest,
            bundle: file, expires: now.addingTimeInterval(lifetime), retained: retained, notes: notes,
            deltas: deltaFiles.isEmpty ? nil : deltaFiles)
        let envelope: Data
        do { envelope = try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: key).encoded() } catch {
            throw .writing("signing failed: \(error)")
        }
        try replaceAtomically(headPath, with: envelope)
        // Kept: what this head and the folder's other channels' heads name (and the bundles
        // their deltas start from, for the next publish's deltas); the previous head's notes,
        // and every delta to a bundle a head still names or retains (a client may be fetching
        // them as the head changes).
        let heads = [head] + otherChannelsHeads()
        var kept = heads.reduce(into: Set<String>()) { $0.formUnion(Self.paths(named: $1)) }
        kept.formUnion(current?.notes.map { [$0.json.path, $0.markdown.path] } ?? [])
        let served = Set(heads.flatMap { [$0.bundle.sha256] + $0.retained.map(\.sha256) })
        let removed = removeUnnamed(in: ChannelLayout.bundlesFolder, suffixes: ChannelLayout.bundleSuffixes, kept: kept)
            + removeUnnamed(in: ChannelLayout.deltasFolder, suffixes: ChannelLayout.deltaSuffixes, kept: kept) { name in
                // A delta is kept while the bundle it leads to is served.
                ChannelLayout.deltaTarget(ofName: name).map(served.contains) ?? false
            }
            + removeUnnamed(in: ChannelLayout.notesFolder, suffixes: ChannelLayout.notesSuffixes, kept: kept)
        return Outcome(head: head, headPath: headPath, removed: removed, notesProblem: notesProblem, deltasLeftOut: deltasLeftOut)
    }

    /// The paths of the files `head` needs on the host: its bundle and the retained ones, their
    /// gzip copies, its notes and deltas; and the bundles its deltas start from, which the next
    /// publish makes deltas from.
    static func paths(named head: ChannelHead) -> Set<String> {
        let bundles = ([head.bundle] + head.retained).map(\.path) + (head.deltas ?? []).map { ChannelLayout.bundlePath(sha256: $0.from) }
        let deltas = (head.deltas ?? []).map(\.path)
        return Set(bundles + bundles.map(ChannelLayout.gzipPath) + deltas + deltas.map(ChannelLayout.gzipPath)
            + (head.notes.map { [$0.json.path, $0.markdown.path] } ?? []))
    }

    /// The bundles to write deltas from: the `deltas` most recent releases before the new one
    /// whose bundles the folder still has (the current head's, then those its deltas start
    /// from and those it retains), not the new bundle itself (a rollback's).
    private func deltaSources(after current: ChannelHead, to file: ChannelHead.BundleFile) -> [String] {
        var sources: [String] = []
        for sha in [current.bundle.sha256] + (current.deltas ?? []).map(\.from) + current.retained.map(\.sha256)
        where sha != file.sha256 && !sources.contains(sha) && FileManager.default.fileExists(atPath: path(ChannelLayout.bundlePath(sha256: sha))) {
            sources.append(sha)
        }
        return Array(sources.prefix(deltas))
    }

    /// Writes a delta from each of `sources` (bundle SHA-256s) to `file` under `deltas/`, with
    /// its gzip copy. A delta not smaller than half the bundle is left out, as a client would
    /// not use it; so is one xdelta3 cannot make or the client's decoder cannot apply, which
    /// `deltasLeftOut` then reports: the release is published, those clients download it whole.
    /// A delta already in place (the same two bundles published on another channel, or again
    /// after a publish stopped midway) is kept if it checks, never rewritten: a head may name it.
    private func writeDeltas(from sources: [String], to file: ChannelHead.BundleFile) throws(Failure) -> ([ChannelHead.Delta], [String]) {
        guard let deltaEncoder, !sources.isEmpty else { return ([], []) }
        try makeFolder(ChannelLayout.deltasFolder)
        var written: [ChannelHead.Delta] = [], leftOut: [String] = []
        let bundle = path(file.path)
        for sha in sources {
            let sourcePath = ChannelLayout.bundlePath(sha256: sha)
            let source = path(sourcePath)
            let deltaPath = ChannelLayout.deltaPath(from: sha, to: file.sha256)
            let target = path(deltaPath)
            guard BundleFileDigest.sha256(path: source)?.hex == sha else {
                leftOut.append("from \(sourcePath): its bytes are not its SHA-256's")
                continue
            }
            let scratch = DurableFile.temporaryPath(for: target + ".check")
            let check = { (delta: String) throws(Failure) in
                try deltaEncoder.check(delta, from: source, targetSHA256: file.sha256, targetBytes: file.bytes, scratch: scratch)
            }
            var wrote = false
            do {
                if DurableFile.size(target) == nil || (try? check(target)) == nil {
                    try writeInPlace(target) { temporary throws(Failure) in
                        try deltaEncoder.encode(from: source, to: bundle, output: temporary)
                        try check(temporary)
                    }
                    wrote = true
                }
            } catch .deltas(let reason) {
                leftOut.append("from \(sourcePath): \(reason)")
                continue
            }
            guard let digest = BundleFileDigest.sha256(path: target) else { throw .writing("'\(target)' cannot be read") }
            guard digest.bytes <= (file.bytes - 1) / 2 else {
                if wrote { try? DurableFile.remove(target) }
                leftOut.append("from \(sourcePath): it would be \(digest.bytes) bytes, not less than half the bundle's \(file.bytes); clients download the bundle")
                continue
            }
            if wrote || DurableFile.size(ChannelLayout.gzipPath(of: target)) == nil {
                try writeInPlace(ChannelLayout.gzipPath(of: target)) { temporary throws(Failure) in try GzipCopy.write(target, to: temporary) }
            }
            written.append(ChannelHead.Delta(from: sha, path: deltaPath, sha256: digest.hex, bytes: digest.bytes))
        }
        return (written, leftOut)
    }

    /// Writes the release notes from the current head's bundle to `file` (`digno diff`'s JSON
    /// and Markdown) under `notes/<sha256>.json` and `.md`; nil when the current head's bundle
    /// is not in the folder to compare with.
    private func writeNotes(from current: ChannelHead, to file: ChannelHead.BundleFile) throws(Failure) -> ChannelHead.Notes? {
        let old = path(current.bundle.path)
        guard FileManager.default.fileExists(atPath: old) else { return nil }
        let changes: CatalogChanges
        do {
            changes = try ReleaseSide.changes(from: old, to: path(file.path))
        } catch {
            throw .bundle("the release notes cannot be made: \(error)")
        }
        try makeFolder(ChannelLayout.notesFolder)
        func write(_ bytes: Data, format: ChannelLayout.NotesFormat) throws(Failure) -> ChannelHead.BundleFile {
            let sha = SHA256.hash(data: bytes).hexString
            let notesPath = ChannelLayout.notesPath(sha256: sha, format: format)
            if FileManager.default.fileExists(atPath: path(notesPath)) == false {
                try replaceAtomically(notesPath, with: bytes)
            }
            return ChannelHead.BundleFile(path: notesPath, sha256: sha, bytes: bytes.count)
        }
        return ChannelHead.Notes(
            since: current.releaseVersion, json: try write(changes.encoded(), format: .json),
            markdown: try write(Data(ChangesText.render(changes, style: .markdown).utf8), format: .markdown))
    }

    /// The heads of the folder's other channels (read as this publisher wrote them, not
    /// verified: they are its own folder's).
    private func otherChannelsHeads() -> [ChannelHead] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.channelsFolder))) ?? []
        return names.filter { $0 != channel }.sorted().compactMap { name in
            FileManager.default.contents(atPath: path(ChannelLayout.headPath(channel: name))).flatMap(ChannelHead.unverified)
        }
    }

    /// Removes the files of `folder` (`bundles`, `deltas` or `notes`) with one of `suffixes`
    /// whose paths `kept` does not hold and that `alsoKept` does not keep, and returns their
    /// paths. Other files (one an operator put there) are left alone, and so are hidden ones.
    private func removeUnnamed(in folder: String, suffixes: [String], kept: Set<String>, alsoKept: (String) -> Bool = { _ in false }) -> [String] {
        var removed: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []).sorted()
        where !name.hasPrefix(".") && suffixes.contains(where: name.hasSuffix) && !kept.contains(folder + "/" + name) && !alsoKept(name) {
            if (try? FileManager.default.removeItem(atPath: path(folder + "/" + name))) != nil { removed.append(folder + "/" + name) }
        }
        return removed
    }

    /// Removes the temporary files (`.<name>.partial`) of a publish that was stopped midway;
    /// called with the folder's lock held, so no publish is writing them.
    private func removeStoppedWrites() {
        for folder in [ChannelLayout.bundlesFolder, ChannelLayout.deltasFolder, ChannelLayout.notesFolder] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
            where name.hasPrefix(".") && name.hasSuffix(".partial") {
                try? DurableFile.remove(path(folder + "/" + name))
            }
        }
    }

    /// Publishes the channel's head again, unchanged but for a new sequence number and an
    /// expiry `lifetime` from `now`: what keeps a channel with no new release installable, since
    /// clients install nothing from an expired head.
    package func renew(now: Date, lifetime: TimeInterval) throws(Failure) -> Outcome {
        guard ChannelLayout.isChannelName(channel) else { throw .badChannelName(channel) }
        let noHead = Failure.head("the channel has no head to renew; publish a bundle first")
        guard FileManager.default.fileExists(atPath: path(headPath)) else { throw noHead }
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }
        try refuseReplacedKey()
        guard var head = try currentHead() else { throw noHead }
        guard head.sequence < ChannelHead.maximumSequence else { throw .head("its sequence number is the highest a head may have") }
        head.sequence += 1
        head.expires = now.addingTimeInterval(lifetime)
        do {
            try replaceAtomically(headPath, with: try SignedEnvelope.signing(head.encoded(), payloadType: ChannelHead.payloadType, with: key).encoded())
        } catch let error as Failure {
            throw error
        } catch {
            throw .writing("signing failed: \(error)")
        }
        return Outcome(head: head, headPath: headPath, removed: [])
    }

    /// What a key rotation did.
    package struct Rotation: Equatable {
        /// The key statement's path from the channel folder, `keys/<version>.json`.
        package var statementPath: String
        /// The heads signed again with the new key.
        package var heads: [String]
    }

    /// Hands the channel folder over from this publisher's key to `newKey`, with no app update:
    /// writes the next key statement (`keys/<version>.json`, naming `newKey`, signed by both
    /// keys), then signs every channel's head again with both keys (the same payload, so the same
    /// sequence number); the next publish signs with `newKey` alone. Refused unless this
    /// publisher's key (or, for a rotation run again after it stopped midway, `newKey`) signed
    /// every head there.
    package func rotateKey(to newKey: Curve25519.Signing.PrivateKey) throws(Failure) -> Rotation {
        guard newKey.publicKey.rawRepresentation != key.publicKey.rawRepresentation else {
            throw .rotation("the new key is the one in use")
        }
        try makeFolder(ChannelLayout.keysFolder)
        let lock = try lockFolder()
        defer { withExtendedLifetime(lock) {} }

        // A head signed by the old key, or already by the new one (a rotation that stopped
        // midway, run again).
        let accepted = [ChannelKey(key.publicKey), ChannelKey(newKey.publicKey)]
        var heads: [(path: String, payload: Data)] = []
        let channels = ((try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.channelsFolder))) ?? []).sorted()
        for name in channels where ChannelLayout.isChannelName(name) {
            let headPath = ChannelLayout.headPath(channel: name)
            guard let data = FileManager.default.contents(atPath: path(headPath)) else { continue }
            do {
                let payload = try SignedEnvelope.verifiedPayload(data, payloadType: ChannelHead.payloadType, keys: accepted)
                heads.append((headPath, payload))
            } catch {
                throw .rotation("\(headPath) is not signed by the key given (\(error)); give the key that signs the channel now")
            }
        }
        let last = lastStatement()
        let own = ChannelKey(key.publicKey).description, new = ChannelKey(newKey.publicKey).description
        // The last statement already names the new key alone: the same rotation, run again after
        // it stopped midway; the statement is kept (statements are never replaced).
        let again = last?.keys == [new]
        if let last, !again, !last.keys.contains(own) { throw .keyReplaced(statement: ChannelLayout.keyStatementPath(version: last.version)) }
        let version = again ? (last?.version ?? 1) : (last?.version ?? 0) + 1
        let statementPath = ChannelLayout.keyStatementPath(version: version)
        do {
            if !again {
                let statement = try SignedEnvelope.signing(KeyStatement(version: version, keys: [ChannelKey(newKey.publicKey)]).encoded(),
                                                           payloadType: KeyStatement.payloadType, with: [key, newKey])
                try replaceAtomically(statementPath, with: statement.encoded())
            }
            // Signed by both keys: a client that has not taken the statement yet (a cache, an
            // upload in progress) still reads the head with the old key, one that has with the new.
            for head in heads {
                try replaceAtomically(head.path, with: SignedEnvelope.signing(head.payload, payloadType: ChannelHead.payloadType, with: [key, newKey]).encoded())
            }
        } catch let error as Failure {
            throw error
        } catch {
            throw .writing("signing failed: \(error)")
        }
        return Rotation(statementPath: statementPath, heads: heads.map(\.path))
    }

    /// The channel folder's last key statement: its version and the keys it names (read, not
    /// verified: the folder is the publisher's own). Nil when there is none.
    func lastStatement() -> (version: Int, keys: [String])? {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: path(ChannelLayout.keysFolder))) ?? []).compactMap { name in
            ChannelLayout.keyStatementVersion(ofName: name).flatMap { (1..<ChannelHead.maximumSequence).contains($0) ? $0 : nil }
        }
        guard let version = versions.max() else { return nil }
        guard let data = FileManager.default.contents(atPath: path(ChannelLayout.keyStatementPath(version: version))),
              let payload = SignedEnvelope.unverifiedPayload(data),
              let statement = try? JSONDecoder().decode(KeyStatement.self, from: payload) else { return (version, []) }
        return (version, statement.keys)
    }

    /// Refuses a key that a key statement handed the channel over from.
    func refuseReplacedKey() throws(Failure) {
        guard let last = lastStatement(), !last.keys.contains(ChannelKey(key.publicKey).description) else { return }
        throw .keyReplaced(statement: ChannelLayout.keyStatementPath(version: last.version))
    }

    /// Writes `bytes` at `path` (from the channel folder) under a temporary name, flushed,
    /// given a later modification time than the file it replaces, renamed into place.
    private func replaceAtomically(_ path: String, with bytes: Data) throws(Failure) {
        let target = channelFolder + "/" + path
        do {
            let temporary = DurableFile.temporaryPath(for: target)
            try DurableFile.writeFlushed(bytes, to: temporary)
            Self.laterModificationTime(temporary, than: target)
            try DurableFile.move(temporary, to: target)
        } catch {
            throw .writing(error)
        }
    }

    /// The channel's head as it is, checked with this publisher's own key; nil if there is none.
    func currentHead() throws(Failure) -> ChannelHead? {
        let path = channelFolder + "/" + headPath
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw .head("'\(path)' cannot be read") }
            return nil
        }
        do {
            return try ChannelHead.verified(data, keys: [ChannelKey(key.publicKey)])
        } catch {
            throw .head("\(error) (is this the channel's key?)")
        }
    }

    /// Copies the bundle to its place under `bundles/`, unless the same bytes are there, and
    /// writes its gzip copy beside it (`<sha256>.sqlite.gz`) when that is missing or the bundle
    /// was copied again. Each is written under a temporary name, flushed and renamed.
    private func copyIntoPlace(_ source: String, as file: ChannelHead.BundleFile) throws(Failure) {
        let target = path(file.path)
        let compressed = ChannelLayout.gzipPath(of: target)
        var copied = false
        if BundleFileDigest.sha256(path: target)?.hex != file.sha256 {
            try writeInPlace(target) { temporary throws(Failure) in
                do { try FileManager.default.copyItem(atPath: source, toPath: temporary) } catch { throw .writing("\(error)") }
            }
            guard BundleFileDigest.sha256(path: target)?.hex == file.sha256 else { throw .writing("'\(target)' is not the bundle's bytes after copying") }
            copied = true
        }
        if copied || DurableFile.size(compressed) == nil {
            try writeInPlace(compressed) { temporary throws(Failure) in try GzipCopy.write(target, to: temporary) }
        }
    }

    /// Writes `target` through `write` to its temporary name, then flushes and renames it.
    private func writeInPlace(_ target: String, _ write: (String) throws(Failure) -> Void) throws(Failure) {
        let temporary = DurableFile.temporaryPath(for: target)
        do {
            try durably { () throws(DurableFileError) in try DurableFile.remove(temporary) }
            try write(temporary)
            try durably { () throws(DurableFileError) in
                try DurableFile.sync(temporary)
                try DurableFile.move(temporary, to: target)
            }
        } catch {
            try? DurableFile.remove(temporary)
            throw error
        }
    }

    /// Gives the new head a modification time at least a second after the old one's. Static
    /// hosts derive the ETag from it (nginx: the time in seconds and the size), and a client
    /// sends that ETag back: two heads of the same size published within a second would share
    /// one, and a client that fetched the first would be told "not modified" about the second.
    static func laterModificationTime(_ path: String, than previous: String) {
        var old = stat(), new = stat()
        guard stat(previous, &old) == 0, stat(path, &new) == 0 else { return }
        #if canImport(Darwin)
        let (oldSeconds, newSeconds) = (old.st_mtimespec.tv_sec, new.st_mtimespec.tv_sec)
        #else
        let (oldSeconds, newSeconds) = (old.st_mtim.tv_sec, new.st_mtim.tv_sec)
        #endif
        guard newSeconds <= oldSeconds else { return }
        var times = [timespec(tv_sec: oldSeconds + 1, tv_nsec: 0), timespec(tv_sec: oldSeconds + 1, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
