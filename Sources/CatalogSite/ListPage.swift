import CatalogModel

/// Which page of a long list a screen shows: its number, counting from 1, and whether another
/// page follows.
package struct ListPage: Hashable, Sendable {
    package var number: Int
    package var hasNext: Bool

    package init(number: Int, hasNext: Bool) {
        self.number = number
        self.hasNext = hasNext
    }
}

extension Screen {
    /// How many rows a list screen holds; nil for other screens.
    package var listCount: Int? {
        switch content {
        case .productList(let rows): rows.count
        case .recipeList(let rows): rows.count
        case .retailerList(let rows): rows.count
        default: nil
        }
    }

    /// The screen with only the rows of a list at `range` (clamped to the rows there are);
    /// other screens as they are.
    package func listRows(_ range: Range<Int>) -> Screen {
        var screen = self
        func slice<Row>(_ rows: [Row]) -> [Row] { Array(rows[range.clamped(to: rows.indices)]) }
        switch content {
        case .productList(let rows): screen.content = .productList(slice(rows))
        case .recipeList(let rows): screen.content = .recipeList(slice(rows))
        case .retailerList(let rows): screen.content = .retailerList(slice(rows))
        default: break
        }
        return screen
    }

    /// A list screen holding all its rows as the pages of `size` rows a site shows, each with
    /// its `ListPage`; any other screen as its one page, with none. An empty list is one page.
    package func listPages(size: Int) -> [(screen: Screen, page: ListPage?)] {
        guard let count = listCount else { return [(self, nil)] }
        let pages = max(1, (count + size - 1) / size)
        return (1...pages).map { number in
            (listRows((number - 1) * size..<number * size), ListPage(number: number, hasNext: number < pages))
        }
    }
}
