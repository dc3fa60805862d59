import Foundation

extension Day {
    /// The day `date` falls on in `calendar`'s time zone, as a Gregorian date (a ``Day`` is
    /// always one, whatever calendar the user reads dates in); nil outside the years 1 to 9999.
    public init?(date: Date, calendar: Calendar = .current) {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        let parts = gregorian.dateComponents([.era, .year, .month, .day], from: date)
        guard parts.era == 1, let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Today in `calendar`'s time zone (default: the user's), the day whose promotions Etusivu
    /// shows. The one call here that reads the clock.
    public static func today(in calendar: Calendar = .current) -> Day? {
        Day(date: Date(), calendar: calendar)
    }
}
