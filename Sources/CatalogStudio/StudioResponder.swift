import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogPreview
import CatalogSite
import FlyingFox
import Foundation

/// Answers the studio's requests, under `/_studio/`, before the preview answers the rest (the
/// app's screens the forms show beside them). Reading is GET; every write (a save, an undo) and
/// every check of a form is a POST that must come from the studio's own pages: its `Origin` is
/// this server, and it carries the session's token (a form's `token`, or `X-Studio-Token`),
/// which only the studio's pages hold. The Host was checked before (`PreviewResponder`).
struct StudioResponder: PreviewAddition {
    let workspace: StudioWorkspace
    let pages: StudioPages
    /// The session's token, made by the command (random): a page of another site cannot know it.
    let token: String
    /// The forms changed and not saved, kept as they are typed.
    let drafts: StudioDrafts
    /// The folder photos uploaded are written into as they arrive (the studio's own, removed
    /// when it stops).
    let spool: String
    /// Whether a photo is being taken in (one at a time).
    let intake = LockedValue(false)
    /// The content folder's git repository.
    let git: StudioGit
    /// The entities a pull's merge waits for the editor to choose in, each with the editor's
    /// values and their common commit's (`pull`).
    let merging = LockedValue<[EntityReference: PendingMerge]>([:])
    /// The stand-ins of the last pictures taken in, by path, newest last.
    let standIns = LockedValue<[(path: String, bytes: [UInt8], type: String)]>([])

    /// The longest form a save or check sends: a few hundred KiB (a recipe's every text in three
    /// languages is under 20 KiB).
    static let formLimit = 512 * 1024

    func bodyLimit(_ method: HTTPMethod, _ path: String) -> Int {
        guard method == .POST, path.hasPrefix("/_studio/") else { return IncomingRequest.bodyLimit }
        if path == "/_studio/translations/import" { return ReturnedXLIFF.maxFileSize }
        return path.hasPrefix("/_studio/upload/") ? PictureIntake.fileLimit : Self.formLimit
    }

    func respond(to request: HTTPRequest, body: [UInt8], port: UInt16) async -> HTTPResponse? {
        let path = request.target.path(percentEncoded: true)
        guard path == "/_studio" || path.hasPrefix("/_studio/") else { return nil }
        let words = Self.words(for: request)
        switch (request.method, path) {
        case (.GET, "/_studio"): return Self.redirect("/_studio/")
        case (.GET, "/_studio/studio.css"): return Self.file(StudioPages.stylesheet, type: "text/css; charset=utf-8")
        case (.GET, "/_studio/studio.js"): return Self.file(StudioPages.script, type: "text/javascript; charset=utf-8")
        case (.GET, "/_studio/"): return overview(request, words: words)
        case (.GET, "/_studio/results"): return Self.html(results(request, words: words), status: .ok, words: words, request: request)
        case (.GET, "/_studio/stand-in"): return standIn(request)
        case (.GET, "/_studio/translations"): return translationsPage(request, words: words)
        case (.GET, "/_studio/git"): return gitPage(request, words: words)
        case (.GET, _) where path.hasPrefix("/_studio/translations/") && path.hasSuffix(".xlf"):
            return exportTranslations(String(path.dropFirst("/_studio/translations/".count).dropLast(4)), request)
        case (.POST, "/_studio/translations/import"):
            if let refusal = uploadRefusal(request.headers, types: Self.xliffTypes) { return PreviewResponder.refusal(refusal.status, refusal.message) }
            return importTranslations(request, words: words)
        case (.GET, "/_studio/picture-bytes"): return pictureBytes(request, words: words)
        case (.POST, _) where path.hasPrefix("/_studio/upload/"):
            // Its Origin, token and type were checked before its body was read (`spoolFolder`).
            if let refusal = uploadRefusal(request.headers) { return PreviewResponder.refusal(refusal.status, refusal.message) }
            guard let entity = Self.entity(path.dropFirst("/_studio/upload/".count)) else { return notFound(words) }
            return upload(entity, request: request, words: words)
        case (.GET, "/_studio/thumbnail"):
            let value = request.query.first { $0.name == "value" }?.value ?? "", list = request.query.first { $0.name == "list" }?.value ?? ""
            guard let address = Self.thumbnail(list: list, value: value, report: workspace.report) else {
                return PreviewResponder.refusal(.notFound, "no picture for that")
            }
            return Self.redirect(address)
        case (.GET, "/_studio/suggest"):
            let query = String((request.query.first { $0.name == "q" }?.value ?? "").prefix(200))
            let list = request.query.first { $0.name == "list" }?.value ?? ""
            guard ["products-list", "pictures-list", "links-list"].contains(list) else { return notFound(words) }
            return Self.html(pages.options(suggestions(query: query, limit: Self.suggestionLimit), list: list), status: .ok, words: words, request: request)
        case (.GET, _) where path.hasPrefix("/_studio/new/"):
            guard let kind = EntityReference.Kind(rawValue: String(path.dropFirst("/_studio/new/".count))), NewContentFile.kinds.contains(kind) || kind == .promotion else {
                return notFound(words)
            }
            return newPage(kind, name: "", id: "", refusal: nil, request: request, words: words, status: .ok)
        case (.GET, _) where path.hasPrefix("/_studio/edit/"):
            guard let entity = Self.entity(path.dropFirst("/_studio/edit/".count)) else { return notFound(words) }
            return form(entity, request: request, state: Self.state(from: request, words: words), words: words, offeringDraft: true)
        case (.POST, _):
            if let refusal = refusal(of: request, body: body, port: port) { return refusal }
            let fields = Self.formFields(body)
            if path == "/_studio/remove-picture" { return removePicture(fields, request, words) }
            if path.hasPrefix("/_studio/git/") { return gitAction(String(path.dropFirst("/_studio/git/".count)), fields, request, words) }
            if path.hasPrefix("/_studio/create/") {
                guard let kind = EntityReference.Kind(rawValue: String(path.dropFirst("/_studio/create/".count))), NewContentFile.kinds.contains(kind) || kind == .promotion else {
                    return notFound(words)
                }
                return create(kind, fields, request, words)
            }
            for (prefix, action) in [("/_studio/save/", save), ("/_studio/check/", check), ("/_studio/undo/", undo), ("/_studio/duplicate/", duplicate),
                                     ("/_studio/rename/", rename), ("/_studio/delete/", delete), ("/_studio/draft/", keepDraft),
                                     ("/_studio/discard-draft/", discardDraft)] where path.hasPrefix(prefix) {
                guard let entity = Self.entity(path.dropFirst(prefix.count)) else { return notFound(words) }
                return action(entity, fields, request, words)
            }
            return notFound(words)
        case (.GET, _), (.HEAD, _): return notFound(words)
        default:
            return PreviewResponder.refusal(.methodNotAllowed, "the studio answers GET and, from its own pages, POST", extra: [HTTPHeader("Allow"): "GET, POST"])
        }
    }

    // MARK: Pages

    private func overview(_ request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        let query = request.query.first { $0.name == "q" }?.value ?? ""
        let removed = request.query.first { $0.name == "removed" }?.value
        let content = pages.overview(results: results(request, words: words), query: query, report: workspace.report, unused: workspace.unusedPictures(),
                                     notice: removed.map { words["unused.removed"].replacingOccurrences(of: "{path}", with: $0) }, words: words, token: token)
        return Self.html(pages.page(title: words["overview"], content: content, words: words, token: token), status: .ok, words: words, request: request)
    }

    /// The overview's lists for the request's `q` and `page` (`product:2`).
    private func results(_ request: HTTPRequest, words: StudioWords) -> String {
        let query = String((request.query.first { $0.name == "q" }?.value ?? "").prefix(200))
        var numbers: [EntityReference.Kind: Int] = [:]
        for item in request.query where item.name == "page" {
            let parts = item.value.split(separator: ":")
            if parts.count == 2, let kind = EntityReference.Kind(rawValue: String(parts[0])), let number = Int(parts[1]) { numbers[kind] = number }
        }
        return pages.results(rows(words: words), query: query, pages: numbers, words: words)
    }

    /// Every entity of the last check, with its problems counted.
    private func rows(words: StudioWords) -> [StudioPages.Row] {
        guard let report = workspace.report, let catalog = report.catalog else { return [] }
        var counts: [EntityReference: (errors: Int, warnings: Int)] = [:]
        for diagnostic in report.diagnostics {
            guard let entity = diagnostic.entity else { continue }
            if diagnostic.severity == .error { counts[entity, default: (0, 0)].errors += 1 } else { counts[entity, default: (0, 0)].warnings += 1 }
        }
        var rows: [StudioPages.Row] = []
        catalog.forEachEntity { reference, entity in
            let name = Self.name(of: reference, entity, words: words)
            let count = counts[reference] ?? (0, 0)
            rows.append(StudioPages.Row(entity: reference, name: name, folded: name.lowercased(), errors: count.errors, warnings: count.warnings))
        }
        return rows
    }

    /// What an entity is called: its name or title in the default language; the home by its kind.
    static func name(of reference: EntityReference, _ entity: any ContentEntity, words: StudioWords) -> String {
        switch entity {
        case let product as Product: product.name
        case let recipe as Recipe: recipe.name
        case let retailer as Retailer: retailer.name
        case let company as Company: company.name
        case let section as Section: section.title
        case let promotion as Promotion: promotion.title
        default: words.kind(reference.kind)
        }
    }

    /// The form of `entity`; `offeringDraft`: opened anew (not after a save refused), so that
    /// the changes kept and not saved are offered back (`?draft=1`: shown in it).
    private func form(_ entity: EntityReference, request: HTTPRequest, state: StudioPages.FormState, words: StudioWords,
                      status: HTTPStatusCode = .ok, offeringDraft: Bool = false) -> HTTPResponse {
        switch workspace.read(entity) {
        case .missing(let path):
            return Self.html(pages.page(title: words["missing"], content: pages.unreadable(path: path ?? entity.description, reason: words["missing"], text: "", words: words),
                                        words: words, token: token), status: .notFound, words: words, request: request)
        case .unreadable(let path, let reason, let text):
            // A save refused for it is 422; the page alone, 200.
            return Self.html(pages.page(title: words["unreadable"], content: pages.unreadable(path: path, reason: reason, text: text, words: words),
                                        words: words, token: token), status: status, words: words, request: request)
        case .form(let form, let path, _):
            let problems = StudioPages.problems(of: entity, in: path, workspace.report?.diagnostics ?? [])
            let name = form.fields.first { $0.path == .name || $0.path == .title }?.value ?? words.kind(entity.kind)
            var state = state
            state.canUndo = workspace.canUndo(entity)
            state.unused = workspace.unusedPictures(of: entity)
            state.history = git.history(of: path)
            if offeringDraft { state = opening(state, of: entity, form: form, request: request, words: words) }
            let previewHref = SiteLinks(style: .server).path(of: PreviewBuilder.screen(showing: entity))
            // The first few of each list; the page's script asks for those matching what is typed
            // (`/_studio/suggest`), so that a form at 10,000 entities stays small.
            var offered = suggestions(query: "", limit: Self.suggestionLimit)
            let report = workspace.report
            offered.thumbnail = { list, value in Self.thumbnail(list: list, value: value, report: report) }
            var users: [StudioPages.User] = []
            if let catalog = workspace.report?.catalog {
                let using = Set(ReferenceEdit.users(of: entity, in: catalog))
                catalog.forEachEntity { reference, value in
                    if using.contains(reference) { users.append(StudioPages.User(entity: reference, name: Self.name(of: reference, value, words: words))) }
                }
            }
            let content = pages.form(form, name: name.isEmpty ? entity.id : name, path: path, problems: problems, state: state, previewHref: previewHref,
                                     choices: offered, users: users, words: words, token: token)
            return Self.html(pages.page(title: name, content: content, words: words, token: token), status: status, words: words, request: request)
        }
    }

    /// What the page after a save says, from its address (`?saved=1&merged=2`, `?undone=1`).
    private static func state(from request: HTTPRequest, words: StudioWords) -> StudioPages.FormState {
        var state = StudioPages.FormState()
        let value = { (name: String) in request.query.first { $0.name == name }?.value }
        if let merged = value("merged").flatMap(Int.init), merged > 0 {
            state.notice = words.counted("saved.merged", merged)
        } else if value("saved") == "1" {
            state.notice = words["saved"]
        } else if value("saved") == "0" {
            state.notice = words["saved.unchanged"]
        } else if value("undone") == "1" {
            state.notice = words["undone"]
        }
        if let others = value("others").flatMap(Int.init), others > 0 { state.notice = words.counted("renamed.others", others) }
        if let removed = value("removed") { state.notice = words["unused.removed"].replacingOccurrences(of: "{path}", with: removed) }
        return state
    }

    func notFound(_ words: StudioWords) -> HTTPResponse {
        PreviewResponder.refusal(.notFound, "the studio has no page at this address")
    }

    // MARK: Writes

    private func save(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let (sent, opened) = Self.values(fields)
        let outcome = workspace.save(entity, sent: sent, opened: opened)
        switch outcome {
        case .saved, .unchanged:
            drafts.discard(entity)
            // The last a pull waited for: the merge is finished, and said on the git page.
            switch concludeMerge(after: entity) {
            case .success(let hash): return Self.redirect("/_studio/git?done=merge&what=" + Self.queryValue(hash))
            case .failure(let failure): return gitPage(request, words: words, refusal: failure.words)
            case nil: break
            }
        case .conflicts, .refused: break
        }
        return answer(outcome, entity, sent: sent, request: request, words: words, done: "saved")
    }

    /// A form opened anew: what a pull's merge left to choose in it, else the changes kept and
    /// not saved (`StudioDrafts`) offered back, or with `?draft=1` put back.
    private func opening(_ state: StudioPages.FormState, of entity: EntityReference, form: EntityForm, request: HTTPRequest,
                         words: StudioWords) -> StudioPages.FormState {
        var state = state
        if let merge = mergeState(of: entity, form: form, words: words) {
            state.conflicts = merge.conflicts
            state.sent = merge.sent
            state.opened = merge.opened
            state.notice = merge.notice
        } else if let draft = drafts.draft(of: entity) {
            let (sent, opened) = Self.changes(draft.fields)
            if !Self.unsaved(sent, in: form) {
                drafts.discard(entity)
            } else if request.query.contains(where: { $0.name == "draft" && $0.value == "1" }) {
                // What was typed, against the file as it was then, so that a save merges what
                // changed on disk since; the other fields as the file has them now.
                state.sent = sent
                state.opened = opened
                state.notice = words["draft.restored"]
            } else {
                state.draftKept = words.moment(draft.kept)
            }
        }
        return state
    }

    /// Keeps the form as its page sent it (as typed, and as the page is left), unless it holds
    /// what the file does (204).
    private func keepDraft(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        guard case .form(let form, _, _) = workspace.read(entity) else { return notFound(words) }
        let kept = fields.filter { $0.0 != "token" }
        if Self.unsaved(Self.changes(kept).sent, in: form) { drafts.keep(kept, of: entity) } else { drafts.discard(entity) }
        return HTTPResponse(statusCode: .noContent, headers: HTTPHeaders(Self.headers.merging([.cacheControl: "no-store"]) { $1 }))
    }

    private func discardDraft(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        drafts.discard(entity)
        return Self.redirect(StudioPages.editHref(entity))
    }

    /// What a form sent that differs from what it opened with (`values`), and those values as
    /// opened.
    static func changes(_ fields: [(String, String)]) -> (sent: StudioWorkspace.FormValues, opened: [String: String]) {
        let (all, opened) = values(fields)
        var changed = StudioWorkspace.FormValues()
        changed.texts = all.texts.filter { opened[$0.key] != $0.value }
        changed.lists = all.lists.filter { opened[$0.key] != FormList.canonical($0.value) }
        changed.choices = all.choices.filter { opened[$0.key] != $0.value }
        let keys = Set(changed.texts.keys).union(changed.lists.keys).union(changed.choices.keys)
        return (changed, opened.filter { keys.contains($0.key) })
    }

    /// Whether `sent` holds a value other than the form's: a text, a list or a choice (one the
    /// form no longer has is not counted).
    static func unsaved(_ sent: StudioWorkspace.FormValues, in form: EntityForm) -> Bool {
        sent.texts.contains { key, value in form.field(key).map { $0.value != value } ?? false }
            || sent.lists.contains { key, rows in form.list(key).map { $0.canonical != FormList.canonical(rows) } ?? false }
            || sent.choices.contains { key, value in form.choice(key).map { $0.value != value } ?? false }
    }

    private func undo(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        guard let outcome = workspace.undo(entity) else { return Self.redirect(StudioPages.editHref(entity)) }
        return answer(outcome, entity, sent: StudioWorkspace.FormValues(), request: request, words: words, done: "undone")
    }

    /// The page after a save: the form again (303, so that a reload does not send it twice), or
    /// with the conflicts to choose from (409) or the refusal (422), the editor's texts kept.
    private func answer(_ outcome: StudioWorkspace.SaveOutcome, _ entity: EntityReference, sent: StudioWorkspace.FormValues, request: HTTPRequest,
                        words: StudioWords, done: String) -> HTTPResponse {
        let href = StudioPages.editHref(entity)
        switch outcome {
        case .saved(_, let merged): return Self.redirect(href + "?\(done)=1" + (merged > 0 ? "&merged=\(merged)" : ""))
        case .unchanged: return Self.redirect(href + (done == "saved" ? "?saved=0" : "?undone=1"))
        case .conflicts(let conflicts):
            var state = StudioPages.FormState()
            state.conflicts = Dictionary(conflicts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            state.sent = sent
            return form(entity, request: request, state: state, words: words, status: .conflict)
        case .refused(let reason):
            var state = StudioPages.FormState()
            state.refusal = reason
            state.sent = sent
            return form(entity, request: request, state: state, words: words, status: .unprocessableContent)
        }
    }

    /// Where the preview serves a small picture of a picker's value: a picture's file's smallest
    /// rendition, or a product's icon's; nil when the last check rendered none.
    static func thumbnail(list: String, value: String, report: ValidationReport?) -> String? {
        guard let report else { return nil }
        switch list {
        case "pictures-list": return report.thumbnailAddress(of: value)
        case "products-list":
            guard let product = report.catalog?.products.first(where: { $0.id.rawValue == value }) else { return nil }
            return report.thumbnailAddress(of: product.icon.source)
        default: return nil
        }
    }

    /// How many suggestions a picker offers at once.
    static let suggestionLimit = 50

    /// The products, recipes and pictures whose name, id or file holds `query` (any case), the
    /// first `limit` of each, in the catalogue's order.
    func suggestions(query: String, limit: Int) -> StudioPages.Choices {
        let folded = query.lowercased()
        func matches(_ id: String, _ name: String) -> Bool { folded.isEmpty || id.contains(folded) || name.lowercased().contains(folded) }
        var offered = StudioPages.Choices()
        // "product:esp" asks for products only.
        let (kind, words) = folded.hasPrefix("product:") ? ("product", String(folded.dropFirst(8)))
            : folded.hasPrefix("recipe:") ? ("recipe", String(folded.dropFirst(7))) : ("", folded)
        func matching(_ id: String, _ name: String) -> Bool { words.isEmpty || id.contains(words) || name.lowercased().contains(words) }
        if let catalog = workspace.report?.catalog {
            if kind != "recipe" {
                for product in catalog.products where matching(product.id.rawValue, product.name) {
                    offered.products.append((product.id.rawValue, product.name))
                    if offered.products.count == limit { break }
                }
            }
            if kind != "product" {
                for recipe in catalog.recipes where matching(recipe.id.rawValue, recipe.name) {
                    offered.recipes.append((recipe.id.rawValue, recipe.name))
                    if offered.recipes.count == limit { break }
                }
            }
        }
        offered.pictures = Array(workspace.pictureFiles().filter { matches($0, "") }.prefix(limit))
        return offered
    }

    // MARK: Entities made, copied, renamed and deleted

    private func newPage(_ kind: EntityReference.Kind, name: String, id: String, refusal: String?, request: HTTPRequest, words: StudioWords,
                         status: HTTPStatusCode) -> HTTPResponse {
        let content = pages.new(kind, name: name, id: id, pictures: Array(workspace.pictureFiles().prefix(Self.suggestionLimit)), refusal: refusal,
                                words: words, token: token)
        return Self.html(pages.page(title: words["new"], content: content, words: words, token: token), status: status, words: words, request: request)
    }

    private static func field(_ fields: [(String, String)], _ name: String) -> String {
        (fields.first { $0.0 == name }?.1 ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func create(_ kind: EntityReference.Kind, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let name = Self.field(fields, "name"), id = Self.field(fields, "id")
        let outcome = kind == .promotion
            ? workspace.createPromotion(id: id, title: name, picture: Self.field(fields, "picture"), firstDay: Self.field(fields, "first-day"),
                                        lastDay: Self.field(fields, "last-day"))
            : workspace.create(kind, id: id, name: name, icon: Self.field(fields, "icon"), picture: Self.field(fields, "picture"))
        switch outcome {
        case .done(let entity, _): return Self.redirect(StudioPages.editHref(entity) + "?saved=1")
        case .refused(let reason): return newPage(kind, name: name, id: id, refusal: reason, request: request, words: words, status: .unprocessableContent)
        case .used: return notFound(words)
        }
    }

    private func duplicate(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        entityAnswer(workspace.duplicate(entity, id: Self.field(fields, "id"), name: Self.field(fields, "name")), entity, request: request, words: words)
    }

    private func rename(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let outcome = workspace.rename(entity, to: Self.field(fields, "id"))
        // Its draft's keys name the old id's file; the form under the new id opens from the file.
        if case .done = outcome { drafts.discard(entity) }
        return entityAnswer(outcome, entity, request: request, words: words)
    }

    private func delete(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let name = workspace.report?.catalog.flatMap { catalog in
            var found: String?
            catalog.forEachEntity { reference, value in if reference == entity { found = Self.name(of: reference, value, words: words) } }
            return found
        } ?? entity.id
        switch workspace.delete(entity, removingReferences: Self.field(fields, "remove-references") == "1") {
        case .done:
            drafts.discard(entity)
            return Self.redirect("/_studio/?deleted=" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        case .refused(let reason):
            var state = StudioPages.FormState()
            state.refusal = reason
            return form(entity, request: request, state: state, words: words, status: .unprocessableContent)
        case .used:
            var state = StudioPages.FormState()
            state.deleteRefused = true
            return form(entity, request: request, state: state, words: words, status: .conflict)
        }
    }

    /// The page after a copy or an id changed: the entity's form (303), or the refusal (422).
    private func entityAnswer(_ outcome: StudioWorkspace.EntityOutcome, _ entity: EntityReference, request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        switch outcome {
        case .done(let done, let others): return Self.redirect(StudioPages.editHref(done) + "?saved=1" + (others > 0 ? "&others=\(others)" : ""))
        case .refused(let reason):
            var state = StudioPages.FormState()
            state.refusal = reason
            return form(entity, request: request, state: state, words: words, status: .unprocessableContent)
        case .used:
            // Only a deletion is refused for its users; it has its own answer.
            return form(entity, request: request, state: StudioPages.FormState(), words: words, status: .conflict)
        }
    }

    /// The problems of the form as typed, for the page's script: by text, the entity's own, and
    /// whether the content can be released.
    private func check(_ entity: EntityReference, _ fields: [(String, String)], _ request: HTTPRequest, _ words: StudioWords) -> HTTPResponse {
        let (sent, _) = Self.values(fields)
        guard let (form, all) = workspace.check(entity, sent: sent) else {
            return PreviewResponder.refusal(.conflict, "the file of \(entity) cannot be read as a form now; open it again")
        }
        let problems = StudioPages.problems(of: entity, in: EntityFileEdit.path(of: entity) ?? "", all)
        let (byKey, unplaced) = StudioPages.placed(problems, in: form)
        let errors = problems.count { $0.severity == .error }
        let answer = CheckAnswer(
            fields: byKey.mapValues { $0.map { CheckAnswer.Problem(severity: $0.severity.rawValue, message: $0.message, code: $0.code.rawValue) } },
            entity: unplaced.map { CheckAnswer.Problem(severity: $0.severity.rawValue, message: $0.message, code: $0.code.rawValue) },
            errors: errors, release: errors > 0 ? words["release.blocked"] : (problems.isEmpty ? words["problems.none"] : ""))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(answer)) ?? Data("{}".utf8)
        return HTTPResponse(statusCode: .ok, headers: HTTPHeaders(Self.headers.merging([.contentType: "application/json", .cacheControl: "no-store"]) { $1 }), body: data)
    }

    struct CheckAnswer: Encodable {
        struct Problem: Encodable {
            var severity: String
            var message: String
            var code: String
        }

        var fields: [String: [Problem]]
        var entity: [Problem]
        var errors: Int
        var release: String
    }

    /// Why a POST is refused: not from the studio's own page (its Origin), or without the
    /// session's token, or not a form. Nil when it may go on.
    private func refusal(of request: HTTPRequest, body: [UInt8], port: UInt16) -> HTTPResponse? {
        guard let host = request.headers[.host], let origin = request.headers[HTTPHeader("Origin")], origin == "http://" + host.lowercased() else {
            return PreviewResponder.refusal(.forbidden, "the studio takes changes only from its own pages (the request's Origin is not this server)")
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/x-www-form-urlencoded" else {
            return PreviewResponder.refusal(.unsupportedMediaType, "the studio takes a form (application/x-www-form-urlencoded)")
        }
        let sent = request.headers[HTTPHeader("X-Studio-Token")] ?? Self.formFields(body).first { $0.0 == "token" }?.1 ?? ""
        guard Self.equalInConstantTime(sent, token) else {
            return PreviewResponder.refusal(.forbidden, "the request does not carry this studio's token; reload the page")
        }
        return nil
    }

    // MARK: Reading requests

    /// The entity of `product/espresso`, `home`: a kind, and for the kinds of many an id in the
    /// form of a slug.
    static func entity(_ path: Substring) -> EntityReference? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let kind = EntityReference.Kind(rawValue: String(parts[0])), kind != .catalog else { return nil }
        switch kind {
        case .home, .company: return parts.count == 1 ? EntityReference(kind) : nil
        default:
            guard parts.count == 2, isSlug(parts[1]) else { return nil }
            return EntityReference(kind, String(parts[1]))
        }
    }

    /// Lowercase letters, digits and single hyphens inside, at most 100 characters.
    static func isSlug(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 100 && !text.hasPrefix("-") && !text.hasSuffix("-") && !text.contains("--")
            && text.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// A form's fields in order: `application/x-www-form-urlencoded`, `+` a space.
    static func formFields(_ body: [UInt8]) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            return (name, value)
        }
    }

    /// What a form sent: its texts (`t:key`), lists (`l:…`, `FormList` rows in order) and
    /// choices (`v:key`), with a conflict's choice made (`c:key` `theirs` takes the disk's
    /// value, `d:key`), and each as the form opened it (`o:key`; a list's canonical text).
    static func values(_ fields: [(String, String)]) -> (sent: StudioWorkspace.FormValues, opened: [String: String]) {
        var sent = StudioWorkspace.FormValues(lists: EntityForm.sentLists(fields))
        var opened: [String: String] = [:], choices: [String: String] = [:], disk: [String: String] = [:]
        // A location's two numbers (`v:location:latitude`, `v:location:longitude`), made one.
        var coordinates: [String: (latitude: String, longitude: String)] = [:]
        for (name, value) in fields {
            if name.hasPrefix("v:"), let colon = name.dropFirst(2).firstIndex(of: ":") {
                let key = String(name[name.index(name.startIndex, offsetBy: 2)..<colon])
                switch name[name.index(after: colon)...] {
                case "latitude": coordinates[key, default: ("", "")].latitude = value
                case "longitude": coordinates[key, default: ("", "")].longitude = value
                default: break
                }
                continue
            }
            // Lines as an editor's browser sends them (CR LF) are the file's lines (LF).
            let value = value.replacingOccurrences(of: "\r\n", with: "\n")
            if name.hasPrefix("t:") { sent.texts[String(name.dropFirst(2))] = value }
            else if name.hasPrefix("v:") { sent.choices[String(name.dropFirst(2))] = value }
            else if name.hasPrefix("o:") { opened[String(name.dropFirst(2))] = value }
            else if name.hasPrefix("c:") { choices[String(name.dropFirst(2))] = value }
            else if name.hasPrefix("d:") { disk[String(name.dropFirst(2))] = value }
        }
        for (key, typed) in coordinates { sent.choices[key] = FormChoice.location(latitude: typed.latitude, longitude: typed.longitude) }
        for (key, choice) in choices where choice == "theirs" {
            guard let theirs = disk[key] else { continue }
            if sent.lists[key] != nil {
                sent.lists[key] = (try? JSONDecoder().decode([FormList.Row].self, from: Data(theirs.utf8))) ?? sent.lists[key]
            } else if sent.choices[key] != nil {
                sent.choices[key] = theirs
            } else {
                sent.texts[key] = theirs
            }
        }
        return (sent, opened)
    }

    /// The studio's language for the request: `?ui=` (remembered in a cookie), the cookie, or
    /// the browser's.
    static func words(for request: HTTPRequest) -> StudioWords {
        let asked = request.query.first { $0.name == "ui" }?.value
        let cookie = request.headers[HTTPHeader("Cookie")]?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("studio-ui=") }.map { String($0.dropFirst("studio-ui=".count)) }
        return StudioWords(StudioWords.language(chosen: asked ?? cookie, accepted: request.headers[HTTPHeader("Accept-Language")]))
    }

    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    // MARK: Answers

    /// The studio's pages load only its own style sheet and script, frame only the preview's
    /// pages (its own origin), post forms only to itself, and are framed by nobody.
    static let headers: [HTTPHeader: String] = [
        HTTPHeader("Content-Security-Policy"):
            "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        HTTPHeader("X-Content-Type-Options"): "nosniff",
        // Not `no-referrer`, which has a browser send `Origin: null` with a form's POST: the
        // studio's own origin must be told, and no other site is ever told anything.
        HTTPHeader("Referrer-Policy"): "same-origin",
        HTTPHeader("Cross-Origin-Resource-Policy"): "same-origin",
    ]

    static func html(_ html: String, status: HTTPStatusCode, words: StudioWords, request: HTTPRequest) -> HTTPResponse {
        var headers = Self.headers.merging([.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", HTTPHeader("Content-Language"): words.language]) { $1 }
        if let asked = request.query.first(where: { $0.name == "ui" })?.value, asked == words.language {
            headers[HTTPHeader("Set-Cookie")] = "studio-ui=\(words.language); Path=/_studio; SameSite=Strict; HttpOnly"
        }
        return HTTPResponse(statusCode: status, headers: HTTPHeaders(headers), body: Data(html.utf8))
    }

    static func file(_ bytes: [UInt8], type: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: HTTPHeaders(headers.merging([.contentType: type, .cacheControl: "no-cache"]) { $1 }), body: Data(bytes))
    }

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(statusCode: .seeOther, headers: HTTPHeaders(headers.merging([.location: location, .cacheControl: "no-store"]) { $1 }))
    }
}
