import CatalogContent
import CatalogModel
import Testing

@Suite struct RecipeTests {
    @Test func productIDsAreInIngredientOrderEachOnce() {
        var recipe = Sample.catalog[recipe: "cafe-latte"]
        recipe.ingredients = [
            Ingredient(text: "Suodatinkahvia", product: "ground-coffee"),
            Ingredient(text: "Maitoa"),
            Ingredient(text: "Espressoa", product: "espresso"),
            Ingredient(text: "Lisää suodatinkahvia", product: "ground-coffee"),
        ]
        #expect(recipe.productIDs == ["ground-coffee", "espresso"])
    }

    @Test func aRecipeWithoutProductLinesHasNoProductIDs() {
        var recipe = Sample.catalog[recipe: "cafe-latte"]
        recipe.ingredients = [Ingredient(text: "Maitoa")]
        #expect(recipe.productIDs == [])
    }
}
