import CatalogModel
@testable import CatalogSite
import Foundation
import Mustache
import Testing

/// The views give the templates their values by name (`MustacheParent`, PageView+Mustache.swift)
/// rather than by reflection, for speed. Every stored property must be given, and be the value
/// reflection would find: checked over every page of the shipped content and the preview's views.
@Suite struct MustacheLookupTests {
    /// An optional's value, or nil; anything else as it is.
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map(\.value)
    }

    /// Checks `value` and everything in it; returns how many properties were compared.
    @discardableResult
    static func check(_ value: Any, path: String) -> Int {
        guard let value = unwrapped(value) else { return 0 }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .collection {
            return mirror.children.enumerated().reduce(0) { $0 + check($1.element.value, path: "\(path)[\($1.offset)]") }
        }
        guard mirror.displayStyle == .struct else { return 0 }
        guard let parent = value as? MustacheParent else {
            Issue.record("\(path): \(type(of: value)) is not a MustacheParent")
            return 0
        }
        var compared = 0
        for child in mirror.children {
            guard let label = child.label else { continue }
            let given = parent.child(named: label).flatMap(unwrapped)
            let reflected = unwrapped(child.value)
            #expect(given.map { String(reflecting: $0) } == reflected.map { String(reflecting: $0) }, "\(path).\(label) of \(type(of: value))")
            compared += 1 + check(child.value, path: "\(path).\(label)")
        }
        return compared
    }

    @Test func everyPropertyOfEveryViewIsGivenByName() throws {
        let bundle = try CatalogBundle(path: StaticSiteTests.shipped)
        let site = StaticSite(bundle: bundle, today: Day("2026-11-22")!)
        var compared = 0
        var kinds = Set<String>()
        for screen in try site.screens() {
            for page in screen.listPages(size: 5) {
                // In Swedish with a text that fell back, so that a language of a text is checked too.
                var screen = page.screen
                if case .recipe(var recipe) = screen.content {
                    recipe.languages.fallbacks = [.summary: "fi"]
                    screen.content = .recipe(recipe)
                }
                let view = PageView(screen, brand: "Café Digno", links: SiteLinks(style: .files),
                                    languages: PageLanguages(current: "sv", all: ["fi", "sv", "en"]), listPage: page.page)
                kinds.insert(view.kind)
                compared += Self.check(view, path: screen.route.description)
            }
        }
        #expect(kinds.count == 7, "every kind of screen: \(kinds.sorted())")
        let panel = DiagnosticsPanel(summary: .counts(errors: 1, warnings: 0, files: 1), problems: [.init(place: "a.xml:1:2:", severity: "error", message: "m", code: "c")], hasLastGood: true)
        compared += Self.check(DiagnosticsPanelView(panel, words: .swedish, isError: true), path: "panel")
        compared += Self.check(DiagnosticsPanelView(panel, words: .finnish, isError: true).problems[0], path: "panel.problems")
        compared += Self.check(panel.problems[0], path: "translations.problem")
        let changes = ChangesPanel(against: "a", summary: "s", entries: [.init(change: "added", kind: "product", id: "i", name: "n", fields: ["f"])])
        compared += Self.check(changes, path: "changes")
        compared += Self.check(changes.entries[0], path: "changes.entries")
        compared += Self.check(NoticeView(language: "fi", title: "t", message: "m", stylesheet: "s", hasHome: true, homeHref: "h", head: "", foot: ""), path: "notice")
        compared += Self.check(PreviewHeadView(generation: "g"), path: "head")
        let status = TranslationStatus(
            languages: [.init(code: "sv", coverage: "sv: 1 of 2 texts, 50 %",
                              entries: [.init(problem: .init(place: "a.xml:1:2:", severity: "warning", message: "m", code: "translation-missing"), href: "/sv/")])],
            comparedWith: "2026.11.0")
        compared += Self.check(TranslationPageView(status: status, stylesheet: "s", head: "", foot: ""), path: "translations")
        #expect(compared > 1000)
    }
}
