import CatalogModel
import Foundation
import GRDB
import Testing

/// The catalogue rules run over a loaded bundle too.
@Suite struct CatalogBundleValidationTests {
    @Test func theShippedBundlePassesTheRules() throws {
        let bundle = try CatalogBundle(path: BundleFixtures.shipped)
        #expect(try bundle.validate(today: Day("2026-11-22")) == [])
        let catalog = try bundle.catalog()
        #expect(catalog.products.count == 3)
        #expect(catalog.recipes.count == 13)
        #expect(catalog.retailers.count == 5)
        #expect(catalog.home.promotions.count == 1)
    }

    @Test func aBundleThatBreaksARuleIsReported() throws {
        // A bundle edited by hand after it was built: a retailer that sells nothing. The
        // foreign keys still hold; only the 1..* rule is broken.
        let path = try BundleFixtures.damagedCopy(of: BundleFixtures.small) { _ in }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DELETE FROM retailer_products") }
        try queue.close()
        let issues = try CatalogBundle(path: path, trust: InMemoryTrustStore()).validate()
        #expect(issues.map(\.code) == [.retailerSellsNothing])
        #expect(issues.first?.entity == EntityReference(.retailer, "deling-group"))
    }
}
