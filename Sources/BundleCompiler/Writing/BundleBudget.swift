/// The most bytes each bundle of a release may have, as catalog.xml's `<budget bundle="50 MB"/>`
/// sets it: a build whose bundle would be larger fails and writes nothing (`BuildError.overBudget`).
/// A phone downloads every bundle whole, and the seed bundle ships inside the app.
package struct BundleBudget: Hashable, Sendable {
    /// The limit in bytes.
    package var bytes: Int
    /// The limit as catalog.xml writes it, such as "50 MB".
    package var written: String

    /// The units a size may have, in bytes: decimal, as the App Store counts a download.
    private static let units: [String: Int] = ["": 1, "kB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000]

    /// The budget `text` names: a whole number from 1 and, after a space, kB, MB or GB (the
    /// schema's `ByteSize`); nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let number = Int(parts[0]), number > 0, parts[0].first != "0",
              let unit = Self.units[parts.count == 2 ? String(parts[1]) : ""] else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        self.bytes = bytes
        self.written = text
    }
}
