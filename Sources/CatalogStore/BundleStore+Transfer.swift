import CatalogModel
import ChannelFormat
import Foundation

extension BundleStore {
    /// How long a bundle's download may take in all: a minute, and a second for every 16 KiB
    /// (a slow mobile connection); a host that trickles bytes cannot hold the store's lock for
    /// longer.
    static func downloadTimeout(bytes: Int) -> TimeInterval {
        60 + TimeInterval(bytes / 16_384)
    }

    /// Downloads `file` into the staging folder, resuming a partial download with a Range
    /// request, never past its declared size, and checks its size and SHA-256. A host that
    /// will not resume from where the part stops (416, or another range) gets one more try
    /// from the start, and so does a resumed file whose SHA-256 is wrong (`resumed` is false
    /// for that try). The staging folder's other files are removed, but for `keeping` (a
    /// bundle's part, kept while its delta is fetched).
    func download(_ file: ChannelHead.BundleFile, _ kind: UpdateProgress.File = .bundle, keeping: String? = nil,
                  resumed: Bool = true) async throws(BundleStoreError) {
        try StoreFiles.makeFolder(layout.staging)
        let part = layout.part(file.sha256)
        for name in StoreFiles.names(in: layout.staging) where layout.inStaging(name) != part && layout.inStaging(name) != keeping {
            StoreFiles.remove(layout.inStaging(name))
        }
        if DurableFile.exists(part) && StoreFiles.size(part) == nil { StoreFiles.remove(part) }  // a link, a folder: not a part
        var offset = StoreFiles.size(part) ?? 0
        if offset > file.bytes {
            StoreFiles.remove(part)
            offset = 0
        }
        try checkRoom(for: file, have: offset)
        let resumed = resumed && offset > 0
        var attempts = 0
        let progress = ProgressReporter(Self.progress, kind, total: file.bytes)
        while offset < file.bytes {
            attempts += 1
            let sink = try PartFile(part, offset: offset, limit: file.bytes)
            progress.reach(offset)
            var headers: [String: String] = [:]
            if offset > 0 {
                // The plain bytes from `offset`: a compressed response's ranges would be of the
                // compressed bytes.
                headers["Range"] = "bytes=\(offset)-"
                headers["Accept-Encoding"] = "identity"
            }
            let url = baseURL.appendingPathComponent(file.path)
            do {
                _ = try await transport.get(url, headers: headers, timeout: Self.downloadTimeout(bytes: file.bytes), response: { response throws(BundleStoreError) in
                    try sink.begin(response, url: url)
                }, body: { data throws(BundleStoreError) in
                    try sink.write(data)
                    progress.add(data.count)
                })
                sink.finish()
                break
            } catch {
                sink.finish()
                if case .refused = error { StoreFiles.remove(part) }
                guard sink.rangeRefused && attempts == 1 else { throw error }
                StoreFiles.remove(part)
                offset = 0
            }
        }
        let received = StoreFiles.size(part) ?? 0
        guard received == file.bytes else {
            StoreFiles.remove(part)
            throw .refused(.bundleTooShort(received: received, declared: file.bytes))
        }
        // A bundle's check is told as `.verifying`; a delta's is a fraction of a second.
        let checked = kind == .bundle ? Self.checkedDigest(path: part, total: file.bytes) : BundleFileDigest.sha256(path: part)
        guard let digest = checked else { throw .storage(StorageFailure(path: part, errorNumber: nil, message: "\(part) cannot be read")) }
        guard digest.hex == file.sha256 else {
            StoreFiles.remove(part)
            // Bytes kept from an earlier update (lost to a power cut before they reached the
            // disk, say) are not the host's fault: the file is fetched once more from the start,
            // and only bytes all fetched now are refused.
            if resumed { return try await download(file, kind, keeping: keeping, resumed: false) }
            throw .refused(.bundleDigest(found: digest.hex, signed: file.sha256))
        }
    }

    /// The largest bundle the store downloads: 2 GiB, twelve times the 100,000-entity bundle.
    /// A head declaring more (a mistake, or a leaked key) is refused before a byte is fetched.
    package static let maximumBundleSize = 1 << 31

    /// Refuses a bundle larger than the store takes, and a download the disk cannot hold.
    func checkRoom(for file: ChannelHead.BundleFile, have: Int) throws(BundleStoreError) {
        try Self.checkRoom(for: file, have: have, free: StoreFiles.freeSpace(layout.staging))
    }

    /// Refuses a bundle larger than the store takes, and one that needs more than `free` bytes
    /// beyond the `have` already downloaded (nil: the system does not say).
    static func checkRoom(for file: ChannelHead.BundleFile, have: Int, free: Int?) throws(BundleStoreError) {
        guard file.bytes <= maximumBundleSize else {
            throw .refused(.bundleTooLarge(declared: file.bytes, limit: maximumBundleSize))
        }
        if let free, file.bytes - have > free {
            // ENOSPC: what writing it would have met, and the code an app's report carries.
            var failure = StorageFailure(path: nil, errorNumber: ENOSPC, message: "the bundle needs \(file.bytes - have) more bytes, and the disk has \(free) free")
            failure.isFreeSpaceRefusal = true
            throw .storage(failure)
        }
    }
}
