import CatalogModel
import Foundation

// What the templates read: plain values, one struct per part of a page, made from a `Screen`.
// swift-mustache reads each by name through its `MustacheParent` switch (PageView+Mustache.swift).
// A name a part lacks is looked up in the parts around it, so no field here is optional: each
// optional part has a `has…` flag beside it.

struct PageView {
    var title: String
    var brand: String
    /// The page's language, `lang` on `<html>`; a text that fell back has its own `lang`.
    var language: String
    /// The site's own words, in the page's language.
    var strings: SiteStrings
    /// The language switch: the same screen in each language; `hasLanguages` is false for a
    /// catalogue in one language.
    var hasLanguages: Bool
    var languages: [LanguageLinkView]
    var kind: String
    var stylesheet: String
    var head: String
    var foot: String
    var tabs: [TabView]
    var hasNavigationBar: Bool
    var navigationBar: NavigationBarView
    var home: HomeView?
    var list: ListView?
    var product: ProductView?
    var recipe: RecipeView?
    var retailerList: RetailerListView?
    var company: CompanyView?
    /// Links to a long list's other pages; `hasPager` is false for a list of one page.
    var hasPager: Bool
    var pager: PagerView
}

struct PagerView {
    var label: String
    var hasPrevious: Bool
    var previousHref: String
    var hasNext: Bool
    var nextHref: String
}

/// A language of the switch: its name in itself, and the same screen in it.
struct LanguageLinkView {
    var code: String
    var name: String
    var href: String
    var current: Bool
}

/// The language of a text: when it is not the page's (the text is not translated into it), its
/// code, put as the text's `lang` by the partial `lang`.
struct TextLanguageView {
    var isFallback: Bool
    var code: String
}

/// An image as a page shows it: `src`, the picture's own image (JPEG or PNG), which every
/// browser shows; and where the bundle has them (schema 4), its WebP renditions as a `<source>`,
/// from which the browser takes the one for the size `sizes` says and the screen's density.
struct ImageView {
    var src: String
    var hasSources: Bool
    var srcset: String
    var sizes: String
    /// The picture's own size in pixels, for `width` and `height`: the browser keeps its place
    /// before it loads (no layout shift). Nil when the links do not know it.
    var size: (width: Int, height: Int)?
}

struct TabView {
    var title: String
    var titleLanguage: TextLanguageView
    var href: String
    var icon: ImageView
    var selected: Bool
}

struct NavigationBarView {
    var hasTitle: Bool
    var barTitle: String
    /// The language of the title or back label: the section's title's.
    var barLanguage: TextLanguageView
    var hasBack: Bool
    var backLabel: String
    var backHref: String
}

struct PictureView {
    var image: ImageView
    var alt: String
    var altLanguage: TextLanguageView
}

struct HomeView {
    var brand: String
    var logo: ImageView
    var picture: PictureView
    var body: [BlockView]
    var bodyLanguage: TextLanguageView
    var hasPromotions: Bool
    var promotions: [PromotionView]
}

struct PromotionView {
    var title: String
    var titleLanguage: TextLanguageView
    var text: String
    var textLanguage: TextLanguageView
    var picture: PictureView
    var hasLink: Bool
    var linkHref: String
    var linkLabel: String
}

struct ListView {
    var rows: [RowView]
}

struct RowView {
    var name: String
    var nameLanguage: TextLanguageView
    var summary: String
    var summaryLanguage: TextLanguageView
    var href: String
    var icon: ImageView
}

struct ProductView {
    var name: String
    var nameLanguage: TextLanguageView
    var summary: String
    var summaryLanguage: TextLanguageView
    var pictures: [PictureView]
    var body: [BlockView]
    var bodyLanguage: TextLanguageView
    var hasRecipes: Bool
    var recipes: ListView
    var hasRetailers: Bool
    var retailerList: RetailerListView
}

struct RecipeView {
    var name: String
    var nameLanguage: TextLanguageView
    var summary: String
    var summaryLanguage: TextLanguageView
    var pictures: [PictureView]
    var ingredients: [IngredientView]
    var method: [BlockView]
    var methodLanguage: TextLanguageView
    var hasProducts: Bool
    var products: ListView
}

struct IngredientView {
    var text: String
    var textLanguage: TextLanguageView
    var isLink: Bool
    var href: String
}

struct RetailerListView {
    var entries: [RetailerView]
}

struct RetailerView {
    /// The id of the retailer's element, `retailer-<id>`: a link's fragment finds it.
    var fragment: String
    var name: String
    var logo: ImageView
    var address: String
    var phone: String
    var phoneHref: String
    var hours: String
    var hoursLanguage: TextLanguageView
    var hasInfo: Bool
    var info: String
    var infoLanguage: TextLanguageView
    var hasWeb: Bool
    var isSafeWeb: Bool
    var web: String
}

struct CompanyView {
    var name: String
    var nameLanguage: TextLanguageView
    var logo: ImageView
    var body: [BlockView]
    var bodyLanguage: TextLanguageView
    var pictures: [PictureView]
    var isSafeWeb: Bool
    var web: String
}

struct BlockView {
    var isParagraph = false
    var isHeading2 = false
    var isHeading3 = false
    var isBulletList = false
    var isNumberedList = false
    var inlines: [InlineView] = []
    var items: [ListItemView] = []
}

struct ListItemView {
    var inlines: [InlineView]
}

struct InlineView {
    var isText = false
    var isEmphasis = false
    var isStrong = false
    var isLink = false
    var text = ""
    var href = ""
    var children: [InlineView] = []
}
