import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What can be told about a bundle file before SQLite opens it, from the file system and the
/// 100-byte database header (https://www.sqlite.org/fileformat.html#the_database_header).
/// Checked first because opening is not harmless: SQLite creates `-wal` and `-shm` files
/// beside a database in WAL mode, even read-only, and opening a named pipe waits forever.
///
/// Written by hand: SQLite reads a truncated file as if the missing pages were zeros, and
/// offers no call that looks at a file without opening it.
package enum BundleFileCheck {
    /// Why a file cannot be a sound bundle, decided without opening it.
    package enum Failure: Equatable, Sendable {
        /// Nothing is at the path.
        case missing
        /// A folder, a named pipe or a device (`BundleFailure.Code.notAFile`).
        case notAFile(BundleFailure)
        /// Not an SQLite database at all.
        case notSQLite
        /// An SQLite database, but not in a bundle's shape or not whole.
        case damaged(BundleFailure)
    }

    /// The problem with the file at `path`, or nil if its header is a sound bundle's.
    package static func failure(at path: String) -> Failure? {
        // `stat`, not FileManager's attributes: it follows a link to the bundle.
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .notAFile(BundleFailure(.notAFile, "it is a folder; give the bundle file, such as dist/catalog.sqlite"))
        case S_IFIFO: return .notAFile(BundleFailure(.notAFile, "it is a named pipe, not a file"))
        case S_IFSOCK: return .notAFile(BundleFailure(.notAFile, "it is a socket, not a file"))
        default: return .notAFile(BundleFailure(.notAFile, "it is a device, not a file"))
        }
        let size = Int(info.st_size)
        guard let handle = FileHandle(forReadingAtPath: path) else { return .notAFile(BundleFailure(.notAFile, "it cannot be read")) }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        // SQLite looks for the journal beside the file a link leads to.
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return failure(header: header, fileSize: size, journalBeside: (Self.size(at: real + "-journal") ?? 0) > 0)
    }

    /// The size in bytes of the file at `path`, a link followed; nil if there is none.
    package static func size(at path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// The problem a file with this `header` (its first 100 bytes or fewer) and size has.
    static func failure(header: [UInt8], fileSize: Int, journalBeside: Bool) -> Failure? {
        guard header.count >= 16, header[0..<16].elementsEqual("SQLite format 3\u{0}".utf8) else { return .notSQLite }
        guard header.count == 100 else { return .damaged(BundleFailure(.header, "the file ends inside its header")) }
        func number(_ offset: Int, _ count: Int) -> Int {
            header[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        // File format write and read versions: 1 for a rollback journal, 2 for WAL.
        guard number(18, 1) == 1, number(19, 1) == 1 else {
            return .damaged(BundleFailure(.journalMode, "it is in WAL mode; a bundle is in rollback-journal (DELETE) mode and never changes"))
        }
        // A journal with anything in it beside it means a program was changing it and stopped:
        // the next connection that may write would roll the journal back into it.
        guard !journalBeside else {
            return .damaged(BundleFailure(.journal, "a journal file is beside it (\"-journal\"): a program was changing it and stopped; build or copy the bundle again"))
        }
        let pageSize = number(16, 2) == 1 ? 65536 : number(16, 2)
        // The page count in the header is valid when its change counter matches the
        // "version-valid-for" number, as it does in every file SQLite 3.7.0 or later wrote.
        let pageCount = number(28, 4)
        if number(24, 4) == number(92, 4), pageCount > 0, pageSize > 0, pageCount * pageSize != fileSize {
            return .damaged(BundleFailure(.size, "it is \(fileSize) bytes, but its header says \(pageCount * pageSize) (\(pageCount) pages of \(pageSize)): "
                + "the file was cut short or added to, as by an interrupted copy; copy or build it again"))
        }
        return nil
    }
}
