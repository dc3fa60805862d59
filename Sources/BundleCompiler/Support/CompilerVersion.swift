import CLibXML2
import CatalogModel
import GRDBSQLite

/// The compiler's version, and the libraries whose versions decide what it accepts and the
/// bundle's bytes, as `digno --version` prints them.
package enum CompilerVersion {
    /// The compiler's own version; a bundle's `generator` names it.
    package static let number = "0.2.0"

    /// Such as `digno 0.2.0 (bundle schema 3, SQLite 3.40.1, libxml2 2.9.14)`, then a line
    /// for the pictures: the libraries that make their renditions, and the settings.
    package static var line: String {
        compilerLine + "\n" + "pictures: \(PictureCodec.libraries); \(RenditionSettings.summary)"
    }

    /// The first line alone, which starts no image library.
    package static var compilerLine: String {
        "digno \(number) (bundle schema \(BundleSchema.version), SQLite \(sqliteVersion), libxml2 \(libxml2Version))"
    }

    /// SQLite's version, `3.40.1`.
    static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// libxml2's version, `2.9.14`: that of the headers it was built with (the runtime's own,
    /// `xmlParserVersion`, is a macro over a function in threaded builds, which Swift cannot
    /// import), which the system's library matches.
    static let libxml2Version = LIBXML_DOTTED_VERSION
}
