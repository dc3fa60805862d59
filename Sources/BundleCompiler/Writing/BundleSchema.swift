import CatalogModel
import Foundation

/// The bundle's schema: `schema.sql` from the repository root, embedded at build time.
package enum BundleSchema {
    /// The schema version written to `PRAGMA user_version`: the one CatalogModel reads, so that
    /// writer and reader cannot disagree.
    package static let version = CatalogBundle.supportedSchemaVersion
    /// Every schema the compiler writes: the newest, and 3 and 2 for apps in the field that read
    /// only them (3: one rendition per picture, as the compiler wrote it before schema 4; 2: the
    /// default language alone too, as before schema 3).
    package static let writableVersions: [Int] = [version, 3, 2]

    /// Where a build writes the bundle of an older `schema` beside the newest one at `output`:
    /// `dist/catalog.schema-2.sqlite` beside `dist/catalog.sqlite` (its manifest
    /// `dist/catalog.schema-2.manifest.json`).
    package static func path(forBundle output: String, schema: Int) -> String {
        let url = URL(fileURLWithPath: output)
        let stem = url.deletingPathExtension().lastPathComponent
        let name = "\(stem).schema-\(schema)" + (url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)")
        let folder = (output as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }
    /// The `PRAGMA application_id` that marks a Café Digno bundle: 'CDBG' in ASCII.
    package static let applicationID = CatalogBundle.applicationID
    /// The name of the bundle format in the manifest.
    package static let format = "cafe-digno-bundle"
    /// The bundle file's page size in bytes: 16 KiB, the memory page size of iOS and of Apple
    /// silicon Macs, where reading any part of a file brings in 16 KiB anyway. A 100,000-entity
    /// bundle is 5 % smaller than with SQLite's default 4 KiB (172 MB, not 182), has a quarter
    /// of the pages for the compiler to copy and check and for a client's first `quick_check`
    /// (0.12 s instead of 0.17 on the development machine), and queries as fast. The cost
    /// is a fixed one: each table and index takes at least a page, so the shipped content's
    /// bundle, mostly such pages, is 0.6 MB instead of 0.2. Set explicitly before `VACUUM
    /// INTO`, because the scratch databases use larger pages still.
    package static let pageSize = 16384
    /// The SQL that creates every table of schema 2: `schema.sql`, which CatalogModel embeds
    /// and checks every bundle it opens against.
    package static let sql = BundleSchemaDefinition.sql
    /// What schema 3 adds: `schema-3.sql`, the languages' tables and search indexes.
    package static let languagesSQL = BundleSchemaDefinition.languagesSQL
    /// What schema 4 adds: `schema-4.sql`, the pictures' renditions.
    package static let renditionsSQL = BundleSchemaDefinition.renditionsSQL
    /// The schema cookie (`PRAGMA schema_version`) of a bundle as the compiler writes it: one
    /// more than the number of statements of its SQL that change the schema, because `VACUUM
    /// INTO` adds one: 24 for schema 2, 15 more for schema 3 (its five tables, and its two
    /// search indexes, each a virtual table and four of its own), and 1 more for schema 4 (its
    /// table). A bundle whose schema was changed after the build, even changed back, has
    /// another; `digno inspect` reports it.
    package static func schemaCookie(version: Int) -> Int {
        version >= 4 ? 40 : version >= 3 ? 39 : 24
    }
}
