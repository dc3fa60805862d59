import BundleCompiler
import CatalogContent
import CatalogModel
import Foundation
import Mustache

/// The studio's pages as HTML, through the Mustache templates in `Templates/` (every value
/// escaped by `{{…}}`; only a template's own markup and the rich text this file renders go
/// unescaped).
struct StudioPages: Sendable {
    private let library: MustacheLibrary
    /// The branch checked out in the content's repository, nil when it is in none.
    var branch: @Sendable () -> String? = { nil }

    /// The templates, by the name the renderer asks for.
    private static let templates: [(name: String, text: [UInt8])] = [
        ("studio", PackageResources.studio_mustache), ("overview", PackageResources.overview_mustache),
        ("results", PackageResources.results_mustache), ("form", PackageResources.form_mustache),
        ("unreadable", PackageResources.unreadable_mustache), ("row", PackageResources.row_mustache),
        ("conflict", PackageResources.conflict_mustache), ("new", PackageResources.new_mustache), ("unused", PackageResources.unused_mustache),
        ("translations", PackageResources.translations_mustache), ("git", PackageResources.git_mustache),
    ]

    static var stylesheet: [UInt8] { PackageResources.studio_css }
    static var script: [UInt8] { PackageResources.studio_js }

    /// How many entities of a kind the overview lists a page.
    static let pageSize = 50

    init() throws {
        var library = MustacheLibrary()
        for template in Self.templates { try library.register(String(decoding: template.text, as: UTF8.self), named: template.name) }
        self.library = library
    }

    /// A page of the studio: `content` (HTML) in its frame.
    func page(title: String, content: String, words: StudioWords, token: String) -> String {
        let context: [String: Any] = [
            "language": words.language, "title": title, "studio": words["studio"], "skip": words["skip"], "token": token,
            "languageLabel": words["language"], "content": content, "translationsLabel": words["translations.heading"], "gitLabel": words["git.heading"],
            "languages": StudioWords.languages.map { ["code": $0.code, "name": $0.name, "current": $0.code == words.language] as [String: Any] },
        ]
        var page = context
        // The branch the content is on, on every page, when it is in a repository.
        if let branch = branch() { page["branch"] = words["git.branch"].replacingOccurrences(of: "{branch}", with: branch) }
        return library.render(page, withTemplate: "studio") ?? ""
    }

    // MARK: The overview

    /// One entity as the overview lists it.
    struct Row: Sendable {
        var entity: EntityReference
        var name: String
        /// Lowercased, for the filter.
        var folded: String
        var errors: Int
        var warnings: Int
    }

    /// The overview's lists: each kind's entities whose name or id holds `query`, a page of
    /// `pageSize` each (`pages`, by kind, from 1).
    func results(_ rows: [Row], query: String, pages: [EntityReference.Kind: Int], words: StudioWords) -> String {
        let folded = query.lowercased().trimmingCharacters(in: .whitespaces)
        let kinds: [EntityReference.Kind] = [.product, .recipe, .retailer, .promotion, .section, .home, .company]
        var sections: [[String: Any]] = []
        for kind in kinds {
            let all = rows.filter { $0.entity.kind == kind }
            guard !all.isEmpty else { continue }
            let matching = folded.isEmpty ? all : all.filter { $0.folded.contains(folded) || $0.entity.id.contains(folded) }
            let page = max(1, min(pages[kind] ?? 1, max(1, (matching.count + Self.pageSize - 1) / Self.pageSize)))
            let shown = matching.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
            func href(_ number: Int) -> String {
                var items = [URLQueryItem(name: "page", value: "\(kind.rawValue):\(number)")]
                if !query.isEmpty { items.insert(URLQueryItem(name: "q", value: query), at: 0) }
                var components = URLComponents()
                components.path = "/_studio/"
                components.queryItems = items
                return components.string ?? "/_studio/"
            }
            var section: [String: Any] = [
                "kind": kind.rawValue, "label": words.kind(kind, plural: true),
                "count": folded.isEmpty ? "\(all.count)" : "\(matching.count) / \(all.count)",
                "rows": shown.map { row -> [String: Any] in
                    var values: [String: Any] = ["href": Self.editHref(row.entity), "name": row.name, "id": row.entity.id]
                    if row.errors > 0 { values["errors"] = row.errors == 1 ? words["error.one"] : words.counted("errors", row.errors) }
                    if row.warnings > 0 { values["warnings"] = row.warnings == 1 ? words["warning.one"] : words.counted("warnings", row.warnings) }
                    return values
                },
            ]
            if matching.isEmpty { section["empty"] = true; section["none"] = words["filter.none"] }
            if NewContentFile.kinds.contains(kind) {
                section["newHref"] = "/_studio/new/\(kind.rawValue)"
                section["newLabel"] = words["new.heading"].replacingOccurrences(of: "{kind}", with: words.kind(kind).lowercased())
            }
            if matching.count > Self.pageSize {
                var pagesView: [String: Any] = ["pagesLabel": words["page"].replacingOccurrences(of: " {n}", with: ""), "pageLabel": words.counted("page", page),
                                                "previousLabel": words["previous"], "nextLabel": words["more"]]
                if page > 1 { pagesView["previous"] = href(page - 1) }
                if page * Self.pageSize < matching.count { pagesView["next"] = href(page + 1) }
                section["pages"] = pagesView
            }
            sections.append(section)
        }
        return library.render(["kinds": sections], withTemplate: "results") ?? ""
    }

    func overview(results: String, query: String, report: ValidationReport?, unused: [String], notice: String?, words: StudioWords, token: String) -> String {
        var context: [String: Any] = [
            "heading": words["overview"], "query": query, "filterLabel": words["filter"], "filterButton": words["filter.button"],
            "results": results, "status": Self.status(report, words: words), "statusClass": (report?.errorCount ?? 0) > 0 ? "errors" : "",
        ]
        if let notice { context["notice"] = notice }
        Self.addUnused(unused, back: "/_studio/", to: &context, words: words, token: token)
        return library.render(context, withTemplate: "overview") ?? ""
    }

    /// The git page (`StudioResponder.gitPage`'s context).
    func git(_ context: [String: Any]) -> String {
        library.render(context, withTemplate: "git") ?? ""
    }

    /// The coverage table (`StudioResponder.translationsPage`'s context).
    func translations(_ context: [String: Any]) -> String {
        library.render(context, withTemplate: "translations") ?? ""
    }

    /// The pictures nothing uses, each with a button that removes it (`unused.mustache`).
    static func addUnused(_ unused: [String], back: String, to context: inout [String: Any], words: StudioWords, token: String) {
        guard !unused.isEmpty else { return }
        context["hasUnused"] = true
        context["unusedHeading"] = words["unused.heading"]
        context["unusedNote"] = words["unused.note"]
        context["unused"] = unused.map { ["path": $0, "back": back, "remove": words["unused.remove"], "token": token] }
    }

    /// Whether the content can be released, in a sentence.
    static func status(_ report: ValidationReport?, words: StudioWords) -> String {
        guard let report else { return words["status.unchecked"] }
        let errors = report.errorCount, warnings = report.warningCount
        var status = errors > 0 ? words.counted("status.errors", errors) : words["status.clean"]
        if warnings > 0 { status += " " + words.counted("status.warnings", warnings) }
        return status
    }

    /// Where an entity's form is: `/_studio/edit/product/espresso`, `/_studio/edit/home`.
    static func editHref(_ entity: EntityReference) -> String {
        "/_studio/edit/\(entity.kind.rawValue)" + (entity.id.isEmpty ? "" : "/\(entity.id)")
    }

    // MARK: The form

    /// What the form page shows besides the form's texts.
    struct FormState {
        var notice: String?
        var refusal: String?
        /// Texts changed both in the form and on disk, by key.
        var conflicts: [String: FormSave.Conflict] = [:]
        /// The editor's values to show in place of the file's (after a conflict or refusal).
        var sent = StudioWorkspace.FormValues()
        /// The values the form opened with, by key, where not the file's (a draft restored: the
        /// file as it was when it was typed, so that a save merges what changed since).
        var opened: [String: String] = [:]
        /// When the changes kept and not saved were last typed (`StudioDrafts`), offered back.
        var draftKept: String?
        /// The entity's own pictures that nothing uses now (one it used before a save), offered
        /// for removal.
        var unused: [String] = []
        /// The commits that changed the entity's file, newest first (none outside a repository).
        var history: [StudioGit.Commit] = []
        var canUndo = false
        /// Deleting the entity was refused: the entities that use it are listed with a second
        /// button that removes their references too.
        var deleteRefused = false
    }

    /// What the form's pickers offer: products by name, the pictures under `images/`, and the
    /// targets a link may have.
    struct Choices {
        var products: [(id: String, name: String)] = []
        var recipes: [(id: String, name: String)] = []
        var pictures: [String] = []
        /// Where a small picture of a chosen reference is served: a picture's file, or a product
        /// by its icon (`StudioResponder.thumbnail(list:value:)`).
        var thumbnail: (_ list: String, _ value: String) -> String? = { _, _ in nil }
    }

    /// An entity that uses the one shown, for its "used by" list.
    struct User {
        var entity: EntityReference
        var name: String
    }

    func form(_ form: EntityForm, name: String, path: String, problems: [Diagnostic], state: FormState, previewHref: String,
              choices offered: Choices = Choices(), users: [User] = [], words: StudioWords, token: String) -> String {
        let (byKey, unplaced) = Self.placed(problems, in: form)
        var index = 0
        // `product/espresso`: the entity's part of its routes' addresses.
        let base = Self.editHref(form.entity).replacingOccurrences(of: "/_studio/edit/", with: "")
        let groups = form.groups.map { group -> [String: Any] in
            [
                "label": words.field(group.element, number: group.number),
                "fields": group.fields.map { field -> [String: Any] in
                    index += 1
                    let value = state.sent.texts[field.key] ?? field.value
                    var values: [String: Any] = [
                        "index": index, "key": field.key, "lang": field.languageCode.rawValue, "languageName": words.languageName(field.languageCode),
                        "value": value, "opened": state.conflicts[field.key]?.theirs ?? state.opened[field.key] ?? field.value, "long": field.isLong,
                        "problems": (byKey[field.key] ?? []).map { ["severity": $0.severity.rawValue, "message": $0.message] },
                    ]
                    if field.isRequired { values["required"] = true; values["requiredLabel"] = words["required"] }
                    // A translation not written: what the app shows in its place (the default
                    // language's text), beside it.
                    let chain = form.fallbacks[field.languageCode] ?? form.languages.prefix(1).map { $0 }
                    if field.language != nil, value.isEmpty,
                       let shown = chain.lazy.compactMap({ code in group.fields.first { $0.languageCode == code && !$0.value.isEmpty } }).first {
                        values["fallback"] = shown.rich == nil ? shown.value : ((try? RichTextMarkup.read(shown.value))?.plainText ?? shown.value)
                        values["fallbackLabel"] = words["translation.fallback"]
                        values["fallbackLang"] = shown.languageCode.rawValue
                    }
                    if (byKey[field.key] ?? []).contains(where: { $0.code == .translationOutdated }) { values["outdated"] = words["translation.outdated"] }
                    if let limit = field.limit {
                        values["limit"] = limit
                        values["count"] = "\(value.count) / \(limit)"
                    }
                    if let rich = field.rich {
                        // After a refused save, the editor's text as sent.
                        let shown = state.sent.texts[field.key].flatMap { try? RichTextMarkup.read($0) } ?? rich
                        values["rich"] = Self.html(shown)
                        values["richTools"] = ["p", "h2", "h3", "ul", "ol", "strong", "em"].map { ["command": $0, "label": words["rich.\($0)"]] }
                        values["toolbarLabel"] = words["rich.toolbar"]
                        values["linkLabel"] = words["rich.link"]
                        values["linkTargetLabel"] = words["rich.linkTarget"]
                    }
                    if let conflict = state.conflicts[field.key] {
                        // Formatted text shown as its words, never as its markup.
                        let shown: (String) -> String = field.rich == nil ? { $0 } : { (try? RichTextMarkup.read($0))?.plainText ?? $0 }
                        values["conflict"] = Self.conflictView(conflict, shown: shown, words: words)
                    }
                    return values
                },
            ]
        }
        let lists = form.lists.map { list -> [String: Any] in
            index += 1
            let listIndex = index
            let rows = state.sent.lists[list.key] ?? list.rows
            let codes = list.kind == .sells ? [] : form.languages
            func row(_ row: FormList.Row, _ number: Int) -> [String: Any] {
                if list.kind == .promotions {
                    // A promotion: its title, leading to its own form; moved or removed here.
                    return ["id": "\(listIndex)-\(number)", "key": list.key, "reference": row.reference, "texts": [] as [Any],
                            "fixed": ["href": Self.editHref(EntityReference(.promotion, row.reference)), "title": form.titles[row.reference] ?? row.reference],
                            "up": words["row.up"], "down": words["row.down"], "remove": words["row.remove"]]
                }
                let datalist = list.kind == .pictures ? "pictures-list" : "products-list"
                var view: [String: Any] = [
                    "id": "\(listIndex)-\(number)", "key": list.key, "reference": row.reference,
                    "referenceLabel": words[list.kind == .pictures ? "row.picture" : "row.product"],
                    "datalist": list.kind == .pictures ? "pictures-list" : "products-list",
                    "texts": codes.map { code in
                        ["code": code.rawValue, "languageName": words.languageName(code), "value": row.texts[code.rawValue] ?? "", "id": "\(listIndex)-\(number)-\(code.rawValue)",
                         "key": list.key] as [String: Any]
                    },
                    "up": words["row.up"], "down": words["row.down"], "remove": words["row.remove"],
                ]
                // Mustache takes an empty text for true: the key is there only with a picture.
                if !row.reference.isEmpty, let thumbnail = offered.thumbnail(datalist, row.reference) { view["thumbnail"] = thumbnail }
                return view
            }
            var values: [String: Any] = [
                "key": list.key, "label": words.field(list.key, number: nil), "opened": state.conflicts[list.key]?.theirs ?? state.opened[list.key] ?? list.canonical,
                "rows": rows.enumerated().map { row($1, $0 + 1) },
                "problems": (byKey[list.key] ?? []).map { ["severity": $0.severity.rawValue, "message": $0.message] },
            ]
            if list.kind == .pictures {
                values["upload"] = "/_studio/upload/\(base)?field=\(list.key)"
                values["addsRow"] = true
                values["dropId"] = "l\(listIndex)"
                values["dropLabel"] = words["upload.drop"]
                values["taking"] = words["upload.taking"]
            }
            if list.kind == .promotions {
                values["newHref"] = "/_studio/new/promotion"
                values["newLabel"] = words["new.heading"].replacingOccurrences(of: "{kind}", with: words.kind(.promotion).lowercased())
            } else {
                values["template"] = row(FormList.Row(reference: "", texts: [:]), 0)
                values["add"] = words["row.add"]
            }
            if let conflict = state.conflicts[list.key] {
                values["conflict"] = Self.conflictView(conflict, shown: { Self.shownRows($0) }, words: words)
            }
            return values
        }
        let choices = form.choices.map { choice -> [String: Any] in
            index += 1
            let value = state.sent.choices[choice.key] ?? choice.value
            var values: [String: Any] = [
                "index": index, "key": choice.key, "label": words.field(choice.key, number: nil), "value": value,
                "opened": state.conflicts[choice.key]?.theirs ?? state.opened[choice.key] ?? choice.value,
                "problems": (byKey[choice.key] ?? []).map { ["severity": $0.severity.rawValue, "message": $0.message] },
            ]
            switch choice.kind {
            case .picture, .pictureFile:
                values["datalist"] = "pictures-list"
                values["type"] = "text"
                if choice.kind == .pictureFile { values["label"] = words["choice.pictureFile"] }
                values["upload"] = "/_studio/upload/\(base)?field=\(choice.key)"
                values["dropId"] = "c\(index)"
                values["dropLabel"] = words["upload.drop"]
                values["taking"] = words["upload.taking"]
                if let thumbnail = offered.thumbnail("pictures-list", value) { values["thumbnail"] = thumbnail }
            case .location:
                // Two numbers, which the browser checks as typed and sends with a point.
                let (latitude, longitude) = FormChoice.coordinates(value)
                values["location"] = [
                    "latitude": latitude, "longitude": longitude,
                    "latitudeLabel": words["location.latitude"], "longitudeLabel": words["location.longitude"],
                ]
            case .link: values["datalist"] = "links-list"; values["type"] = "text"
            case .position: values["type"] = "number"; values["min"] = "1"
            case .day:
                // A day as written that is no day stays text, which the browser keeps as it is
                // (a date field would empty it).
                values["type"] = value.isEmpty || Day(value) != nil ? "date" : "text"
            }
            if let conflict = state.conflicts[choice.key] { values["conflict"] = Self.conflictView(conflict, shown: { $0 }, words: words) }
            return values
        }
        let errors = problems.count { $0.severity == .error }
        var context: [String: Any] = [
            "overview": words["overview"], "kindLabel": words.kind(form.entity.kind), "heading": name, "fileLabel": words["file"], "path": path,
            "problemsLabel": words["problems"],
            "release": errors > 0 ? words["release.blocked"] : (problems.isEmpty ? words["problems.none"] : ""),
            "entityProblems": unplaced.map { ["severity": $0.severity.rawValue, "message": $0.message, "code": $0.code.rawValue] },
            "saveAction": "/_studio/save/\(base)", "checkAction": "/_studio/check/\(base)", "undoAction": "/_studio/undo/\(base)",
            "draftAction": "/_studio/draft/\(base)",
            "token": token, "groups": groups, "saveLabel": words["save"], "undoLabel": words["undo"], "canUndo": state.canUndo,
            "previewLabel": words["preview"], "previewTitle": words["preview.title"], "previewHref": previewHref,
            "lists": lists, "choices": choices,
            "products": Self.options(offered, list: "products-list"), "pictures": Self.options(offered, list: "pictures-list"),
            "links": Self.options(offered, list: "links-list"),
        ]
        Self.addUnused(state.unused, back: Self.editHref(form.entity), to: &context, words: words, token: token)
        if !state.history.isEmpty {
            context["historyHeading"] = words["git.history"]
            context["history"] = state.history.map { ["hash": $0.hash, "author": $0.author, "date": $0.date, "subject": $0.subject] }
        }
        if let kept = state.draftKept {
            context["draft"] = [
                "note": words["draft.kept"].replacingOccurrences(of: "{when}", with: kept), "restoreHref": Self.editHref(form.entity) + "?draft=1",
                "restoreLabel": words["draft.restore"], "discardAction": "/_studio/discard-draft/\(base)", "discardLabel": words["draft.discard"],
            ]
        }
        context["usedByLabel"] = words["usedBy"]
        context["usedByNone"] = words["usedBy.none"]
        context["hasUsers"] = !users.isEmpty
        context["usedBy"] = users.map { ["href": Self.editHref($0.entity), "name": $0.name, "kind": words.kind($0.entity.kind)] }
        if NewContentFile.kinds.contains(form.entity.kind) {
            context["hasActions"] = true
            context["actionsLabel"] = words["actions"]
            context["copyAction"] = "/_studio/duplicate/\(base)"
            context["copyIdLabel"] = words["copy.id"]
            context["copyNameLabel"] = words["copy.name"]
            context["copyLabel"] = words["copy"]
            context["canRename"] = true
            context["renameAction"] = "/_studio/rename/\(base)"
            context["renameIdLabel"] = words["rename.id"]
            context["renameLabel"] = words["rename"]
            context["deleteAction"] = "/_studio/delete/\(base)"
            context["deleteLabel"] = words["delete"]
            context["deleteRefused"] = state.deleteRefused
            context["deleteUsedLabel"] = words["delete.used"]
            context["deleteAnywayLabel"] = words["delete.anyway"]
        }
        if let notice = state.notice { context["notice"] = notice }
        if let refusal = state.refusal { context["refusal"] = refusal }
        if !state.conflicts.isEmpty { context["conflictsNote"] = words["conflicts"] }
        return library.render(context, withTemplate: "form") ?? ""
    }

    /// A picker's options: products (by id, named), pictures (by file), or link targets
    /// (`product:…`, `recipe:…`).
    static func options(_ offered: Choices, list: String) -> [[String: String]] {
        switch list {
        case "products-list": offered.products.map { ["value": $0.id, "label": $0.name] }
        case "pictures-list": offered.pictures.map { ["value": $0, "label": $0] }
        default: offered.products.map { ["value": "product:" + $0.id, "label": $0.name] } + offered.recipes.map { ["value": "recipe:" + $0.id, "label": $0.name] }
        }
    }

    /// A datalist's options as HTML, for the page's script to put in place.
    func options(_ offered: Choices, list: String) -> String {
        Self.options(offered, list: list).map { "<option value=\"\(Self.escape($0["value"] ?? ""))\" label=\"\(Self.escape($0["label"] ?? ""))\"></option>" }
            .joined(separator: "\n")
    }

    /// A value changed both in the form and on disk: both, to choose from.
    static func conflictView(_ conflict: FormSave.Conflict, shown: (String) -> String, words: StudioWords) -> [String: Any] {
        [
            "conflictLabel": words["conflict"], "mineLabel": words["conflict.mine"], "theirsLabel": words["conflict.theirs"],
            "mine": shown(conflict.mine), "theirs": shown(conflict.theirs), "theirsValue": conflict.theirs, "key": conflict.key,
        ]
    }

    /// A list's canonical text as a person reads it: each row's reference and words.
    static func shownRows(_ canonical: String) -> String {
        guard let rows = try? JSONDecoder().decode([FormList.Row].self, from: Data(canonical.utf8)) else { return canonical }
        return rows.map { row in ([row.reference] + row.texts.sorted { $0.key < $1.key }.map(\.value)).filter { !$0.isEmpty }.joined(separator: " – ") }
            .joined(separator: "; ")
    }

    /// The page that makes a new entity of `kind`: its name and id.
    func new(_ kind: EntityReference.Kind, name: String, id: String, pictures: [String], refusal: String?, words: StudioWords, token: String) -> String {
        var context: [String: Any] = [
            "iconLabel": words[kind == .retailer ? "field.logo" : "field.icon"], "pictureLabel": words[kind == .promotion ? "field.images" : "new.picture"],
            "hasPicture": kind != .retailer, "hasIcon": kind != .promotion, "isPromotion": kind == .promotion,
            "firstDayLabel": words["field.first-day"], "lastDayLabel": words["field.last-day"],
            "pictures": pictures.map { ["value": $0] },
            "overview": words["overview"], "heading": words["new.heading"].replacingOccurrences(of: "{kind}", with: words.kind(kind).lowercased()),
            "action": "/_studio/create/\(kind.rawValue)", "token": token, "nameLabel": kind == .promotion ? words["field.title"] : words["new.name"], "idLabel": words["new.id"],
            "idHelp": words["new.idHelp"], "create": words["new.create"], "name": name, "id": id,
        ]
        if let refusal { context["refusal"] = refusal }
        return library.render(context, withTemplate: "new") ?? ""
    }

    func unreadable(path: String, reason: String, text: String, words: StudioWords) -> String {
        library.render([
            "overview": words["overview"], "heading": words["unreadable"], "fileLabel": words["file"], "path": path,
            "reason": reason, "advice": words["unreadable.advice"], "text": text,
        ] as [String: Any], withTemplate: "unreadable") ?? ""
    }

    /// The problems of `form`'s entity by the key of the text they are in; the others (the
    /// entity's, a picture's file, the schema's) apart.
    /// The problems a form shows: its entity's, and those of its file that concern no entity
    /// (the schema's: a day that is no day, written by hand).
    static func problems(of entity: EntityReference, in path: String, _ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { $0.entity == entity || ($0.entity == nil && $0.file == path) }
    }

    /// The problems of a picture's file rather than of its words.
    static let pictureFileCodes: Set<DiagnosticCode> = [
        .imageMissing, .imageOutsideRoot, .imageDimensions, .imageTooLarge, .imageDamaged, .imageFormat, .brokenLink, .fileUnreadable,
        .controlCharacter,
    ]

    static func placed(_ problems: [Diagnostic], in form: EntityForm) -> (byKey: [String: [Diagnostic]], unplaced: [Diagnostic]) {
        var byKey: [String: [Diagnostic]] = [:]
        var unplaced: [Diagnostic] = []
        let defaultLanguage = form.fields.first?.languageCode ?? .finnish
        for problem in problems {
            if let field = problem.field {
                // A picture's file that is missing, damaged or of the wrong size: at the file
                // chosen, not at its words.
                if field == .image, Self.pictureFileCodes.contains(problem.code), form.choice("image") != nil {
                    byKey["image", default: []].append(problem)
                    continue
                }
                let key = EntityForm.key(field.translatedField, problem.language ?? defaultLanguage)
                if form.field(key) != nil {
                    byKey[key, default: []].append(problem)
                    continue
                }
                // A line of a list, a picture, a reference or an attribute: at its list or choice.
                let whole: String? = switch field {
                case .ingredient: "ingredients"
                case .picture, .images: "images"
                case .sells: "sells"
                case .icon: "icon"
                case .logo: "logo"
                case .link: "link"
                case .position: "position"
                default: nil
                }
                if let whole, form.list(whole) != nil || form.choice(whole) != nil {
                    byKey[whole, default: []].append(problem)
                    continue
                }
            }
            // The schema's word on an attribute (a day that is no day, a position that is no
            // number): at its choice.
            if problem.code == .schemaInvalid, let written = problem.message.prefixMatch(of: #/the attribute ([a-z-]+) of </#),
               form.choice(String(written.1)) != nil {
                byKey[String(written.1), default: []].append(problem)
                continue
            }
            unplaced.append(problem)
        }
        return (byKey, unplaced)
    }

    /// Rich text as the HTML its editor edits, every word escaped: paragraphs, headings, lists,
    /// bold and italics, and links as marked words (`data-link="product:espresso"`).
    static func html(_ rich: RichText) -> String {
        func inline(_ parts: [RichText.Inline]) -> String {
            parts.map { part -> String in
                switch part {
                case .text(let text): escape(text)
                case .emphasis(let inner): "<em>" + inline(inner) + "</em>"
                case .strong(let inner): "<strong>" + inline(inner) + "</strong>"
                case .link(let target, let inner):
                    "<span class=\"link\" data-link=\"" + escape(Self.linkValue(target)) + "\">" + inline(inner) + "</span>"
                }
            }.joined()
        }
        return rich.blocks.map { block -> String in
            switch block {
            case .paragraph(let parts): "<p>" + inline(parts) + "</p>"
            case .heading(let level, let parts): "<h\(level)>" + inline(parts) + "</h\(level)>"
            case .list(let ordered, let items): (ordered ? "<ol>" : "<ul>") + items.map { "<li>" + inline($0) + "</li>" }.joined() + (ordered ? "</ol>" : "</ul>")
            }
        }.joined()
    }

    /// `product:espresso`, `recipe:latte`: a link's target as the form's pickers name it.
    static func linkValue(_ target: LinkTarget) -> String {
        switch target {
        case .product(let id): "product:" + id.rawValue
        case .recipe(let id): "recipe:" + id.rawValue
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
