import CatalogModel
import Foundation
import Testing

@Test func dayParsesAndPrints() {
    #expect(Day("2026-11-22")?.description == "2026-11-22")
    #expect(Day("2026-02-29") == nil)
    #expect(Day("2028-02-29") != nil)
    #expect(Day("26-11-22") == nil)
    #expect(Day("2026-11-22")! < Day("2026-12-01")!)
}

@Test func dayEncodesAsYearMonthDayAndDecodesBack() throws {
    let days = [Day("2026-11-22")!, Day("0999-01-05")!]
    let json = try JSONEncoder().encode(days)
    #expect(String(decoding: json, as: UTF8.self) == #"["2026-11-22","0999-01-05"]"#)
    #expect(try JSONDecoder().decode([Day].self, from: json) == days)
}

@Test(arguments: ["2026-13-01", "2026-02-30", "22.11.2026", "2026-11-22T10:00", ""])
func decodingABadDayThrows(_ text: String) throws {
    let json = Data(#"["\#(text)"]"#.utf8)
    let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode([Day].self, from: json) }
    guard case .dataCorrupted(let context) = error else {
        Issue.record("expected dataCorrupted, got \(String(describing: error))")
        return
    }
    #expect(context.debugDescription == "'\(text)' is not a day written YYYY-MM-DD")
}

/// `YYYY-MM-DD` has digits only: a sign is not a digit.
@Test(arguments: ["+026-11-22", "2026-+1-22", "2026-11-+2"])
func daySignedPartsAreRejected(_ text: String) {
    #expect(Day(text) == nil)
}

/// A moment is a day in a time zone: 22:30 UTC on 22 November is already the 23rd in Helsinki.
@Test func aDateIsTheDayOfItsCalendarsTimeZone() throws {
    let moment = try #require(ISO8601DateFormatter().date(from: "2026-11-22T22:30:00Z"))
    func calendar(_ identifier: Calendar.Identifier, _ zone: String) throws -> Calendar {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        return calendar
    }
    #expect(Day(date: moment, calendar: try calendar(.gregorian, "UTC")) == Day(year: 2026, month: 11, day: 22))
    #expect(Day(date: moment, calendar: try calendar(.gregorian, "Europe/Helsinki")) == Day(year: 2026, month: 11, day: 23))
    // A user reading dates in another calendar still gets the Gregorian day.
    #expect(Day(date: moment, calendar: try calendar(.buddhist, "Europe/Helsinki")) == Day(year: 2026, month: 11, day: 23))
    // Before the year 1 there is no Day.
    #expect(Day(date: Date(timeIntervalSinceReferenceDate: -64_000_000_000), calendar: try calendar(.gregorian, "UTC")) == nil)
    #expect(Day.today(in: try calendar(.gregorian, "UTC")) != nil)
}
