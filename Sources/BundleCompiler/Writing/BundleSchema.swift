/// The bundle's schema: `schema.sql` from the repository root, embedded at build time.
public enum BundleSchema {
    /// The schema version written to `PRAGMA user_version`; a client refuses a newer one.
    public static let version = 1
    /// The `PRAGMA application_id` that marks a Café Digno bundle: 'CDBG' in ASCII.
    public static let applicationID: Int32 = 0x4344_4247
    /// The name of the bundle format in the manifest.
    public static let format = "cafe-digno-bundle"
    /// The SQL that creates every table.
    public static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)
}
