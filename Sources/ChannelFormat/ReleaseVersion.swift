/// Release versions as `digno build` writes them (year.month.patch), compared part by part as
/// numbers.
package enum ReleaseVersion {
    /// Whether `new` is newer than `current`.
    package static func isNewer(_ new: String, than current: String) -> Bool {
        func parts(_ version: String) -> [Int] { version.split(separator: ".").map { Int($0) ?? 0 } }
        return parts(current).lexicographicallyPrecedes(parts(new))
    }
}
