import CatalogContent
import CatalogModel
import Foundation
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
        let path = try BundleFixtures.edited(BundleFixtures.small, "DELETE FROM retailer_products")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let diagnostics = try CatalogBundle(path: path, trust: InMemoryTrustStore()).validate()
        #expect(diagnostics.map(\.code) == [.retailerSellsNothing])
        #expect(diagnostics.first?.entity == EntityReference(.retailer, "deling-group"))
    }

    /// A value only the whole catalogue reads (a promotion not shown on any day an app asks
    /// for) is a damaged bundle too, not a crash.
    @Test func aWrongValueOnlyTheCatalogueReadsIsADamagedBundle() throws {
        let path = try BundleFixtures.edited(BundleFixtures.small, "PRAGMA ignore_check_constraints = ON; UPDATE promotions SET first_day = '2026-13-01'")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reason = "its column 'first_day' holds '2026-13-01', not a day (YYYY-MM-DD)"
        #expect(throws: CatalogBundleError.damaged(path: path, reason: BundleFailure(.value, reason, column: "first_day"))) {
            try CatalogBundle(path: path, trust: TrustingStore()).catalog()
        }
    }
}

/// Trusts every file, so that a value SQLite's `quick_check` would refuse reaches the reading.
private struct TrustingStore: BundleTrustStore {
    func isVerified(_ identity: String) -> Bool { true }
    func markVerified(_ identity: String) {}
}
