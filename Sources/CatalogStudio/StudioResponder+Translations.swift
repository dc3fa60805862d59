import BundleCompiler
import CatalogContent
import CatalogModel
import CatalogPreview
import FlyingFox
import Foundation

/// The languages side by side, for a whole catalogue: the coverage table (each entity × each
/// language: translated, missing, outdated, each opening the field to write), and the XLIFF a
/// translator's tool takes (`digno translations export`) and gives back (`import`), from it.
extension StudioResponder {
    /// How many entities the table shows a page.
    static let tablePageSize = 100

    /// `GET /_studio/translations` (`?all=1`: every entity, not only those with a text to write;
    /// `?page=2`).
    func translationsPage(_ request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        let value = { (name: String) in request.query.first { $0.name == name }?.value }
        let all = value("all") == "1"
        let page = max(1, Int(value("page") ?? "") ?? 1)
        var context: [String: Any] = [
            "heading": words["translations.heading"], "overview": words["overview"], "intro": words["translations.intro"],
            "entityLabel": words["translations.entity"], "allLabel": words["translations.all"], "todoLabel": words["translations.todo"],
            "exportHeading": words["translations.export"], "exportNote": words["translations.exportNote"],
            "importHeading": words["translations.import"], "importLabel": words["translations.importLabel"], "token": token,
        ]
        if let notice = value("imported") { context["notice"] = words["translations.imported"].replacingOccurrences(of: "{n}", with: notice) }
        guard let report = workspace.report, let catalog = report.catalog else {
            context["empty"] = words["status.unchecked"]
            return Self.html(pages.page(title: words["translations.heading"], content: pages.translations(context), words: words, token: token),
                             status: .ok, words: words, request: request)
        }
        let table = TranslationTable(report)
        let shown = all ? table.rows : table.rows.filter { !$0.isDone }
        let first = (page - 1) * Self.tablePageSize
        let slice = first < shown.count ? Array(shown[first..<min(shown.count, first + Self.tablePageSize)]) : []
        // The names of the page's entities only.
        let wanted = Set(slice.map(\.entity))
        var names: [EntityReference: String] = [:]
        catalog.forEachEntity { reference, entity in if wanted.contains(reference) { names[reference] = Self.name(of: reference, entity, words: words) } }
        context["languages"] = table.languages.map { ["name": words.languageName($0), "code": $0.rawValue] }
        context["coverage"] = report.coverage.map { coverage in
            ["name": words.languageName(coverage.language),
             "words": words["translations.coverage"].replacingOccurrences(of: "{translated}", with: String(coverage.translated))
                .replacingOccurrences(of: "{total}", with: String(coverage.total)).replacingOccurrences(of: "{percent}", with: String(coverage.percent)),
             "export": "/_studio/translations/\(coverage.language.rawValue).xlf", "exportTodo": "/_studio/translations/\(coverage.language.rawValue).xlf?only=todo",
             "exportAll": words["translations.exportAll"], "exportTodoLabel": words["translations.exportTodo"]]
        }
        context["rows"] = slice.map { row -> [String: Any] in
            let href = StudioPages.editHref(row.entity)
            return [
                "name": names[row.entity] ?? row.entity.id, "href": href, "kind": words.kind(row.entity.kind),
                "cells": table.languages.map { language -> [String: Any] in
                    let cell = row.cells[language] ?? TranslationTable.Cell()
                    var view: [String: Any] = ["state": cell.missing > 0 ? "missing" : cell.outdated > 0 ? "outdated" : "done"]
                    if cell.isDone {
                        view["words"] = words["translations.done"].replacingOccurrences(of: "{n}", with: String(cell.total))
                    } else {
                        var parts: [String] = []
                        if cell.missing > 0 { parts.append(words["translations.missing"].replacingOccurrences(of: "{n}", with: String(cell.missing))) }
                        if cell.outdated > 0 { parts.append(words["translations.outdated"].replacingOccurrences(of: "{n}", with: String(cell.outdated))) }
                        view["words"] = parts.joined(separator: ", ")
                        if let key = cell.first { view["href"] = href + "#field-" + (key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key) }
                    }
                    return view
                },
            ]
        }
        if shown.isEmpty { context["empty"] = words["translations.none"] }
        if first + Self.tablePageSize < shown.count {
            context["next"] = "/_studio/translations?page=\(page + 1)" + (all ? "&all=1" : "")
            context["nextLabel"] = words["more"]
        }
        if page > 1 {
            context["previous"] = "/_studio/translations?page=\(page - 1)" + (all ? "&all=1" : "")
            context["previousLabel"] = words["previous"]
        }
        context["toggle"] = all ? "/_studio/translations" : "/_studio/translations?all=1"
        context["toggleLabel"] = all ? words["translations.todo"] : words["translations.all"]
        return Self.html(pages.page(title: words["translations.heading"], content: pages.translations(context), words: words, token: token),
                         status: .ok, words: words, request: request)
    }

    /// `GET /_studio/translations/sv.xlf` (`?only=todo`: the units missing or outdated): the
    /// XLIFF 1.2 file `digno translations export` writes, of the last check's catalogue.
    func exportTranslations(_ code: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let report = workspace.report, let catalog = report.catalog else {
            return PreviewResponder.refusal(.serviceUnavailable, "the content is being checked; try again")
        }
        guard report.isValid else {
            return PreviewResponder.refusal(.conflict, "the content has errors; fix them, then export (a translator's file is made of valid content only)")
        }
        guard let language = catalog.languages.translated.first(where: { $0.rawValue == code }) else {
            return PreviewResponder.refusal(.notFound, "the catalogue does not translate into '\(code)'")
        }
        var units = catalog.translationUnits(into: language, since: workspace.comparedRelease)
        if request.query.contains(where: { $0.name == "only" && $0.value == "todo" }) {
            units = units.filter { if case .translated = $0.state { false } else { true } }
        }
        let document = XLIFFWriter.document(units, version: .v1_2, sourceLanguage: catalog.languages.defaultLanguage.rawValue,
                                            targetLanguage: language.rawValue, original: "content", tool: CompilerVersion.number)
        return HTTPResponse(statusCode: .ok, headers: HTTPHeaders(Self.headers.merging([
            .contentType: "application/x-xliff+xml; charset=utf-8", .cacheControl: "no-store",
            HTTPHeader("Content-Disposition"): "attachment; filename=\"content-\(language.rawValue).xlf\"",
        ]) { $1 }), body: Data(document.utf8))
    }

    /// `POST /_studio/translations/import`, the XLIFF file as its body (spooled, as a photo):
    /// the translations written into the content files as `digno translations import` writes
    /// them, all or none; `{"imported": …, "summary": …}`, or the refusal's problems (422).
    func importTranslations(_ request: HTTPRequest, words: StudioWords) -> HTTPResponse {
        guard let spooled = SpooledBody.current else { return Self.json(["refusal": "send the XLIFF file as the request's body"], status: .unprocessableContent) }
        guard let report = workspace.report, report.isValid, let catalog = report.catalog else {
            return Self.json(["refusal": words["translations.invalid"]], status: .conflict)
        }
        let bytes: [UInt8]
        switch TranslationImport.readXLIFF(spooled.path) {
        case .success(let read): bytes = read
        case .failure(let failure): return Self.json(["refusal": failure.description], status: .unprocessableContent)
        }
        let name = "the translator's file"
        let plan: TranslationImport.Plan
        do {
            let xliff = try ReturnedXLIFF.read(bytes)
            plan = try TranslationImport(contentFolder: workspace.contentFolder, catalog: catalog, xliffName: name).plan(xliff)
        } catch let unreadable as ReturnedXLIFF.Unreadable {
            return Self.json(["refusal": "the file cannot be read as XLIFF (line \(unreadable.line ?? 0)): \(unreadable.message)"], status: .unprocessableContent)
        } catch {
            return Self.json(["refusal": "\(error)"], status: .unprocessableContent)
        }
        if plan.isRefused {
            return Self.json(["refusal": words["translations.refused"], "problems": plan.diagnostics.map { ReportFormat.place(of: $0) + ": " + $0.message }.joined(separator: "\n")],
                             status: .unprocessableContent)
        }
        do {
            try TranslationImport.write(plan.files, into: workspace.contentFolder)
        } catch {
            return Self.json(["refusal": "\(error); import again to finish it"], status: .internalServerError)
        }
        return Self.json(["imported": String(plan.changes.count), "summary": TranslationImport.summary(plan),
                          "next": "/_studio/translations?imported=\(plan.changes.count)"], status: .ok)
    }
}
