import GRDB

/// What release a bundle holds.
public struct ReleaseInfo: Hashable, Sendable, Codable {
    /// The brand, "Café Digno".
    public var brand: String
    /// The release version, such as `2026.11.0`.
    public var releaseVersion: String
    /// The release date.
    public var releaseDate: Day
    /// The bundle's schema version.
    public var schemaVersion: Int
    /// SHA-256 of the content the bundle was built from.
    public var contentDigest: String
    /// The compiler and SQLite version that built it.
    public var generator: String

    /// Release information from its parts, for previews and tests.
    public init(brand: String, releaseVersion: String, releaseDate: Day, schemaVersion: Int, contentDigest: String, generator: String) {
        self.brand = brand
        self.releaseVersion = releaseVersion
        self.releaseDate = releaseDate
        self.schemaVersion = schemaVersion
        self.contentDigest = contentDigest
        self.generator = generator
    }
}

extension ReleaseInfo {
    /// The release a bundle's `bundle_info` states; every entry must be there and be what it
    /// may be.
    package init(_ db: Database, schemaVersion: Int) throws {
        var info: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM bundle_info") {
            info[try row.value("key", as: String.self)] = try row.value("value", as: String.self)
        }
        func entry(_ key: String) throws -> String {
            guard let value = info[key] else { throw BundleValueError("its release information has no \(key)") }
            guard !value.isEmpty else { throw BundleValueError("its release information's \(key) is empty") }
            return value
        }
        let dateText = try entry("release_date"), versionText = try entry("schema_version"), digest = try entry("content_digest")
        guard let date = Day(dateText) else {
            throw BundleValueError("its release date '\(Row.excerpt(dateText))' is not a day (YYYY-MM-DD)")
        }
        guard versionText == String(schemaVersion) else {
            throw BundleValueError("its release information's schema version '\(Row.excerpt(versionText))' is not the file's, \(schemaVersion)")
        }
        guard digest.isSHA256Hex else {
            throw BundleValueError("its content digest '\(Row.excerpt(digest))' is not a SHA-256")
        }
        self.init(brand: try entry("brand"), releaseVersion: try entry("release_version"), releaseDate: date,
                  schemaVersion: schemaVersion, contentDigest: digest, generator: try entry("generator"))
    }
}
