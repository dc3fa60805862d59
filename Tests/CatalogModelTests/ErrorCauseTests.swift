import CatalogModel
import Foundation
import GRDB
import Testing

/// `ErrorCause`: an error made from another keeps the other's code, whatever it was.
@Suite struct ErrorCauseTests {
    /// A wrapping error of ours, as the compiler's and the publisher's are.
    enum Wrapper: CausedError, CustomStringConvertible {
        case failed(String, cause: ErrorCause)
        case plain

        var cause: ErrorCause? {
            if case .failed(_, let cause) = self { return cause }
            return nil
        }

        var description: String {
            switch self {
            case .failed(let what, let cause): "\(what): \(cause)"
            case .plain: "plain"
            }
        }
    }

    @Test func eachSourceHasItsCode() throws {
        #expect(ErrorCause(DatabaseError(resultCode: .SQLITE_CORRUPT_INDEX, message: "index broken")).code == "sqlite:779")
        #expect(ErrorCause(DatabaseError(resultCode: .SQLITE_CORRUPT_INDEX, message: "index broken")).message == "index broken")
        #expect(ErrorCause(errno: ENOSPC) == ErrorCause(code: "errno:28", message: String(cString: strerror(ENOSPC))))
        #expect(ErrorCause(POSIXError(.EACCES)).code == "errno:13")
        #expect(ErrorCause(CancellationError()).code == "cancelled")
        #expect(ErrorCause(CatalogBundleError.cancelled).code == "cancelled")
        #expect(ErrorCause(CatalogBundleError.fileMissing(path: "x")).code == "bundle:fileMissing")

        // Foundation's file errors: the system's number under them, on Linux as on Apple's platforms.
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let read = try #require(throws: (any Error).self) { try Data(contentsOf: missing) }
        #expect(ErrorCause(read).code == "errno:2", "\(read)")

        // JSON that does not decode: which way it failed.
        struct Fields: Decodable { var format: Int }
        for (json, code) in [("{}", "json:keyNotFound"), ("{\"format\": \"1\"}", "json:typeMismatch"), ("{\"format\": null}", "json:valueNotFound"), ("[", "json:dataCorrupted")] {
            let error = try #require(throws: (any Error).self) { try JSONDecoder().decode(Fields.self, from: Data(json.utf8)) }
            #expect(ErrorCause(error).code == code, "\(json)")
        }
    }

    /// A screen that could not be read keeps the bundle's own cause: SQLite's code inside it.
    @Test func aScreenErrorKeepsTheCauseInsideIt() {
        let damaged = CatalogBundleError.damaged(path: "catalog.sqlite", reason: BundleFailure(.sqlite, "database disk image is malformed", sqliteCode: 11))
        #expect(ErrorCause(ScreenError.bundle(damaged)).code == "sqlite:11")
        #expect(ErrorCause(ScreenError.bundle(damaged)).message == ScreenError.bundle(damaged).description)
    }

    @Test func aBundleThatDoesNotOpenGivesWhatTheCheckFound() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("error-cause-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: CatalogBundleError.self) { try CatalogBundle(path: path) }
        #expect(ErrorCause(error).code == "bundle:notSQLite")
        #expect(ErrorCause(error).message == error.description)
    }

    @Test func aWrappedCauseKeepsItsCodeAndEveryWrapperItsWords() {
        let root = ErrorCause(DatabaseError(resultCode: .SQLITE_NOTADB, message: "file is not a database"))
        let inner = Wrapper.failed("cannot compare", cause: root)
        let outer = Wrapper.failed("cannot publish", cause: ErrorCause(inner))
        #expect(ErrorCause(outer).code == "sqlite:26")
        #expect(ErrorCause(outer).message == "cannot publish: cannot compare: file is not a database")
        // An error of ours with no cause is named by its type without its module (and its case,
        // when it holds values): `channel:notSigned`, never `ChannelFormat.ChannelError.notSigned`.
        #expect(ErrorCause(Wrapper.plain).code == "errorCauseTests.Wrapper")
        #expect(ErrorCause(RouteError.notInPath(.products, section: .home)).code == "route:notInPath")
        // An acronym at the start lower-cased whole, as Swift names a value.
        #expect(ErrorCause(XLIFFImportError.unreadable(path: "x")).code == "xliffImport:unreadable")
        #expect(ErrorCause(ErrorCause(outer)) == ErrorCause(outer))
    }
}

/// An error of a type whose name starts with an acronym, at the top level as the package's are.
enum XLIFFImportError: Error { case unreadable(path: String) }
