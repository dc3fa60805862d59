@testable import BundleCompiler
import Testing

/// Paths and sort keys are ordered by their bytes, as C's `strcmp` would.
@Suite struct ByteKeysTests {
    @Test func ordersByBytesWithPrefixesFirst() {
        let names = ["b", "a", "ab", "", "é", "z", "products/x.xml", "products-old.xml", "a"]
        var keys = ByteKeys(capacity: names.count, averageLength: 4)
        for name in names { keys.append(name.utf8) }
        #expect(keys.count == names.count)
        let sorted = keys.sortedIndices { $0 < $1 }
        #expect(sorted.map { names[$0] } == ["", "a", "a", "ab", "b", "products-old.xml", "products/x.xml", "z", "é"])
        // Equal keys keep the order `tie` gives them.
        #expect(sorted.filter { names[$0] == "a" } == [1, 8])
        #expect(keys.sortedIndices { $0 > $1 }.filter { names[$0] == "a" } == [8, 1])
        #expect(sorted.map { names[$0] } == names.sorted(by: String.utf8Precedes))
    }
}
