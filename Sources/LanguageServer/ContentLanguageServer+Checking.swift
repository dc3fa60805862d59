import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import LanguageServerProtocol

/// The server's checks, and the files' texts and paths they and the requests read.
extension ContentLanguageServer {
    // MARK: Checking

    /// Checks the content folder with the open texts in place of their files, and publishes
    /// each file's diagnostics (and an empty list where the last check had some). While the
    /// client watches the files and has told of no change, the folder is not listed again nor
    /// its files stamped (`ContentValidator.folderUnchanged`): a keystroke reads its own text.
    func check() {
        needsCheck = false
        var validator = ContentValidator(contentFolder: contentFolder, today: Day.today())
        validator.makesRenditions = false
        validator.renditionCache = nil
        validator.cache = loadCache
        validator.reportsCoverage = false
        let now = ContinuousClock.now
        validator.folderUnchanged = watchesContent && !folderMayHaveChanged && lastLook.map { now - $0 < Self.lookAgainAfter } == true
        if !validator.folderUnchanged { lastLook = now }
        folderMayHaveChanged = !watchesContent
        for (uri, document) in documents {
            guard let path = relativePath(ofURI: uri) else { continue }
            validator.overlays[path] = Array(document.text.utf8)
        }
        let report: ValidationReport
        do {
            report = try validator.validate()
        } catch {
            let uri = Self.uri(ofPath: contentFolder)
            publish([uri: [DiagnosticItem(range: Range(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)),
                                          severity: 1, code: "content-folder", source: "digno", message: "\(error)")]])
            return
        }
        var byURI: [String: [DiagnosticItem]] = [:]
        var texts: [String: DocumentText] = [:]
        for diagnostic in report.diagnostics {
            let path = diagnostic.file ?? "catalog.xml"
            let uri = Self.uri(ofPath: contentFolder + "/" + path)
            var range = Range(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
            if let line = diagnostic.line {
                let text = texts[path] ?? document(at: path)
                texts[path] = text
                range = text.range(line: line, column: diagnostic.column)
            }
            byURI[uri, default: []].append(DiagnosticItem(range: range, severity: diagnostic.severity == .error ? 1 : 2,
                                                          code: diagnostic.code.rawValue, source: "digno", message: diagnostic.message))
        }
        publish(byURI)
    }

    func publish(_ byURI: [String: [DiagnosticItem]]) {
        for uri in Set(published.keys).union(byURI.keys).sorted() {
            let items = byURI[uri] ?? []
            guard published[uri] != items else { continue }
            send(Notification(method: "textDocument/publishDiagnostics", params: PublishDiagnosticsParams(uri: uri, diagnostics: items)))
            published[uri] = items.isEmpty ? nil : items
        }
    }

    // MARK: Paths and texts

    /// A content file's text: the editor's when it is open, else the file's.
    func document(at path: String) -> DocumentText {
        DocumentText(text(at: path) ?? "")
    }

    func text(at path: String) -> String? {
        if let open = documents[Self.uri(ofPath: contentFolder + "/" + path)] { return open.text }
        guard let data = FileManager.default.contents(atPath: contentFolder + "/" + path), data.count <= 4 * 1024 * 1024 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The path in the content folder of a `file:` URI inside it.
    func relativePath(ofURI uri: String) -> String? {
        guard let path = Self.path(ofURI: uri), path.hasPrefix(contentFolder + "/") else { return nil }
        return String(path.dropFirst(contentFolder.count + 1))
    }

    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }

    static func uri(ofPath path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    /// `text` with the UTF-16 range replaced (an incremental change).
    static func replacing(_ range: Range, in text: String, with replacement: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func offset(_ position: Position) -> Int {
            var utf16 = 0
            for line in lines.prefix(position.line) { utf16 += line.utf16.count + 1 }
            let lineLength = position.line < lines.count ? lines[position.line].utf16.count : 0
            return min(utf16 + min(position.character, lineLength), text.utf16.count)
        }
        let units = Array(text.utf16)
        let start = offset(range.start), end = max(start, offset(range.end))
        return String(decoding: units[..<start], as: UTF16.self) + replacement + String(decoding: units[end...], as: UTF16.self)
    }
}
