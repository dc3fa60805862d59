import CatalogModel
import Foundation

/// A screen as `digno show` prints it for a person: the tab bar, the navigation bar, then the
/// content, so a release can be checked without a phone.
package enum ScreenText {
    /// The screen as text.
    package static func render(_ screen: Screen) -> String {
        var lines = [screen.route.description]
        lines.append("tabs: " + screen.tabs.map { $0.id == screen.selectedTab ? "[\($0.title)]" : $0.title }.joined(separator: " | "))
        switch screen.navigationBar {
        case nil: lines.append("navigation bar: none")
        case let bar?:
            if let title = bar.title { lines.append("navigation bar: \(title)") }
            if let back = bar.backButton { lines.append("navigation bar: < \(back)") }
        }
        lines.append("")
        lines += content(screen.content)
        return lines.joined(separator: "\n") + "\n"
    }

    static func content(_ content: ScreenContent) -> [String] {
        switch content {
        case .home(let home):
            var lines = ["logo: \(short(home.logo))", "picture: \(picture(home.picture))", "", home.body.plainText]
            for promotion in home.promotions {
                lines += ["", "promotion \(promotion.id.rawValue) (\(promotion.firstDay) – \(promotion.lastDay)): \(promotion.title)", promotion.text,
                          "picture: \(picture(promotion.picture))"]
                if let link = promotion.link { lines.append("opens: \(route(link))") }
            }
            return lines
        case .productList(let rows):
            return rows.map { "\($0.name) — \($0.summary)  [icon \(short($0.icon))] → \(Route.product($0.id))" }
        case .product(let product):
            return [product.name, product.summary, "", product.body.plainText, ""]
                + product.pictures.map { "picture: \(picture($0))" }
                + ["", "recipes: " + product.recipes.map(\.name).joined(separator: ", "),
                   "retailers: " + product.retailers.map(\.name).joined(separator: ", ")]
        case .recipeList(let rows):
            return rows.map { "\($0.name) — \($0.summary)  [icon \(short($0.icon))] → \(Route.recipe($0.id))" }
        case .recipe(let recipe):
            let ingredients = recipe.ingredients.map { "- \($0.text)" + ($0.product.map { " → \(Route.product($0))" } ?? "") }
            return [recipe.name, recipe.summary, ""] + ingredients + ["", recipe.method.plainText, ""]
                + recipe.pictures.map { "picture: \(picture($0))" }
                + ["", "products: " + recipe.products.map(\.name).joined(separator: ", ")]
        case .retailerList(let rows):
            var lines: [String] = []
            for row in rows {
                if !lines.isEmpty { lines.append("") }
                lines.append("\(row.name)  [logo \(short(row.logo))]")
                lines.append("  \(row.address)")
                lines.append("  puh. \(row.phone)")
                lines.append("  \(row.openingHours)")
                if let info = row.otherInfo { lines.append("  \(info)") }
                if let web = row.webAddress { lines.append("  \(web)") }
                lines.append("  sells: " + row.sells.map(\.rawValue).joined(separator: ", "))
            }
            return lines
        case .company(let company):
            return [company.name, "logo: \(short(company.logo))", "", company.body.plainText, ""]
                + company.pictures.map { "picture: \(picture($0))" } + [company.webAddress]
        }
    }

    static func short(_ image: ImageID) -> String {
        String(image.rawValue.prefix(12))
    }

    static func picture(_ picture: Picture) -> String {
        "\(short(picture.image)) \"\(picture.alt)\""
    }

    static func route(_ target: LinkTarget) -> String {
        switch target {
        case .product(let id): Route.product(id).description
        case .recipe(let id): Route.recipe(id).description
        }
    }

    /// The screen as JSON (sorted keys, two-space indent).
    package static func json(_ screen: Screen) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(screen)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
