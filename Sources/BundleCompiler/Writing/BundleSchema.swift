import CatalogModel

/// The bundle's schema: `schema.sql` from the repository root, embedded at build time.
public enum BundleSchema {
    /// The schema version written to `PRAGMA user_version`: the one CatalogModel reads, so that
    /// writer and reader cannot disagree.
    public static let version = CatalogBundle.supportedSchemaVersion
    /// The `PRAGMA application_id` that marks a Café Digno bundle: 'CDBG' in ASCII.
    public static let applicationID = CatalogBundle.applicationID
    /// The name of the bundle format in the manifest.
    public static let format = "cafe-digno-bundle"
    /// The bundle file's page size in bytes: SQLite's default, set explicitly because the
    /// scratch database the bundle is copied from uses larger pages.
    public static let pageSize = 4096
    /// The SQL that creates every table.
    public static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)
}
