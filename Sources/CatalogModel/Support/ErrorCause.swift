import Foundation
import GRDB

/// The error that made another fail, kept as a code a program compares and words for a person,
/// rather than flattened into the other's text: `digno publish` refusing a file SQLite calls
/// "not a database" carries `sqlite:26`, a full disk `errno:28`.
///
/// The code names where the failure came from and which it was, stable across releases:
/// - `sqlite:N`: SQLite's extended result code (`sqlite:11` corrupt, `sqlite:26` not a database);
/// - `errno:N`: the system's error number (`errno:2` no such file, `errno:13` permission, `errno:28` disk full);
/// - `bundle:<code>`: a bundle's `BundleFailure.Code` (`bundle:digest`, `bundle:schema`), or
///   `bundle:fileMissing`, `bundle:newerSchema`;
/// - `json:<case>`: a file that does not decode (`json:dataCorrupted`, `json:keyNotFound`, `json:typeMismatch`, `json:valueNotFound`);
/// - `exit:N`, `signal:N`: a program that ended with status N, or was killed (xdelta3);
/// - `http:N`, `network:N` (`URLError.Code`), `timeLimit`, `answer`: a channel's file that could
///   not be fetched (`BundleStoreError`); `vcdiff:<case>`: a delta that does not apply;
/// - `cancelled`: the task was cancelled;
/// - `cocoa:N`, `nserror:<domain>:N`: Foundation's errors with no system error under them;
/// - an error of this package that itself has a cause (``CausedError``) gives its cause's code, and
///   a ``ScreenError`` its bundle error's (`sqlite:11`); any other gives its type, without its
///   module and its `Error` or `Failure`, and its case: `channel:notSigned` (`ChannelError`),
///   `route:notOpened` (``RouteError``), `previewServer:listening`.
public struct ErrorCause: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the failure came from and which it was, as above.
    public let code: String
    /// The failure in words, made from the error.
    public let message: String

    public var description: String { message }

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The system's error `number` (`errno`), with its words (`strerror`).
    public init(errno number: Int32) {
        self.init(code: "errno:\(number)", message: String(cString: strerror(number)))
    }

    /// The cause `error` is.
    public init(_ error: any Error) {
        switch error {
        case let cause as ErrorCause:
            self = cause
        case let caused as any CausedError:
            self.init(code: caused.cause?.code ?? caused.errorCode, message: "\(error)")
        case let screen as ScreenError:
            switch screen {
            case .bundle(let bundle): self.init(code: ErrorCause(bundle).code, message: screen.description)
            case .route(let route): self.init(code: Self.typeAndCase(route), message: screen.description)
            }
        case let bundle as CatalogBundleError:
            switch bundle {
            case .fileMissing: self.init(code: "bundle:fileMissing", message: bundle.description)
            case .newerSchema: self.init(code: "bundle:newerSchema", message: bundle.description)
            case .cancelled: self.init(code: "cancelled", message: bundle.description)
            case .notABundle(_, let failure), .damaged(_, let failure): self.init(code: Self.code(of: failure), message: bundle.description)
            }
        case let failure as BundleFailure:
            self.init(code: Self.code(of: failure), message: failure.message)
        case let database as DatabaseError:
            self.init(code: "sqlite:\(database.extendedResultCode.rawValue)", message: database.message ?? "SQLite error \(database.resultCode.rawValue)")
        case is CancellationError:
            self.init(code: "cancelled", message: "cancelled")
        case let decoding as DecodingError:
            self.init(code: "json:" + Self.caseName(of: decoding), message: Self.words(of: decoding))
        case is EncodingError:
            self.init(code: "json:invalidValue", message: "\(error)")
        case let posix as POSIXError:
            self.init(code: "errno:\(posix.code.rawValue)", message: String(cString: strerror(posix.code.rawValue)))
        default:
            self.init(foundation: error as NSError, typeAndCase: Self.typeAndCase(error), words: "\(error)")
        }
    }

    /// A Foundation error: the system's error number under it when there is one (a file that
    /// cannot be written because the disk is full is `errno:28`, not Cocoa's 640).
    private init(foundation error: NSError, typeAndCase: String, words: String) {
        var current: NSError? = error
        while let found = current {
            if found.domain == NSPOSIXErrorDomain {
                self.init(code: "errno:\(found.code)", message: error.localizedDescription)
                return
            }
            current = found.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        switch error.domain {
        case NSCocoaErrorDomain:
            // Foundation on Linux gives no system error under its file errors: the ones that
            // name one are coded as the system's, so that a code is the same on every platform.
            let number: Int32? = switch CocoaError.Code(rawValue: error.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
            case .fileReadNoPermission, .fileWriteNoPermission: EACCES
            case .fileWriteOutOfSpace: ENOSPC
            case .fileWriteFileExists: EEXIST
            case .fileWriteVolumeReadOnly: EROFS
            default: nil
            }
            self.init(code: number.map { "errno:\($0)" } ?? "cocoa:\(error.code)", message: error.localizedDescription)
        case "NSURLErrorDomain": self.init(code: "nserror:NSURLErrorDomain:\(error.code)", message: error.localizedDescription)
        default:
            // A Swift error bridged: its own words, named by its type and case.
            self.init(code: typeAndCase, message: words)
        }
    }

    private static func code(of failure: BundleFailure) -> String {
        if failure.code == .sqlite, let sqlite = failure.sqliteCode { return "sqlite:\(sqlite)" }
        return "bundle:" + failure.code.rawValue
    }

    /// An error's type as a short code, and its case when it is an enumeration case with values:
    /// `channel:notSigned` for `ChannelFormat.ChannelError.notSigned(keyIDs:)`. The module is left
    /// out (an app never imports ChannelFormat), and so are `Error` at the end of the type's name
    /// and a nested `Failure` or `Error` (`PreviewServer.Failure` is `previewServer`).
    static func typeAndCase(_ error: any Error) -> String {
        var names = String(reflecting: Swift.type(of: error)).split(separator: ".").map(String.init)
        if names.count > 1 { names.removeFirst() }  // the module
        if names.count > 1, ["Failure", "Error"].contains(names.last) { names.removeLast() }
        var name = names.joined(separator: ".")
        if name.hasSuffix("Error"), name.count > 5 { name.removeLast(5) }
        // Lower camel case, an acronym at the start lower-cased whole: `channel`, `bundleStore`,
        // `xliffImport` (for `XLIFFImportError`).
        let characters = Array(name)
        var capitals = characters.prefix { $0.isUppercase }.count
        if capitals > 1, capitals < characters.count { capitals -= 1 }
        let type = String(characters.prefix(max(1, capitals))).lowercased() + String(characters.dropFirst(max(1, capitals)))
        // The case is named when it holds values (a case without any has no child to name it).
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum, let label = mirror.children.first?.label else { return type }
        return type + ":" + label
    }

    private static func caseName(of error: DecodingError) -> String {
        switch error {
        case .dataCorrupted: "dataCorrupted"
        case .keyNotFound: "keyNotFound"
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        @unknown default: "other"
        }
    }

    /// What went wrong in a decoding, and where: `keyNotFound: "sequence" at signed`.
    private static func words(of error: DecodingError) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? context.debugDescription : context.debugDescription + " (at " + path + ")"
        }
        switch error {
        case .dataCorrupted(let context): return at(context)
        case .keyNotFound(let key, let context): return "no \"\(key.stringValue)\": " + at(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return at(context)
        @unknown default: return "\(error)"
        }
    }
}
