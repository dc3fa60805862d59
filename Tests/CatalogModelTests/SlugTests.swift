import CatalogModel
import Testing

@Suite struct SlugTests {
    @Test(arguments: ["a", "cafe-latte", "a1-b2", "2026", String(repeating: "a", count: 64), String(repeating: "ab-", count: 21) + "a"])
    func validSlug(_ text: String) {
        #expect(isValidSlug(text))
    }

    @Test(arguments: ["", "-a", "a-", "a--b", "Cafe", "café", "cafe\u{301}", String(repeating: "a", count: 65), "a_b", "a b", "a.b"])
    func invalidSlug(_ text: String) {
        #expect(!isValidSlug(text))
    }
}
