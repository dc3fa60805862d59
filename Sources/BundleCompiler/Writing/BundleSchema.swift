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
    /// The SQL that creates every table.
    public static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)
}
