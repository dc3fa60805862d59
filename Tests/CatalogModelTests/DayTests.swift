import CatalogModel
import Testing

@Test func dayParsesAndPrints() {
    #expect(Day("2026-11-22")?.description == "2026-11-22")
    #expect(Day("2026-02-29") == nil)
    #expect(Day("2028-02-29") != nil)
    #expect(Day("26-11-22") == nil)
    #expect(Day("2026-11-22")! < Day("2026-12-01")!)
}
