import CatalogModel
@testable import CatalogSite
import Foundation
import Mustache
import Testing

/// Content is untrusted: whatever a name, a text or a web address holds is shown as text, and
/// nothing in it runs.
@Suite struct EscapingTests {
    static let icon: ImageID = "0000000000000000000000000000000000000000000000000000000000000000"
    static let hostile = "<script>alert(\"x\")</script> & 'quoted'"

    func page(_ content: ScreenContent, route: Route) throws -> String {
        let tabs = SectionKind.allCases.map { SectionTab(id: $0, title: Self.hostile, icon: Self.icon) }
        let screen = Screen(route: route, tabs: tabs, navigationBar: NavigationBar(title: Self.hostile, backButton: nil), content: content)
        return try SiteRenderer(links: SiteLinks(style: .files)).page(screen, brand: Self.hostile)
    }

    @Test func markupInContentIsShownAsText() throws {
        let text = RichText(blocks: [.paragraph([.text(Self.hostile), .strong([.text(Self.hostile)])]), .heading(level: 2, [.text(Self.hostile)])])
        let detail = ProductDetail(
            id: "espresso", name: Self.hostile, summary: Self.hostile, body: text, pictures: [Picture(image: Self.icon, alt: Self.hostile)],
            recipes: [RecipeRow(id: "x", name: Self.hostile, summary: Self.hostile, icon: Self.icon)], retailers: [])
        let html = try page(.product(detail), route: .product("espresso"))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;"))
        #expect(html.contains("alt=\"&lt;script&gt;"))
    }

    @Test func onlyWebAddressesBecomeLinks() throws {
        func retailer(_ web: String) -> RetailerRow {
            RetailerRow(id: "r", name: "R", logo: Self.icon, address: "A", phone: "+358 9 123 <b>", openingHours: "H", webAddress: web, sells: [])
        }
        let html = try page(.retailerList([retailer("javascript:alert(1)"), retailer("data:text/html,<script>x</script>"),
                                           retailer("https://www.example.fi")]), route: .retailers)
        #expect(!html.contains("href=\"javascript:") && !html.contains("href=\"data:"))
        #expect(html.contains("<p class=\"web\">javascript:alert(1)</p>"))
        #expect(html.contains("<a href=\"https://www.example.fi\" rel=\"noopener noreferrer\">"))
        #expect(html.contains("href=\"tel:+3589123\""))
    }
}

/// The templates' escaping is swift-mustache's, done faster: the same output for any text.
@Suite struct FastEscapingTests {
    @Test func theSameAsSwiftMustachesOwn() throws {
        let html = try MustacheTemplate(string: "{{value}}")
        let samples = ["", "plain", "Café Digno", "<script>alert('x')</script>", "a & b", "\"quoted\"", "<<&&>>", "ä<ö>å", "😀&😀", "e\u{301}<"]
        // And every string of up to three characters from the escaped ones and a few others.
        let alphabet = ["<", ">", "&", "\"", "'", "a", "é", "😀", "\n"]
        let short = alphabet.flatMap { a in alphabet.flatMap { b in alphabet.map { c in a + b + c } } }
        for sample in samples + alphabet + short {
            #expect(FastHTMLContentType.escape(sample) == html.render(["value": sample]), "\(sample)")
        }
    }
}
