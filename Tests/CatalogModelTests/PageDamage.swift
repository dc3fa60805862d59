import Foundation

/// The damage a failing flash chip leaves in a bundle file, the same on every run: each page
/// zeroed in turn, then 40 pairs of pages swapped, then 200 single bits flipped (past the
/// 100-byte header), chosen by a seeded generator. CatalogModelTests give the copies to the
/// library; BundleCompilerTests, through a symbolic link to this file, to `digno inspect`.
enum PageDamage {
    /// Calls `body` with each damaged copy of `original`, and whether the copy is surely
    /// damaged: a zeroed page is, as every page of a compacted bundle holds data.
    static func forEachCopy(of original: Data, _ body: (_ copy: Data, _ surelyDamaged: Bool) throws -> Void) rethrows {
        // The page size the file's header states (bytes 16 and 17, big-endian).
        let pageSize = Int(original[original.startIndex + 16]) << 8 | Int(original[original.startIndex + 17])
        let pages = original.count / pageSize
        func page(_ index: Int) -> Range<Int> { index * pageSize..<(index + 1) * pageSize }
        var random = SplitMix64(seed: 19)
        for index in 0..<pages {
            var copy = original
            copy.replaceSubrange(page(index), with: Data(count: pageSize))
            try body(copy, true)
        }
        for _ in 0..<40 {
            let a = Int(random.next() % UInt64(pages)), b = Int(random.next() % UInt64(pages))
            var copy = original
            copy.replaceSubrange(page(a), with: original.subdata(in: page(b)))
            copy.replaceSubrange(page(b), with: original.subdata(in: page(a)))
            try body(copy, false)
        }
        for _ in 0..<200 {
            let offset = 100 + Int(random.next() % UInt64(original.count - 100)), bit = UInt8(1) << (random.next() % 8)
            var copy = original
            copy[offset] ^= bit
            try body(copy, false)
        }
    }

    /// SplitMix64 (Steele, Lea and Flood, 2014), as the compiler's generator: written out here so
    /// that CatalogModelTests need no compiler.
    private struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
