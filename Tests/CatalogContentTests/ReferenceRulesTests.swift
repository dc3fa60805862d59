import CatalogContent
import CatalogModel
import Testing

/// References to products and recipes: unknown ids, suggestions, and unloaded entities.
@Suite struct ReferenceRulesTests {
    // MARK: unknown-product

    @Test func anIngredientNamingAnUnknownProduct() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "Teetä", product: "tea")) } == [
            .error(.unknownProduct, .cafeLatte, .ingredient(2),
                   "ingredient names product 'tea', which does not exist; use the id of a file in products/")
        ])
    }

    @Test func sellsNamingAnUnknownProduct() {
        #expect(diagnostics { $0.retailers[0].sells.append("tea") } == [
            .error(.unknownProduct, .delingGroup, .sells(2),
                   "sells names product 'tea', which does not exist; use the id of a file in products/")
        ])
    }

    @Test func aPromotionLinkNamingAnUnknownProduct() {
        #expect(diagnostics { $0.home.promotions[0].link = .product("tea") } == [
            .error(.unknownProduct, .uutuus, .link,
                   "link names product 'tea', which does not exist; use the id of a file in products/")
        ])
    }

    @Test func aRichTextLinkNamingAnUnknownProductNamesTheLinkIndex() {
        // espresso's body already links to recipe cafe-latte: the new link is body.link[1].
        let tea = RichText.Block.paragraph([.text("Kokeile "), .link(.product("tea"), [.text("teetä")])])
        #expect(diagnostics { $0[product: "espresso"].body.blocks.append(tea) } == [
            .error(.unknownProduct, .espresso, .link(.body, 1),
                   "link names product 'tea', which does not exist; use the id of a file in products/")
        ])
    }

    // MARK: unknown-recipe

    @Test func aPromotionLinkNamingAnUnknownRecipe() {
        #expect(diagnostics { $0.home.promotions[0].link = .recipe("cafe-mocha") } == [
            .error(.unknownRecipe, .uutuus, .link,
                   "link names recipe 'cafe-mocha', which does not exist; use the id of a file in recipes/")
        ])
    }

    @Test func aMethodLinkNamingAnUnknownRecipe() {
        let mocha = RichText.Block.paragraph([.link(.recipe("cafe-mocha"), [.text("Mokka")])])
        #expect(diagnostics { $0[recipe: "cafe-au-lait"].method.blocks.append(mocha) } == [
            .error(.unknownRecipe, .cafeAuLait, .link(.method, 0),
                   "link names recipe 'cafe-mocha', which does not exist; use the id of a file in recipes/")
        ])
    }

    // MARK: Suggestions

    @Test func aNearMissProductIsSuggested() {
        #expect(diagnostics { $0.retailers[0].sells.append("espreso") } == [
            .error(.unknownProduct, .delingGroup, .sells(2),
                   "sells names product 'espreso', which does not exist; use the id of a file in products/ (did you mean 'espresso'?)")
        ])
    }

    @Test func aNearMissRecipeIsSuggested() {
        #expect(diagnostics { $0.home.promotions[0].link = .recipe("cafe-late") } == [
            .error(.unknownRecipe, .uutuus, .link,
                   "link names recipe 'cafe-late', which does not exist; use the id of a file in recipes/ (did you mean 'cafe-latte'?)")
        ])
    }

    @Test func theClosestOfSeveralIdsIsSuggested() {
        // cafe-au-lat is one edit from cafe-au-lait and more than two from cafe-latte.
        #expect(diagnostics { $0.home.promotions[0].link = .recipe("cafe-au-lat") }.map(\.message) == [
            "link names recipe 'cafe-au-lat', which does not exist; use the id of a file in recipes/ (did you mean 'cafe-au-lait'?)"
        ])
    }

    @Test func aFarMissGetsNoSuggestion() {
        let messages = diagnostics { $0.retailers[0].sells.append("green-tea") }.map(\.message)
        #expect(messages == ["sells names product 'green-tea', which does not exist; use the id of a file in products/"])
    }

    // MARK: Unloaded entities

    @Test func aReferenceToAnUnloadedProductIsNotUnknown() {
        let addTea: (inout Catalog) -> Void = { $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "Teetä", product: "tea")) }
        #expect(diagnostics(after: addTea, unloaded: [EntityReference(.product, "tea")]) == [])
        #expect(diagnostics(after: addTea, unloaded: [EntityReference(.recipe, "tea")]).map(\.code) == [.unknownProduct])
    }

    @Test func aReferenceToAnUnloadedRecipeIsNotUnknown() {
        let linkMocha: (inout Catalog) -> Void = { $0.home.promotions[0].link = .recipe("cafe-mocha") }
        #expect(diagnostics(after: linkMocha, unloaded: [EntityReference(.recipe, "cafe-mocha")]) == [])
        #expect(diagnostics(after: linkMocha, unloaded: [EntityReference(.product, "cafe-mocha")]).map(\.code) == [.unknownRecipe])
    }

    // MARK: Kinds that could not be read at all

    @Test func noReferenceToAKindThatCouldNotBeReadIsJudged() {
        // The products folder was refused: none loaded, and any id may be one of them.
        let lose: (inout Catalog) -> Void = {
            $0.products = []
            $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "Teetä", product: "tea"))
        }
        #expect(diagnostics(after: lose, unloaded: [EntityReference(.product)]) == [])
        #expect(diagnostics(after: lose).map(\.code) == [.noProducts] + Array(repeating: .unknownProduct, count: 6))
    }

    @Test func aKindThatCouldNotBeReadKeepsOtherKindsJudged() {
        let linkMocha: (inout Catalog) -> Void = {
            $0.home.promotions[0].link = .recipe("cafe-mocha")
            $0[recipe: "cafe-latte"].ingredients.append(Ingredient(text: "Teetä", product: "tea"))
        }
        #expect(diagnostics(after: linkMocha, unloaded: [EntityReference(.recipe)]).map(\.code) == [.unknownProduct])
        #expect(diagnostics(after: linkMocha, unloaded: [EntityReference(.product)]).map(\.code) == [.unknownRecipe])
    }
}
