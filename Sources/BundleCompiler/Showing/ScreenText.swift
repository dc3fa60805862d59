import CatalogModel
import Foundation

/// A screen as `digno show` prints it for a person: the tab bar, the navigation bar, the
/// language, then the content, so a release can be checked without a phone. A text shown in
/// another language than the screen's, because it is not translated, is followed by that
/// language in brackets: `Café Latte [fi]`.
package enum ScreenText {
    /// The screen as text, read in `language`.
    package static func render(_ screen: Screen, language: String) -> String {
        var lines = [screen.route.description]
        lines.append("tabs: " + screen.tabs.map { tab in
            let title = marked(tab.title, tab.languages, .title)
            return tab.id == screen.selectedTab ? "[\(title)]" : title
        }.joined(separator: " | "))
        let selected = screen.tabs.first { $0.id == screen.selectedTab }
        func bar(_ text: String) -> String { selected.map { marked(text, $0.languages, .title) } ?? text }
        switch screen.navigationBar {
        case nil: lines.append("navigation bar: none")
        case let navigation?:
            if let title = navigation.title { lines.append("navigation bar: \(bar(title))") }
            if let back = navigation.backButton { lines.append("navigation bar: < \(bar(back))") }
        }
        lines.append("language: \(language)")
        lines.append("")
        lines += content(screen.content)
        return lines.joined(separator: "\n") + "\n"
    }

    static func content(_ content: ScreenContent) -> [String] {
        switch content {
        case .home(let home):
            var lines = ["logo: \(short(home.logo))", "picture: \(picture(home.picture))", "", marked(home.body.plainText, home.languages, .body)]
            for promotion in home.promotions {
                lines += ["", "promotion \(promotion.id.rawValue) (\(promotion.firstDay) – \(promotion.lastDay)): \(marked(promotion.title, promotion.languages, .title))",
                          marked(promotion.text, promotion.languages, .text), "picture: \(picture(promotion.picture))"]
                if let link = promotion.link { lines.append("opens: \(route(link))") }
            }
            return lines
        case .productList(let rows):
            return rows.map { listRow($0.name, $0.summary, $0.languages) + "  [icon \(short($0.icon))] → \(Route.product($0.id))" }
        case .product(let product):
            return [marked(product.name, product.languages, .name), marked(product.summary, product.languages, .summary), "",
                    marked(product.body.plainText, product.languages, .body), ""]
                + product.pictures.map { "picture: \(picture($0))" }
                + ["", "recipes: " + product.recipes.map { marked($0.name, $0.languages, .name) }.joined(separator: ", "),
                   "retailers: " + product.retailers.map(\.name).joined(separator: ", ")]
        case .recipeList(let rows):
            return rows.map { listRow($0.name, $0.summary, $0.languages) + "  [icon \(short($0.icon))] → \(Route.recipe($0.id))" }
        case .recipe(let recipe):
            let ingredients = recipe.ingredients.map {
                "- \(marked($0.text, $0.languages, .text))" + ($0.product.map { " → \(Route.product($0))" } ?? "")
            }
            return [marked(recipe.name, recipe.languages, .name), marked(recipe.summary, recipe.languages, .summary), ""] + ingredients
                + ["", marked(recipe.method.plainText, recipe.languages, .method), ""]
                + recipe.pictures.map { "picture: \(picture($0))" }
                + ["", "products: " + recipe.products.map { marked($0.name, $0.languages, .name) }.joined(separator: ", ")]
        case .retailerList(let rows):
            var lines: [String] = []
            for row in rows {
                if !lines.isEmpty { lines.append("") }
                lines.append("\(row.name)  [logo \(short(row.logo))]")
                lines.append("  \(row.address)")
                lines.append("  puh. \(row.phone)")
                lines.append("  \(marked(row.openingHours, row.languages, .openingHours))")
                if let info = row.otherInfo { lines.append("  \(marked(info, row.languages, .otherInfo))") }
                if let web = row.webAddress { lines.append("  \(web)") }
                lines.append("  sells: " + row.sells.map(\.rawValue).joined(separator: ", "))
            }
            return lines
        case .company(let company):
            return [marked(company.name, company.languages, .name), "logo: \(short(company.logo))", "",
                    marked(company.body.plainText, company.languages, .body), ""]
                + company.pictures.map { "picture: \(picture($0))" } + [company.webAddress]
        }
    }

    static func short(_ image: ImageID) -> String {
        String(image.rawValue.prefix(12))
    }

    static func picture(_ picture: Picture) -> String {
        "\(short(picture.image)) " + marked("\"\(picture.alt)\"", picture.languages, .alt)
    }

    /// A list row's name and summary, each marked if it fell back.
    static func listRow(_ name: String, _ summary: String, _ languages: TextLanguages) -> String {
        "\(marked(name, languages, .name)) — \(marked(summary, languages, .summary))"
    }

    /// `text`, followed by its language in brackets if it is not in the record's language.
    static func marked(_ text: String, _ languages: TextLanguages, _ field: TextField) -> String {
        languages.isFallback(field) ? "\(text) [\(languages[field])]" : text
    }

    static func route(_ target: LinkTarget) -> String {
        switch target {
        case .product(let id): Route.product(id).description
        case .recipe(let id): Route.recipe(id).description
        }
    }

    /// The screen as JSON (sorted keys, two-space indent).
    package static func json(_ screen: Screen) -> String {
        json(encoding: screen)
    }

    /// Search hits as JSON, an array in rank order.
    package static func json(_ hits: [SearchHit]) -> String {
        json(encoding: hits)
    }

    private static func json(encoding value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    /// Search hits as text, one a line in rank order: name, summary, the screen it opens.
    package static func render(_ hits: [SearchHit], language: String) -> String {
        var lines = ["language: \(language)", "\(hits.count) \(hits.count == 1 ? "hit" : "hits")"]
        for hit in hits {
            let summary = hit.summary.isEmpty ? "" : " — " + marked(hit.summary, hit.languages, .summary)
            lines.append("\(marked(hit.name, hit.languages, .name))\(summary) → \(Route(hit.target))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
