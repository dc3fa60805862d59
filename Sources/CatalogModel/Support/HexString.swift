extension Sequence<UInt8> {
    /// Lower-case hexadecimal digits (a SHA-256 as bundles, manifests and channels write it).
    package var hexString: String {
        let bytes = Array(self)
        // Written straight into the string's storage: every file of a build is hashed, and
        // appending digit by digit to an array first took as long as the hashing.
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits.utf8Start[Int(byte >> 4)]
                buffer[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
