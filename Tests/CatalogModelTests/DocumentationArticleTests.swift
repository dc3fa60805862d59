import CatalogModel
import Foundation
import Testing

/// The code of the DocC article "Showing the catalogue in an app"
/// (`Sources/CatalogModel/Documentation.docc/ShowingTheCatalogue.md`), compiled and run here
/// against the bundle of the shipped content. Each block of the article is here between
/// `// article: begin` and `// article: end`, and `theArticleShowsThisCode` fails when the two
/// differ, so the article cannot show code that does not build or does not do what it says.
@Suite struct DocumentationArticleTests {
    static let article = BundleFixtures.repository.appendingPathComponent("Sources/CatalogModel/Documentation.docc/ShowingTheCatalogue.md")
    static let thisFile = URL(fileURLWithPath: #filePath)

    // article: begin
    func openCatalogue(at path: String) -> CatalogBundle? {
        do {
            return try CatalogBundle(path: path)
        } catch CatalogBundleError.newerSchema {
            return nil  // made for a newer app: keep the bundle you have, and suggest an update
        } catch {
            print("the catalogue cannot be read: \(error)")  // fileMissing, notABundle or damaged
            return nil
        }
    }
    // article: end

    // article: begin
    func spoken(_ text: String, in language: String) -> AttributedString {
        var spoken = AttributedString(text)
        spoken.languageIdentifier = language  // the voice VoiceOver reads it with
        return spoken
    }
    // article: end

    func readInTheReadersLanguage(_ bundle: CatalogBundle) throws {
        // article: begin
        let reader = bundle.reading(in: Locale.preferredLanguages)
        if let latte = try reader.recipe("cafe-latte") {
            let name = spoken(latte.name, in: latte.languages[.name])  // Text(name)
            for line in latte.ingredients where line.languages.isFallback(.text) {
                print("not translated into \(reader.language):", line.text)
            }
            print(name.languageIdentifier ?? "", latte.languages.fallbacks)  // "sv", [:] when all is translated
        }
        // article: end
        #expect(bundle.languages.contains(reader.language))
        let swedish = try #require(try bundle.reading(in: ["sv-FI"]).recipe("cafe-latte"))
        #expect(spoken(swedish.name, in: swedish.languages[.name]).languageIdentifier == "sv")
        #expect(swedish.languages.fallbacks.isEmpty && swedish.ingredients.allSatisfy { !$0.languages.isFallback(.text) })
    }

    @Test func theArticlesWalkThroughTheApp() throws {
        let bundle = try #require(openCatalogue(at: BundleFixtures.shipped))
        #expect(openCatalogue(at: "/nonexistent/catalog.sqlite") == nil)

        try readInTheReadersLanguage(bundle)

        // article: begin
        var state = NavigationState()  // the app starts on Etusivu
        let today = Day.today() ?? bundle.release.releaseDate
        var screen = try bundle.screen(for: state, today: today)
        for tab in screen.tabs {
            let icon = try bundle.image(tab.icon)  // PNG bytes, for UIImage(data:) or NSImage(data:)
            print(tab.title, tab.id == screen.selectedTab ? "(active)" : "", icon?.width ?? 0)
        }
        state.select(.products)
        screen = try bundle.screen(for: state, today: today)
        print(screen.navigationBar?.title ?? "")  // "Tuotteet"
        // article: end
        #expect(screen.navigationBar?.title == "Tuotteet")
        #expect(try screen.tabs.allSatisfy { try bundle.image($0.icon) != nil })

        // article: begin
        if case .productList(let rows) = screen.content {
            for row in rows {
                print(row.name, "—", row.summary)
            }
        }
        let firstPage = try bundle.recipeRows(offset: 0, limit: 20)
        // article: end
        #expect(firstPage.count == 13)

        // article: begin
        state.open(.product("espresso"))
        screen = try bundle.screen(for: state, today: today)
        print(screen.navigationBar?.backButton ?? "")  // "Tuotteet"
        if case .product(let product) = screen.content {
            for picture in product.pictures {
                print(picture.alt)  // the text VoiceOver reads; the bytes: bundle.image(picture.image)
            }
            for recipe in product.recipes {
                print(recipe.name)
            }
            if let link = product.body.links.first {
                state.open(Route(link))
            }
        }
        state.back()
        // article: end
        #expect(screen.navigationBar?.backButton == "Tuotteet")
        // Espresso's text links first to a recipe (Espresso): it opened in Kahvireseptit, and back led to its list.
        #expect(try bundle.product("espresso")?.body.links.first == .recipe("espresso"))
        #expect(state.selected == .recipes && state.current == .recipes)

        // article: begin
        func open(_ url: String, in state: inout NavigationState) -> Bool {
            guard let route = try? Route(parsing: url) else { return false }  // not one of ours
            state.open(route)
            return true
        }
        // article: end
        #expect(open("cafedigno://recipes/cafe-latte", in: &state) && state.current == .recipe("cafe-latte"))
        #expect(!open("https://example.com/", in: &state))
        #expect(open("cafedigno://products/no-such-product", in: &state))
        #expect(throws: ScreenError.route(.unknownProduct("no-such-product"))) { try bundle.screen(for: state, today: today) }
        state.back()

        let before = state
        // article: begin
        let saved = try JSONEncoder().encode(state)
        state = try JSONDecoder().decode(NavigationState.self, from: saved)
        // article: end
        #expect(state == before)

        // article: begin
        for hit in try bundle.search("cappu") {
            print(hit.name, hit.summary)
        }
        if let hit = try bundle.search("cappu").first {
            state.open(Route(hit.target))
        }
        // article: end
        #expect(state.current == .recipe("cappuccino"))

        // article: begin
        let icon: ImageID = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        let preview = Screen(
            route: .products,
            tabs: [SectionTab(id: .products, title: "Tuotteet", icon: icon)],
            navigationBar: NavigationBar(title: "Tuotteet", backButton: nil),
            content: .productList([ProductRow(id: "espresso", name: "Espresso", summary: "Tumma paahto", icon: icon)]))
        // article: end
        #expect(preview.selectedTab == .products)
    }

    // article: begin
    func load(_ state: NavigationState, from bundle: CatalogBundle) async throws -> Screen {
        try await bundle.screen(for: state, today: Day.today() ?? bundle.release.releaseDate)
    }
    // article: end

    // article: begin
    func hits(for text: String, in bundle: CatalogBundle) async -> [SearchHit]? {
        do {
            return try await bundle.search(text)
        } catch .cancelled {
            return nil  // the next keystroke's search takes over
        } catch {
            print("the catalogue cannot be read: \(error)")
            return []
        }
    }
    // article: end

    // article: begin
    @MainActor func searchInATask(_ text: String, in bundle: CatalogBundle, show: @escaping @MainActor ([SearchHit]) -> Void) -> Task<Void, Never> {
        Task {
            do throws(CatalogBundleError) {
                show(try await bundle.search(text))
            } catch .cancelled {
                // the next keystroke's search took over: nothing to show
            } catch {
                print("the catalogue cannot be read: \(error)")
            }
        }
    }
    // article: end

    /// What a view showed, on the main actor.
    @MainActor final class Shown {
        var hits: [SearchHit] = []
    }

    @Test func theArticlesAsyncLoad() async throws {
        let bundle = try CatalogBundle(path: BundleFixtures.shipped)
        var state = NavigationState()
        state.open(.recipe("cafe-latte"))
        let screen = try await load(state, from: bundle)
        #expect(screen.route == .recipe("cafe-latte") && screen.navigationBar?.backButton == "Kahvireseptit")
        #expect(await hits(for: "cappu", in: bundle)?.first?.target == .recipe("cappuccino"))
        // In a task cancelled before it reads: nil, not an error.
        let cancelled = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await hits(for: "cappu", in: bundle)
        }.value
        #expect(cancelled == nil)
        // The same search in a Task, as a view starts it: shown when it finishes.
        let shown = Shown()
        await searchInATask("cappu", in: bundle) { shown.hits = $0 }.value
        #expect(await shown.hits.first?.target == .recipe("cappuccino"))
    }

    @Test func theArticlesPictureIsTheScreensSize() async throws {
        let bundle = try CatalogBundle(path: BundleFixtures.shipped)
        let espresso = try #require(try await bundle.product("espresso")?.pictures.first)
        let renditions = try await bundle.renditions(of: espresso.image)
        // The 390-point picture on a 3× screen: the narrowest with 1170 pixels or more, else the widest.
        let chosen = try #require(ImageRendition.best(among: renditions, width: 390, scale: 3))
        let data = try #require(await pictureData(espresso, width: 390, scale: 3, in: bundle))
        let stored = try await bundle.image(chosen)
        #expect(stored?.bytes == data && stored?.id == chosen.id)
        #expect(chosen.width == (renditions.map(\.width).filter { $0 >= 1170 }.min() ?? renditions.map(\.width).max()))
    }

    @Test func theArticleShowsThisCode() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let code = try String(contentsOf: Self.thisFile, encoding: .utf8)
        let shown = ArticleBlocks.blocks(in: article, begin: "```swift", end: "```")
        let tested = ArticleBlocks.blocks(in: code, begin: "// article: begin", end: "// article: end")
        #expect(shown.count == 15)
        #expect(shown == tested, "the article's code and the code tested here differ; change both together")
    }
}

// The article's picture code: a function of the app's, and its SwiftUI view, which builds where
// SwiftUI and UIKit do (not on Linux, where the rest of the article is compiled and run).

// article: begin
func pictureData(_ picture: Picture, width: Double, scale: Double, in bundle: CatalogBundle) async -> Data? {
    do {
        return try await bundle.image(picture.image, width: width, scale: scale)?.bytes  // for UIImage(data:)
    } catch {
        return nil  // cancelled, or a damaged bundle: the screen's own read says which
    }
}
// article: end

#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import UIKit

// article: begin
struct PictureImage: View {
    let picture: Picture
    let bundle: CatalogBundle
    let width: Double
    @Environment(\.displayScale) private var scale
    @State private var image: UIImage?

    var body: some View {
        Group {
            if let image {
                Image(uiImage: image).resizable().scaledToFit()
            } else {
                Color.secondary.opacity(0.1).aspectRatio(4 / 3, contentMode: .fit)
            }
        }
        .frame(width: width)
        .accessibilityElement()
        .accessibilityLabel(Text(picture.alt))
        .task(id: picture.image) {
            image = await pictureData(picture, width: width, scale: scale, in: bundle).flatMap(UIImage.init(data:))
        }
    }
}
// article: end
#endif
