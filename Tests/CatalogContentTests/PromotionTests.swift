import CatalogContent
import CatalogModel
import Testing

/// Promotion days: the order of first and last day, ended promotions and `isRunning(on:)`.
/// The sample promotion `uutuus` runs from 2026-11-01 to 2026-12-31.
@Suite struct PromotionTests {
    @Test func aFirstDayAfterTheLastDayIsAnError() {
        let swapDays: (inout Catalog) -> Void = {
            $0.home.promotions[0].firstDay = day("2026-12-31")
            $0.home.promotions[0].lastDay = day("2026-11-01")
        }
        #expect(diagnostics(after: swapDays) == [
            .error(.promotionDates, .uutuus, nil, "first-day 2026-12-31 is after last-day 2026-11-01; correct one of them")
        ])
        // The dates error alone, not also an ended warning.
        #expect(diagnostics(after: swapDays, today: day("2027-01-01")).map(\.code) == [.promotionDates])
    }

    @Test func aOneDayPromotionIsFine() {
        #expect(diagnostics { $0.home.promotions[0].lastDay = day("2026-11-01") } == [])
    }

    @Test func aPromotionThatEndedBeforeTodayIsAWarning() {
        #expect(diagnostics(after: { _ in }, today: day("2027-01-01")) == [
            .warning(.promotionEnded, .uutuus, nil, "promotion 'uutuus' ended on 2026-12-31; remove it or move its last-day")
        ])
    }

    @Test func aPromotionOnItsLastDayHasNotEnded() {
        #expect(diagnostics(after: { _ in }, today: day("2026-12-31")) == [])
    }

    @Test func aPromotionNotYetStartedHasNotEnded() {
        #expect(diagnostics(after: { _ in }, today: day("2026-10-01")) == [])
    }

    @Test func withoutTodayNoPromotionHasEnded() {
        #expect(diagnostics(after: { $0.home.promotions[0].lastDay = day("2000-01-01"); $0.home.promotions[0].firstDay = day("2000-01-01") }) == [])
    }

    @Test func isRunningIncludesTheFirstAndTheLastDay() {
        let promotion = Sample.promotion
        #expect(!promotion.isRunning(on: day("2026-10-31")))
        #expect(promotion.isRunning(on: day("2026-11-01")))
        #expect(promotion.isRunning(on: day("2026-11-22")))
        #expect(promotion.isRunning(on: day("2026-12-31")))
        #expect(!promotion.isRunning(on: day("2027-01-01")))
    }
}
