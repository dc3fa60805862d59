import CatalogModel
import Foundation

/// The languages of a page: its own, and every language of its bundle, the default first (whose
/// pages are at the root; the others' in a folder named by their code).
package struct PageLanguages: Hashable, Sendable {
    package var current: String
    package var all: [String]

    package init(current: String, all: [String]) {
        self.current = current
        self.all = all
    }

    /// The languages of the pages of `bundle`, read in its language.
    package init(_ bundle: CatalogBundle) {
        self.init(current: bundle.language, all: bundle.languages)
    }

    /// A catalogue in Finnish alone.
    package static let finnish = PageLanguages(current: "fi", all: ["fi"])

    /// The folder of `language`'s pages: nil for the default language's, at the root.
    package func folder(of language: String) -> String? {
        language == all.first ? nil : language
    }
}

extension PageView {
    /// The page of a screen in `languages.current`, its links made by `links` (for that
    /// language's folder).
    init(
        _ screen: Screen, brand: String, links siteLinks: SiteLinks, languages: PageLanguages = .finnish, listPage: ListPage? = nil,
        head: String = "", foot: String = ""
    ) {
        let page = screen.route
        let links = siteLinks.inLanguageFolder(languages.folder(of: languages.current))
        let strings = SiteStrings.for(languages.current)
        let builder = ViewBuilder(page: page, links: links, strings: strings)
        let section = screen.tabs.first { $0.id == screen.selectedTab }
        let sectionTitle = section?.title
        // A detail screen's title names its section too: a product and a recipe may share a
        // name (Espresso), and each page needs a title of its own.
        let ownTitle: String? = switch screen.content {
        case .product(let detail): sectionTitle.map { "\(detail.name) – \($0)" } ?? detail.name
        case .recipe(let detail): sectionTitle.map { "\(detail.name) – \($0)" } ?? detail.name
        case .company(let company): company.name
        case .home: nil
        default: sectionTitle
        }
        self.init(
            title: ownTitle.map { "\($0) – \(brand)" } ?? brand,
            brand: brand,
            language: languages.current,
            strings: strings,
            hasLanguages: languages.all.count > 1,
            languages: languages.all.map { code in
                LanguageLinkView(code: code, name: SiteStrings.name(of: code),
                                 href: links.href(to: page, inLanguageFolder: languages.folder(of: code), from: page), current: code == languages.current)
            },
            kind: builder.kind(of: screen.content),
            stylesheet: links.stylesheet(from: page),
            head: head,
            foot: foot,
            tabs: screen.tabs.map {
                TabView(title: $0.title, titleLanguage: fallback($0.languages, .title), href: links.href(to: .root(of: $0.id), from: page),
                        icon: builder.image($0.icon, sizes: .tab), selected: $0.id == screen.selectedTab)
            },
            hasNavigationBar: screen.navigationBar != nil,
            navigationBar: NavigationBarView(
                hasTitle: screen.navigationBar?.title != nil, barTitle: screen.navigationBar?.title ?? "",
                barLanguage: fallback(section?.languages ?? TextLanguages(language: languages.current), .title),
                hasBack: screen.navigationBar?.backButton != nil, backLabel: screen.navigationBar?.backButton ?? "",
                // A detail screen's back button leads to its section's list, as in the app
                // when the screen was opened from outside the section (a deep link).
                backHref: links.href(to: .root(of: screen.selectedTab), from: page)),
            home: nil, list: nil, product: nil, recipe: nil, retailerList: nil, company: nil,
            hasPager: listPage.map { $0.number > 1 || $0.hasNext } ?? false,
            pager: PagerView(
                label: "\(strings.page) \(listPage?.number ?? 1)",
                hasPrevious: (listPage?.number ?? 1) > 1,
                previousHref: links.href(to: page, page: (listPage?.number ?? 1) - 1, from: page),
                hasNext: listPage?.hasNext ?? false,
                nextHref: links.href(to: page, page: (listPage?.number ?? 1) + 1, from: page)))
        switch screen.content {
        case .home(let home): self.home = builder.home(home, brand: brand)
        case .productList(let rows): list = ListView(rows: rows.map(builder.row))
        case .recipeList(let rows): list = ListView(rows: rows.map(builder.row))
        case .product(let detail): product = builder.product(detail)
        case .recipe(let detail): recipe = builder.recipe(detail)
        case .retailerList(let rows): retailerList = builder.retailers(rows)
        case .company(let company): self.company = builder.company(company)
        }
    }
}

/// The language of a text, for its `lang` when it is not in its record's language (it fell back).
private func fallback(_ languages: TextLanguages, _ field: TextField) -> TextLanguageView {
    TextLanguageView(isFallback: languages.isFallback(field), code: languages.isFallback(field) ? languages[field] : "")
}

/// Makes the parts of one page.
private struct ViewBuilder {
    var page: Route
    var links: SiteLinks
    var strings: SiteStrings

    func kind(of content: ScreenContent) -> String {
        switch content {
        case .home: "home"
        case .productList: "product-list"
        case .product: "product"
        case .recipeList: "recipe-list"
        case .recipe: "recipe"
        case .retailerList: "retailer-list"
        case .company: "company"
        }
    }

    /// How wide an image is shown, as `sizes` says it (style.css sets the same widths).
    enum ShownWidth: String {
        /// A tab's icon, 28 px.
        case tab = "28px"
        /// A list row's icon, 44 px.
        case row = "44px"
        /// A logo, at most 160 px.
        case logo = "160px"
        /// A detail picture: the page's width less its margins (16 px a side), the page at
        /// most 390 px.
        case picture = "(max-width: 390px) calc(100vw - 32px), 358px"
    }

    /// An image shown `sizes` wide: its own address, and its WebP renditions, if any.
    func image(_ id: ImageID, sizes: ShownWidth) -> ImageView {
        let sources = links.sourceSet(id, from: page)
        return ImageView(src: links.image(id, from: page), hasSources: !sources.isEmpty, srcset: sources, sizes: sizes.rawValue, size: links.size(of: id))
    }

    func picture(_ picture: Picture) -> PictureView {
        PictureView(image: image(picture.image, sizes: .picture), alt: picture.alt, altLanguage: fallback(picture.languages, .alt))
    }

    func row(_ row: ProductRow) -> RowView {
        RowView(name: row.name, nameLanguage: fallback(row.languages, .name), summary: row.summary, summaryLanguage: fallback(row.languages, .summary),
                href: links.href(to: .product(row.id), from: page), icon: image(row.icon, sizes: .row))
    }

    func row(_ row: RecipeRow) -> RowView {
        RowView(name: row.name, nameLanguage: fallback(row.languages, .name), summary: row.summary, summaryLanguage: fallback(row.languages, .summary),
                href: links.href(to: .recipe(row.id), from: page), icon: image(row.icon, sizes: .row))
    }

    func home(_ home: HomeScreen, brand: String) -> HomeView {
        HomeView(
            brand: brand, logo: image(home.logo, sizes: .logo), picture: picture(home.picture), body: blocks(home.body),
            bodyLanguage: fallback(home.languages, .body),
            hasPromotions: !home.promotions.isEmpty,
            promotions: home.promotions.map { promotion in
                PromotionView(
                    title: promotion.title, titleLanguage: fallback(promotion.languages, .title),
                    text: promotion.text, textLanguage: fallback(promotion.languages, .text), picture: picture(promotion.picture),
                    hasLink: promotion.link != nil, linkHref: promotion.link.map { links.href(to: Route($0), from: page) } ?? "",
                    linkLabel: promotion.link.map { if case .product = $0 { strings.seeProduct } else { strings.seeRecipe } } ?? "")
            })
    }

    func product(_ detail: ProductDetail) -> ProductView {
        ProductView(
            name: detail.name, nameLanguage: fallback(detail.languages, .name), summary: detail.summary,
            summaryLanguage: fallback(detail.languages, .summary), pictures: detail.pictures.map(picture), body: blocks(detail.body),
            bodyLanguage: fallback(detail.languages, .body), hasRecipes: !detail.recipes.isEmpty, recipes: ListView(rows: detail.recipes.map(row)),
            hasRetailers: !detail.retailers.isEmpty, retailerList: retailers(detail.retailers))
    }

    func recipe(_ detail: RecipeDetail) -> RecipeView {
        RecipeView(
            name: detail.name, nameLanguage: fallback(detail.languages, .name), summary: detail.summary,
            summaryLanguage: fallback(detail.languages, .summary), pictures: detail.pictures.map(picture),
            ingredients: detail.ingredients.map { ingredient in
                IngredientView(text: ingredient.text, textLanguage: fallback(ingredient.languages, .text), isLink: ingredient.product != nil,
                               href: ingredient.product.map { links.href(to: .product($0), from: page) } ?? "")
            },
            method: blocks(detail.method), methodLanguage: fallback(detail.languages, .method), hasProducts: !detail.products.isEmpty, products: ListView(rows: detail.products.map(row)))
    }

    func retailers(_ rows: [RetailerRow]) -> RetailerListView {
        RetailerListView(entries: rows.map { retailer in
            RetailerView(
                fragment: "retailer-\(retailer.id.rawValue)", name: retailer.name, logo: image(retailer.logo, sizes: .logo),
                address: retailer.address, phone: retailer.phone, phoneHref: Self.telephone(retailer.phone), hours: retailer.openingHours,
                hoursLanguage: fallback(retailer.languages, .openingHours),
                hasInfo: retailer.otherInfo != nil, info: retailer.otherInfo ?? "", infoLanguage: fallback(retailer.languages, .otherInfo),
                hasWeb: retailer.webAddress != nil, isSafeWeb: retailer.webAddress.map(Self.isWebLink) ?? false, web: retailer.webAddress ?? "")
        })
    }

    func company(_ company: CompanyScreen) -> CompanyView {
        CompanyView(name: company.name, nameLanguage: fallback(company.languages, .name), logo: image(company.logo, sizes: .logo),
                    body: blocks(company.body), bodyLanguage: fallback(company.languages, .body),
                    pictures: company.pictures.map(picture), isSafeWeb: Self.isWebLink(company.webAddress), web: company.webAddress)
    }

    func blocks(_ text: RichText) -> [BlockView] {
        text.blocks.map { block in
            switch block {
            case .paragraph(let inlines): BlockView(isParagraph: true, inlines: self.inlines(inlines))
            case .heading(let level, let inlines):
                BlockView(isHeading2: level <= 2, isHeading3: level > 2, inlines: self.inlines(inlines))
            case .list(let ordered, let items):
                BlockView(isBulletList: !ordered, isNumberedList: ordered, items: items.map { ListItemView(inlines: self.inlines($0)) })
            }
        }
    }

    func inlines(_ inlines: [RichText.Inline]) -> [InlineView] {
        inlines.map { inline in
            switch inline {
            case .text(let text): InlineView(isText: true, text: text)
            case .emphasis(let children): InlineView(isEmphasis: true, children: self.inlines(children))
            case .strong(let children): InlineView(isStrong: true, children: self.inlines(children))
            case .link(let target, let children):
                InlineView(isLink: true, href: links.href(to: Route(target), from: page), children: self.inlines(children))
            }
        }
    }

    /// A `tel:` link: the number's digits and a leading plus, nothing a browser could run.
    static func telephone(_ phone: String) -> String {
        let digits = phone.enumerated().filter { index, character in character.isASCII && (character.isNumber || (index == 0 && character == "+")) }
        return "tel:" + String(digits.map(\.element))
    }

    /// Whether a web address may be a link: an `http` or `https` URL with a host. Anything else
    /// (`javascript:`, `data:`) is shown as text.
    static func isWebLink(_ address: String) -> Bool {
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        return scheme == "https" || scheme == "http"
    }
}
