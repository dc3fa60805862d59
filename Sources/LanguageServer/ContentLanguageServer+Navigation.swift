import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import LanguageServerProtocol

/// Definition, references, hover, completion and rename: what an editor asks of a place in a
/// content file. References are the attributes `product="…"` and `recipe="…"` (in ingredients,
/// links, `sells`, promotions) and `src="…"`; an entity's own id is its root's `id`.
extension ContentLanguageServer {
    /// What stands at a position: a reference to an entity, an entity's own id, or a picture.
    enum Target {
        case entity(kind: String, id: String, value: DocumentText.AttributeValue)
        case picture(path: String, element: String, value: DocumentText.AttributeValue)
    }

    /// The folder each kind of entity is written in, by the attribute that names it.
    static let folders = ["product": "products", "recipe": "recipes"]

    func target(_ uri: String, _ position: Position) -> (target: Target, path: String)? {
        guard let path = relativePath(ofURI: uri) else { return nil }
        let text = document(at: path)
        guard let value = text.attribute(at: position) else { return nil }
        if Self.folders[value.name] != nil {
            return (.entity(kind: value.name, id: value.value, value: value), path)
        }
        if value.name == "id", position.line < text.lines.count {
            // The root's id: `<product id="espresso"` in products/espresso.xml.
            for (kind, folder) in Self.folders where path.hasPrefix(folder + "/") && text.lines[position.line].contains("<\(kind)") {
                return (.entity(kind: kind, id: value.value, value: value), path)
            }
        }
        if value.name == "src" {
            let line = text.lines[position.line] as NSString
            let before = line.substring(to: min(value.range.start.character, line.length))
            let element = before.range(of: #"<([a-z]+)[^<]*$"#, options: .regularExpression).map { String(before[$0].dropFirst().prefix { $0.isLetter }) } ?? "image"
            return (.picture(path: value.value, element: element, value: value), path)
        }
        return nil
    }

    func definition(_ params: TextDocumentPositionParams) -> [Location] {
        guard let (target, _) = target(params.textDocument.uri, params.position) else { return [] }
        let start = Range(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        switch target {
        case .entity(let kind, let id, _):
            // The entity's file, open in the editor or on disk, read once.
            guard let folder = Self.folders[kind], let contents = text(at: "\(folder)/\(id).xml") else { return [] }
            let file = "\(folder)/\(id).xml"
            let text = DocumentText(contents)
            // At the root element's id, where the entity's file declares it.
            let line = text.lines.firstIndex { $0.contains("<\(kind) ") || $0.contains("<\(kind)>") } ?? 0
            let range = text.attributes(onLine: line).first { $0.name == "id" }?.range ?? start
            return [Location(uri: Self.uri(ofPath: contentFolder + "/" + file), range: range)]
        case .picture(let path, _, _):
            guard FileManager.default.fileExists(atPath: contentFolder + "/" + path) else { return [] }
            return [Location(uri: Self.uri(ofPath: contentFolder + "/" + path), range: start)]
        }
    }

    /// Every place that names the entity at the position: its file's id and each reference.
    func references(_ params: ReferenceParams) -> [Location] {
        guard let (target, _) = target(params.textDocument.uri, params.position), case .entity(let kind, let id, _) = target else { return [] }
        return occurrences(kind: kind, id: id).map { Location(uri: Self.uri(ofPath: contentFolder + "/" + $0.path), range: $0.value.range) }
    }

    /// Each attribute that names the entity, by file: `product="id"` anywhere, and the root's
    /// `id="id"` in the entity's own file.
    func occurrences(kind: String, id: String) -> [(path: String, value: DocumentText.AttributeValue)] {
        guard let folder = Self.folders[kind] else { return [] }
        var found: [(String, DocumentText.AttributeValue)] = []
        for path in contentFiles() {
            let text = document(at: path)
            for line in text.lines.indices {
                for value in text.attributes(onLine: line) where value.value == id {
                    if value.name == kind || (value.name == "id" && path == "\(folder)/\(id).xml" && text.lines[line].contains("<\(kind)")) {
                        found.append((path, value))
                    }
                }
            }
        }
        return found
    }

    /// The content files on disk and open in the editor, by path in the content folder.
    func contentFiles() -> [String] {
        var paths = Set(["catalog.xml", "home.xml", "company.xml"].filter { FileManager.default.fileExists(atPath: contentFolder + "/" + $0) })
        for folder in ["products", "recipes", "retailers"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: contentFolder + "/" + folder)) ?? [] where name.hasSuffix(".xml") && !name.hasPrefix(".") {
                paths.insert(folder + "/" + name)
            }
        }
        for uri in documents.keys { if let path = relativePath(ofURI: uri), path.hasSuffix(".xml") { paths.insert(path) } }
        return paths.sorted()
    }

    func hover(_ params: TextDocumentPositionParams) -> Hover? {
        guard let (target, _) = target(params.textDocument.uri, params.position) else { return markupHover(params) }
        switch target {
        case .entity(let kind, let id, let value):
            guard let (name, summary) = entity(kind: kind, id: id) else {
                return Hover(contents: MarkupContent(value: "No \(kind) has the id `\(id)`."), range: value.range)
            }
            return Hover(contents: MarkupContent(value: "**\(name)** (\(kind) `\(id)`)\n\n\(summary)"), range: value.range)
        case .picture(let path, let element, let value):
            guard let picture = PictureDescription.of(contentFolder: contentFolder, path: path) else {
                return Hover(contents: MarkupContent(value: "No picture the compiler reads is at `\(path)`."), range: value.range)
            }
            return Hover(contents: MarkupContent(value: "`\(path)`: \(picture.summary)\n\nRenditions as `<\(element)>`: \(picture.renditions(forElement: element))"),
                         range: value.range)
        }
    }

    /// What an element's or attribute's name under the position is, from the schema's
    /// documentation (the compiler's copy, as `digno validate` checks it), and for a kind's
    /// field what the description of the fields adds: required, its limit, translated.
    func markupHover(_ params: TextDocumentPositionParams) -> Hover? {
        guard let path = relativePath(ofURI: params.textDocument.uri),
              let (name, range) = XMLContext.name(at: params.position, in: document(at: path)) else { return nil }
        switch name {
        case .element(let element, let parent):
            guard let meaning = ContentSchema.meaning(ofElement: element, in: parent) else { return nil }
            let field = parent.flatMap { EntityReference.Kind.field(element, in: $0) }
            return Hover(contents: MarkupContent(value: "`<\(element)>`\(parent.map { " in `<\($0)>`" } ?? ""): \(Self.explained(meaning, field))"), range: range)
        case .attribute(let attribute, let element):
            guard let meaning = ContentSchema.meaning(ofAttribute: attribute, of: element) else { return nil }
            let field = EntityReference.Kind.field("@" + attribute, in: element)
            return Hover(contents: MarkupContent(value: "`\(attribute)` of `<\(element)>`: \(Self.explained(meaning, field))"), range: range)
        }
    }

    /// The schema's words for a name, and after them the field's facts when it is a kind's field
    /// (a hover's Markdown puts them in a paragraph of their own, a completion's detail after a dash).
    static func explained(_ meaning: String, _ field: FieldDescription?, separator: String = "\n\n") -> String {
        guard let facts = field?.facts, !facts.isEmpty else { return meaning }
        return meaning + separator + facts.joined(separator: " ")
    }

    /// Element and attribute names where the schema allows them: after `<` the elements the
    /// element around may hold, in a start tag the attributes it has not written yet.
    func markupCompletion(_ params: TextDocumentPositionParams, text: DocumentText) -> CompletionList {
        func replacing(_ typed: String) -> LanguageServerProtocol.Range {
            LanguageServerProtocol.Range(start: Position(line: params.position.line, character: max(0, params.position.character - typed.utf16.count)),
                                         end: params.position)
        }
        switch XMLContext.at(params.position, in: text) {
        case .elementName(let typed, let parent?):
            let range = replacing(typed)
            return CompletionList(items: ContentSchema.children(of: parent).filter { $0.name.hasPrefix(typed) }.map { child in
                CompletionItem(label: child.name, kind: 10,
                               detail: child.meaning.map { Self.explained($0, EntityReference.Kind.field(child.name, in: parent), separator: " — ") },
                               textEdit: TextEdit(range: range, newText: child.name))
            })
        case .attributeName(let typed, let element, let present):
            let range = replacing(typed)
            return CompletionList(items: ContentSchema.attributes(of: element).filter { $0.name.hasPrefix(typed) && !present.contains($0.name) }.map { attribute in
                CompletionItem(label: attribute.name, kind: 5,
                               detail: attribute.meaning.map { Self.explained($0, EntityReference.Kind.field("@" + attribute.name, in: element), separator: " — ") },
                               textEdit: TextEdit(range: range, newText: attribute.name))
            })
        case .elementName(_, nil), .other:
            return CompletionList(items: [])
        }
    }

    /// An entity's name and summary, from the last check's catalogue.
    func entity(kind: String, id: String) -> (name: String, summary: String)? {
        guard let catalog else { return nil }
        switch kind {
        case "product": return catalog.products.first { $0.id.rawValue == id }.map { ($0.name, $0.summary) }
        case "recipe": return catalog.recipes.first { $0.id.rawValue == id }.map { ($0.name, $0.summary) }
        default: return nil
        }
    }

    func completion(_ params: TextDocumentPositionParams) -> CompletionList {
        guard let path = relativePath(ofURI: params.textDocument.uri) else { return CompletionList(items: []) }
        let text = document(at: path)
        guard let value = text.attribute(at: params.position) else { return markupCompletion(params, text: text) }
        let edit = { (text: String) in TextEdit(range: value.range, newText: text) }
        switch value.name {
        case "product":
            return CompletionList(items: (catalog?.products ?? []).map {
                CompletionItem(label: $0.id.rawValue, kind: 18, detail: $0.name, textEdit: edit($0.id.rawValue))
            })
        case "recipe":
            return CompletionList(items: (catalog?.recipes ?? []).map {
                CompletionItem(label: $0.id.rawValue, kind: 18, detail: $0.name, textEdit: edit($0.id.rawValue))
            })
        case "src":
            // Those that start as typed; each one's size only for the first few, since it
            // takes reading the file.
            let typed = String(decoding: value.value.utf16.prefix(max(0, params.position.character - value.range.start.character)), as: UTF16.self)
            let matching = pictures().filter { $0.hasPrefix(typed) }
            return CompletionList(items: matching.enumerated().map { index, picture in
                CompletionItem(label: picture, kind: 17,
                               detail: index < Self.describedPictures ? PictureDescription.of(contentFolder: contentFolder, path: picture)?.summary : nil,
                               textEdit: edit(picture))
            })
        case "xml:lang":
            let declared = catalog?.languages.declarations.map(\.code.rawValue) ?? []
            return CompletionList(items: declared.dropFirst().map { CompletionItem(label: $0, kind: 12, detail: "a declared language", textEdit: edit($0)) })
        default:
            return CompletionList(items: [])
        }
    }

    /// How many pictures a completion describes (size and format), at most.
    static let describedPictures = 50

    /// Every file under images/, by path in the content folder (hidden ones left out).
    func pictures() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: contentFolder + "/images") else { return [] }
        var found: [String] = []
        while let next = walker.nextObject() as? String {
            if next.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: contentFolder + "/images/" + next, isDirectory: &isFolder), !isFolder.boolValue {
                found.append("images/" + next)
            }
            if found.count >= 10_000 { break }
        }
        return found.sorted()
    }

    /// Renames a product's or recipe's id: its file, its root's id and every reference, as one
    /// workspace edit the editor applies (the server writes nothing).
    func rename(_ params: RenameParams) throws -> WorkspaceEdit {
        guard let (target, _) = target(params.textDocument.uri, params.position), case .entity(let kind, let id, _) = target,
              let folder = Self.folders[kind] else {
            throw ResponseError(code: ResponseError.requestFailed, message: "only a product's or a recipe's id can be renamed here")
        }
        let newID = params.newName
        guard isValidSlug(newID) else {
            throw ResponseError(code: ResponseError.requestFailed,
                                message: "'\(newID)' is not a valid id: lower-case letters, digits and single hyphens, at most 64 characters")
        }
        let oldFile = "\(contentFolder)/\(folder)/\(id).xml", newFile = "\(contentFolder)/\(folder)/\(newID).xml"
        guard FileManager.default.fileExists(atPath: oldFile) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "no \(kind) has the id '\(id)'")
        }
        guard !FileManager.default.fileExists(atPath: newFile) else {
            throw ResponseError(code: ResponseError.requestFailed, message: "\(folder)/\(newID).xml exists already")
        }
        var byPath: [String: [TextEdit]] = [:]
        for (path, value) in occurrences(kind: kind, id: id) { byPath[path, default: []].append(TextEdit(range: value.range, newText: newID)) }
        var changes: [DocumentChange] = byPath.keys.sorted().map { path in
            let uri = Self.uri(ofPath: contentFolder + "/" + path)
            return .edit(TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri, version: documents[uri]?.version),
                                          edits: byPath[path] ?? []))
        }
        changes.append(.rename(RenameFile(oldUri: Self.uri(ofPath: oldFile), newUri: Self.uri(ofPath: newFile))))
        return WorkspaceEdit(documentChanges: changes)
    }

    /// Quick fixes for the diagnostics that carry a suggestion: "did you mean 'x'" (an id, a
    /// picture's path) replaces the value it was said of; a misspelled tag's name and a day
    /// written the Finnish way are written as meant (`textFix`); a bare `&` becomes `&amp;`.
    func codeActions(_ params: CodeActionParams) -> [CodeAction] {
        guard let path = relativePath(ofURI: params.textDocument.uri) else { return [] }
        let text = document(at: path)
        let uri = params.textDocument.uri
        let version = documents[uri]?.version
        var actions: [CodeAction] = []
        for diagnostic in params.context.diagnostics where diagnostic.source == "digno" {
            let line = diagnostic.range.start.line
            if let suggestion = Self.quoted(after: "did you mean '", in: diagnostic.message),
               let wrong = Self.quoted(after: "'", in: diagnostic.message),
               let value = text.attributes(onLine: line).first(where: { $0.value == wrong && $0.range.start.character >= diagnostic.range.start.character }) {
                let edit = TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri, version: version),
                                            edits: [TextEdit(range: value.range, newText: suggestion)])
                actions.append(CodeAction(title: "Write '\(suggestion)'", diagnostics: [diagnostic], isPreferred: true,
                                          edit: WorkspaceEdit(documentChanges: [.edit(edit)])))
            } else if let fix = Self.textFix(for: diagnostic.message, at: line, in: text) {
                let edit = TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri, version: version),
                                            edits: [TextEdit(range: fix.range, newText: fix.text)])
                actions.append(CodeAction(title: fix.title, diagnostics: [diagnostic], isPreferred: true,
                                          edit: WorkspaceEdit(documentChanges: [.edit(edit)])))
            } else if diagnostic.message.contains("write '&' in text as &amp;"), line < text.lines.count {
                let at = diagnostic.range.start.character
                let units = Array(text.lines[line].utf16)
                guard at < units.count, units[at] == UInt16(UInt8(ascii: "&")) else { continue }
                let position = Position(line: line, character: at + 1)
                let edit = TextDocumentEdit(textDocument: OptionalVersionedTextDocumentIdentifier(uri: uri, version: version),
                                            edits: [TextEdit(range: Range(start: position, end: position), newText: "amp;")])
                actions.append(CodeAction(title: "Write '&' as &amp;", diagnostics: [diagnostic], isPreferred: true,
                                          edit: WorkspaceEdit(documentChanges: [.edit(edit)])))
            }
        }
        return actions
    }

    /// The fix a message makes certain, found in the text: a misspelled tag's name (`<sumary>`
    /// opened on line 3, or `</sumary>` here) written as the element's; an id that differs from
    /// the file's name written as it; a day written the Finnish way written as the format wants.
    static func textFix(for message: String, at line: Int, in text: DocumentText) -> (title: String, range: Range, text: String)? {
        // "<sumary> (opened on line 3) is misspelled: … write <summary>", "</sumary> is misspelled: … write </summary>"
        if message.contains(" is misspelled: "), let wrong = message.firstMatch(of: /^<(\/?)([^>\s]+)>/),
           let right = message.firstMatch(of: /; write <\/?([^>\s]+)>$/) {
            let closing = !wrong.1.isEmpty
            let onLine = closing ? line : (message.firstMatch(of: /opened on line (\d+)/).flatMap { Int($0.1) }.map { $0 - 1 } ?? line)
            let tag = (closing ? "</" : "<") + wrong.2
            guard let found = Self.find(tag, onLine: onLine, in: text) else { return nil }
            let start = found + (closing ? 2 : 1)
            return ("Write \(closing ? "</" : "<")\(right.1)>",
                    Range(start: Position(line: onLine, character: start), end: Position(line: onLine, character: start + wrong.2.utf16.count)), String(right.1))
        }
        // "id 'latte' differs from the file name; set id="cafe-latte", or rename …"
        if let match = message.firstMatch(of: /^id '([^']*)' differs from the file name; set id="([^"]+)"/),
           let value = text.attributes(onLine: line).first(where: { $0.name == "id" && $0.value == String(match.1) }) {
            return ("Write id=\"\(match.2)\"", value.range, String(match.2))
        }
        // "… holds '1.12.2026', a day written the Finnish way; … YYYY-MM-DD: 2026-12-01"
        if message.contains("a day written the Finnish way"), let wrong = quoted(after: "'", in: message),
           let right = message.firstMatch(of: /YYYY-MM-DD: (\d{4}-\d{2}-\d{2})$/),
           let value = text.attributes(onLine: line).first(where: { $0.value == wrong }) {
            return ("Write \(right.1)", value.range, String(right.1))
        }
        return nil
    }

    /// Where `tag` (`<sumary`, `</sumary`) begins on `line`, in UTF-16 units, where the name ends
    /// after it (a space, `>` or `/`).
    static func find(_ tag: String, onLine line: Int, in text: DocumentText) -> Int? {
        guard line >= 0, line < text.lines.count else { return nil }
        let units = Array(text.lines[line].utf16), needle = Array(tag.utf16)
        guard needle.count <= units.count else { return nil }
        for start in 0...(units.count - needle.count) where Array(units[start..<(start + needle.count)]) == needle {
            let after = start + needle.count
            if after == units.count || [UInt16(UInt8(ascii: ">")), UInt16(UInt8(ascii: " ")), UInt16(UInt8(ascii: "/")), UInt16(UInt8(ascii: "\t"))].contains(units[after]) {
                return start
            }
        }
        return nil
    }

    /// The text between `marker` and the next `'` in `message`.
    static func quoted(after marker: String, in message: String) -> String? {
        guard let start = message.range(of: marker)?.upperBound, let end = message[start...].firstIndex(of: "'") else { return nil }
        return String(message[start..<end])
    }
}
