/// The Levenshtein distance between `a` and `b` over characters, or nil when it is more than
/// `limit`: for suggesting the id or path a typo meant. Hand-written: no package here offers
/// one, and a suggestion for a mistyped id is worth twenty lines.
///
/// Only the cells within `limit` of the diagonal are computed, and it stops at the first row
/// whose every cell is over the limit, so a comparison with a small limit costs some dozens of
/// steps whatever the lengths: a missing image is compared with every image of its folder, and
/// a folder may hold 100,000.
package func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
    guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    let over = limit + 1  // any value over the limit; cells outside the band hold it
    var previous = [Int](repeating: over, count: b.count + 1)
    var current = previous
    for column in 0...min(b.count, limit) { previous[column] = column }
    for row in 1...a.count {
        let low = max(1, row - limit), high = min(b.count, row + limit)
        current[low - 1] = low == 1 && row <= limit ? row : over
        var rowMinimum = current[low - 1]
        for column in low...high {
            let substitution = previous[column - 1] + (a[row - 1] == b[column - 1] ? 0 : 1)
            let value = min(previous[column] + 1, current[column - 1] + 1, substitution, over)
            current[column] = value
            rowMinimum = min(rowMinimum, value)
        }
        // The next row reads one cell further right: outside this row's band, over the limit.
        if high < b.count { current[high + 1] = over }
        if rowMinimum > limit { return nil }
        swap(&previous, &current)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
}
