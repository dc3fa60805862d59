import CatalogModel
import ChannelFormat
import Foundation

extension BundleStore {
    /// Fetches and verifies the head, with the ETag of the last one; an unchanged head (304) is
    /// the last one. A changed head is verified with the keys trusted after any new key
    /// statements; its sequence number is checked against the highest seen and, once it passes,
    /// saved before anything else is done with the head. When the app pins other keys than
    /// before, no ETag is sent, and what was seen is kept only if the keys trusted now vouch for
    /// it: a head signed with a leaked key cannot hold back the app that pins its replacement.
    ///
    /// For a store pinning root keys, the head is verified with the newest root's release keys
    /// and threshold (`headKeys`), and the root is returned with it for the plan to judge; the
    /// installed releases those keys do not vouch for are dropped then (`keepVouched`), whether
    /// the head is taken or refused, the head taken vouching for the release it names.
    func fetchHead(_ state: inout StoreState) async throws(BundleStoreError) -> (head: ChannelHead, root: TrustedRoot?) {
        let url = headURL
        let pinnedChanged = switch anchor {
        case .keys: state.keyTrust?.pinned != pinnedKeys
        case .root: false
        }
        let known = pinnedChanged ? nil : state.channels[channel].flatMap { $0.headURL == url.absoluteString ? $0 : nil }
        var headers: [String: String] = [:]
        if let etag = known?.etag { headers["If-None-Match"] = etag }
        let (response, data) = try await fetchSigned(url, headers: headers, notModified: known != nil)
        if response.status == 304, let known, case .keys = anchor { return (known.head, nil) }
        // Roots are walked even when the head did not change: a renewed root lifts an expired
        // one, and a thief's head is refused once a root drops his key.
        let loaded = state
        let trusted = try await headKeys(&state)
        do {
            let (head, envelope) = try await takeHead(response, data, pinnedChanged: pinnedChanged, trusted: trusted, &state)
            try keepVouched(by: trusted, head: (head, envelope), &state)
            if state != loaded { try state.save(layout.state) }
            return (head, trusted.root)
        } catch {
            // What the keys decided stands though the head is refused: a release they do not
            // vouch for is not served (and a seen head they do not vouch for was forgotten).
            try? keepVouched(by: trusted, head: nil, &state)
            // A bundle dropped stays on the disk, unlisted, until the next update that installs or
            // finds nothing new: a head signed by the new keys may vouch for it again first.
            if state != loaded { try? state.save(layout.state) }
            throw error
        }
    }

    /// The head the host answered (`response`, `data`), verified with `trusted` and checked
    /// against the seen one, and its envelope; `state` changed to hold it, not saved.
    private func takeHead(_ response: ChannelResponse, _ data: Data?, pinnedChanged: Bool, trusted: HeadKeys,
                          _ state: inout StoreState) async throws(BundleStoreError) -> (ChannelHead, Data) {
        let url = headURL
        if response.status == 304, let seen = state.channels[channel] { return (seen.head, seen.envelope) }
        if pinnedChanged, let seen = state.channels[channel],
           (try? Self.verifiedHead(seen.envelope, keys: trusted.keys, threshold: trusted.threshold)) != seen.head {
            state.channels[channel] = nil
        }
        let envelope: Data
        if let data {
            envelope = data
        } else {
            // The seen head was forgotten (a root dropped its key) while the host answered 304:
            // fetched again whole.
            envelope = try await fetchSigned(url, headers: [:]).data ?? Data()
        }
        let head: ChannelHead
        do { head = try Self.verifiedHead(envelope, keys: trusted.keys, threshold: trusted.threshold) } catch { throw .refused(.head(error)) }
        let (seen, installed) = (state.channels[channel], state.installed)
        let acceptance = HeadAcceptance.decide(.init(
            head: head, channel: channel, seen: seen.map { ($0.head, $0.highestSequence) }, sequenceReset: state.sequenceReset == true,
            vouchedInstalled: { installed.first { self.isVouched($0, by: trusted) } }))
        switch acceptance {
        case .refused(let refusal):
            throw .refused(refusal)
        case .seenAgain:
            state.channels[channel]?.etag = response.headers["etag"]
            state.channels[channel]?.envelope = envelope
            return (head, envelope)
        case .newer:
            break
        }
        state.channels[channel] = .init(highestSequence: head.sequence, headURL: url.absoluteString,
                                        etag: response.headers["etag"], head: head, envelope: envelope)
        // Taken: the channel has a seen head again.
        state.sequenceReset = nil
        return (head, envelope)
    }

    /// A head as this store reads it: verified with `keys`, then as the newest bundle schema it
    /// offers that `CatalogBundle` reads (`ChannelHead.forSchemas`): a channel may serve one
    /// release in several schemas, for apps of several ages.
    static func verifiedHead(_ envelope: Data, keys: [ChannelKey], threshold: Int = 1) throws(ChannelError) -> ChannelHead {
        try ChannelHead.verified(envelope, keys: keys, threshold: threshold).forSchemas(CatalogBundle.readableSchemaVersions)
    }

    /// The pinned keys as the state records them.
    var pinnedKeys: [String] { keys.map(\.description).sorted() }

    /// The most key statements one update reads.
    static let keyStatementLimit = 32

    /// The keys trusted now: the pinned ones, then each key statement after the last one taken
    /// (`keys/<version>.json`, until the host has no next one) that the keys trusted before it
    /// vouch for. One the trusted keys did not sign is passed over, so that an app that pins a
    /// newer key than the store saw finds the statement that names it; a file that is no key
    /// statement of its place at all (a page a host answers for any path) ends the walk, so that
    /// one request asks for a statement the host does not have.
    func trustedKeys(_ state: inout StoreState) async throws(BundleStoreError) -> [ChannelKey] {
        let pinned = pinnedKeys
        var trust = state.keyTrust.flatMap { $0.pinned == pinned ? $0 : nil } ?? .init(pinned: pinned, version: 0, keys: pinned)
        var trusted = trust.version == 0 ? keys : trust.keys.compactMap { try? ChannelKey($0) }
        var version = trust.version + 1
        for _ in 0..<Self.keyStatementLimit {
            let url = baseURL.appendingPathComponent(ChannelLayout.keyStatementPath(version: version))
            guard let data = try await fetchSigned(url, headers: [:], missing: true).data,
                  SignedEnvelope.unverifiedPayload(data).flatMap({ try? JSONDecoder().decode(KeyStatement.self, from: $0) })?.version == version
            else { break }
            if let (_, keys) = try? KeyStatement.verified(data, trusted: trusted, version: version) {
                trusted = keys
                trust.version = version
                trust.keys = keys.map(\.description)
            }
            version += 1
        }
        if state.keyTrust != trust {
            // New keys: a seen head they do not vouch for is forgotten, as after a root drops a
            // key, so that a head the old key signed (a thief's at a sequence of his choosing)
            // holds back no head of the new key's.
            if state.keyTrust?.version != trust.version {
                forgetHeads(notVouchedBy: HeadKeys(keys: trusted, threshold: 1, root: nil), &state)
            }
            state.keyTrust = trust
            try state.save(layout.state)
        }
        return trusted
    }

    /// How long fetching a signed file may take in all.
    static let signedFileTimeout: TimeInterval = 60

    /// GETs a signed file, at most `headSizeLimit` bytes. 200 gives the bytes; 304 is accepted
    /// when `notModified`, and a file the host does not have (404, 410, or 403 as S3 answers
    /// without a listing permission) when `missing`, as no data. Any other status is an error.
    /// The body of any answer but 200 is not kept.
    func fetchSigned(_ url: URL, headers: [String: String], notModified: Bool = false, missing: Bool = false)
        async throws(BundleStoreError) -> (response: ChannelResponse, data: Data?) {
        let limit = Self.headSizeLimit
        let buffer = ByteBuffer()
        let response = try await transport.get(url, headers: headers, timeout: Self.signedFileTimeout, response: { response throws(BundleStoreError) in
            guard response.status == 200 || (response.status == 304 && notModified) || ([403, 404, 410].contains(response.status) && missing) else {
                throw .transfer(.status(response.status, url: url))
            }
            buffer.keep(response.status == 200)
        }, body: { data throws(BundleStoreError) in
            guard buffer.append(data, limit: limit) else { throw .refused(.headTooLarge(limit: limit)) }
        })
        return (response, response.status == 200 ? buffer.data : nil)
    }
}
