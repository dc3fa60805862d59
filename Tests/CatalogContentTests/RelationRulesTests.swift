import CatalogContent
import CatalogModel
import Testing

/// The 1..* relations: every product in a recipe, every recipe with a product, every retailer
/// selling one, and at least one of each kind; and how unloaded entities soften them.
@Suite struct RelationRulesTests {
    @Test func aProductNoRecipeUsesIsUnused() {
        let beans = Sample.product("coffee-beans", name: "Kahvipavut", body: "Kokonaisia papuja.")
        #expect(diagnostics { $0.products.append(beans); $0.retailers[0].sells.append("coffee-beans") } == [
            .error(.productUnused, EntityReference(.product, "coffee-beans"), nil,
                   "product 'coffee-beans' is not used by any recipe; every product needs at least one: add <ingredient product=\"coffee-beans\"> to a recipe that uses it")
        ])
    }

    @Test func aRecipeWithoutAProductLine() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients[0].product = nil } == [
            .error(.productUnused, .espresso, nil,
                   "product 'espresso' is not used by any recipe; every product needs at least one: add <ingredient product=\"espresso\"> to a recipe that uses it"),
            .error(.recipeWithoutProduct, .cafeLatte, nil,
                   "recipe 'cafe-latte' uses no Café Digno product; every recipe needs at least one: mark the ingredient that is one with product=\"<id>\""),
        ])
    }

    @Test func aRecipeWhoseOnlyProductIsUnknownIsReportedOnce() {
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients[0].product = "tea" }.map(\.code) == [
            .productUnused, .unknownProduct,
        ])
    }

    @Test func theProductAMistypedIngredientMeantIsNotAlsoUnused() {
        // 'espreso' is one letter from espresso, which no other recipe uses: the one error
        // names it, and correcting the id uses it again.
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients[0].product = "espreso" } == [
            .error(.unknownProduct, .cafeLatte, .ingredient(0),
                   "ingredient names product 'espreso', which does not exist; use the id of a file in products/ (did you mean 'espresso'?)"),
        ])
        // A far miss suggests nothing, so espresso is unused as before.
        #expect(diagnostics { $0[recipe: "cafe-latte"].ingredients[0].product = "tea" }.map(\.code) == [.productUnused, .unknownProduct])
    }

    @Test func aRetailerThatSellsNothing() {
        #expect(diagnostics { $0.retailers[0].sells = [] } == [
            .error(.retailerSellsNothing, .delingGroup, nil,
                   "retailer 'deling-group' sells no Café Digno product; every retailer sells at least one: add <sells product=\"<id>\"/> for each")
        ])
    }

    @Test func aCatalogueWithNoProductsRecipesOrRetailers() {
        let empty: (inout Catalog) -> Void = {
            $0.products = []
            $0.recipes = []
            $0.retailers = []
            $0.home.promotions = []
        }
        #expect(diagnostics(after: empty) == [
            .error(.noProducts, EntityReference(.product), nil, "there are no products; add at least one file products/<id>.xml"),
            .error(.noRecipes, EntityReference(.recipe), nil, "there are no recipes; add at least one file recipes/<id>.xml"),
            .error(.noRetailers, EntityReference(.retailer), nil, "there are no retailers; add at least one file retailers/<id>.xml"),
        ])
    }

    // MARK: Unloaded entities

    @Test func noRetailersIsNotReportedWhenARetailerIsUnloaded() {
        let removeRetailers: (inout Catalog) -> Void = { $0.retailers = [] }
        #expect(diagnostics(after: removeRetailers, unloaded: [.delingGroup]) == [])
        #expect(diagnostics(after: removeRetailers).map(\.code) == [.noRetailers])
    }

    @Test func noProductsIsNotReportedWhenTheProductsAreUnloaded() {
        let removeProducts: (inout Catalog) -> Void = { $0.products = [] }
        #expect(diagnostics(after: removeProducts, unloaded: [.espresso, .groundCoffee]) == [])
        #expect(diagnostics(after: removeProducts).first?.code == .noProducts)
    }

    @Test func noRecipesIsNotReportedWhenTheRecipesAreUnloaded() {
        let removeRecipes: (inout Catalog) -> Void = { $0.recipes = [] }
        #expect(diagnostics(after: removeRecipes, unloaded: [.cafeLatte, .cafeAuLait]) == [])
        #expect(diagnostics(after: removeRecipes).map(\.code).contains(.noRecipes))
    }

    @Test func noProductIsUnusedWhileARecipeIsUnloaded() {
        let removeCafeAuLait: (inout Catalog) -> Void = { $0.recipes.removeAll { $0.id == "cafe-au-lait" } }
        #expect(diagnostics(after: removeCafeAuLait, unloaded: [.cafeAuLait]) == [])
        #expect(diagnostics(after: removeCafeAuLait) == [
            .error(.productUnused, .groundCoffee, nil,
                   "product 'ground-coffee' is not used by any recipe; every product needs at least one: add <ingredient product=\"ground-coffee\"> to a recipe that uses it")
        ])
    }
}
