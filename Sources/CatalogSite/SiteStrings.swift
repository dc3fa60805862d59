import CatalogModel
import Foundation
import Mustache

/// The words of a page that are the site's own, not the content's (headings, the pager, the
/// landmarks' labels), in Finnish, Swedish and English. A language a catalogue adds beyond
/// those gets English's until its words are added here.
struct SiteStrings: Sendable {
    /// The language these words are in.
    var language: String
    var promotions: String
    var seeProduct: String
    var seeRecipe: String
    var recipes: String
    var products: String
    var retailers: String
    var ingredients: String
    var method: String
    var pages: String
    var page: String
    var previous: String
    var next: String
    var sections: String
    var languageSwitch: String

    static let finnish = SiteStrings(
        language: "fi", promotions: "Tarjoukset", seeProduct: "Katso tuote", seeRecipe: "Katso resepti", recipes: "Reseptit",
        products: "Tuotteet", retailers: "Jälleenmyyjät", ingredients: "Ainekset", method: "Valmistus", pages: "Sivut", page: "Sivu",
        previous: "‹ Edelliset", next: "Seuraavat ›", sections: "Osiot", languageSwitch: "Kieli")
    static let swedish = SiteStrings(
        language: "sv", promotions: "Erbjudanden", seeProduct: "Se produkten", seeRecipe: "Se receptet", recipes: "Recept",
        products: "Produkter", retailers: "Återförsäljare", ingredients: "Ingredienser", method: "Gör så här", pages: "Sidor", page: "Sida",
        previous: "‹ Föregående", next: "Nästa ›", sections: "Avsnitt", languageSwitch: "Språk")
    static let english = SiteStrings(
        language: "en", promotions: "Offers", seeProduct: "See the product", seeRecipe: "See the recipe", recipes: "Recipes",
        products: "Products", retailers: "Retailers", ingredients: "Ingredients", method: "Method", pages: "Pages", page: "Page",
        previous: "‹ Previous", next: "Next ›", sections: "Sections", languageSwitch: "Language")

    /// The words for pages in `language` (`sv-AX` gets Swedish's).
    static func `for`(_ language: String) -> SiteStrings {
        let all = [finnish, swedish, english]
        let best = BundleLanguage.lookup([language], among: all.map(\.language))
        return all.first { $0.language == best } ?? english
    }

    /// A language's name in itself, as a language switch shows it: "Suomi", "Svenska",
    /// "English" (Foundation's, from ICU's data).
    static func name(of language: String) -> String {
        let name = Locale(identifier: language).localizedString(forIdentifier: language) ?? language
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}

// Given to the templates by name, as the pages' views are (PageView+Mustache.swift says why).
extension SiteStrings: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "language": language
        case "promotions": promotions
        case "seeProduct": seeProduct
        case "seeRecipe": seeRecipe
        case "recipes": recipes
        case "products": products
        case "retailers": retailers
        case "ingredients": ingredients
        case "method": method
        case "pages": pages
        case "page": page
        case "previous": previous
        case "next": next
        case "sections": sections
        case "languageSwitch": languageSwitch
        default: nil
        }
    }
}
