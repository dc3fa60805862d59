/// Two lists of lines aligned as a reader compares them: the lines kept in order (the longest
/// run common to both) are the same, the rest added or removed, each named by its line number
/// from 1 on its own side (`2: 30 g sokeria`). One line inserted is one addition, and the lines
/// after it stay the same, where a comparison by position would call each of them changed.
enum LineDifference {
    /// The lines added (numbered on the new side) and removed (on the old side).
    static func lines(from old: [String], to new: [String]) -> (added: [String], removed: [String]) {
        // Lines the same at both ends need no table; the rest is compared by the longest common
        // subsequence, which ingredient lists (tens of lines) keep small. Past a million cells
        // the middle is compared by position.
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var oldEnd = old.count, newEnd = new.count
        while oldEnd > start, newEnd > start, old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        let a = Array(old[start..<oldEnd]), b = Array(new[start..<newEnd])
        var keptOld = Set<Int>(), keptNew = Set<Int>()
        if a.count * b.count <= 1_000_000 {
            // lengths[i][j]: the longest common run of a[i...] and b[j...].
            var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < a.count, j < b.count {
                if a[i] == b[j] {
                    keptOld.insert(i)
                    keptNew.insert(j)
                    i += 1
                    j += 1
                } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                    i += 1
                } else {
                    j += 1
                }
            }
        } else {
            for index in 0..<min(a.count, b.count) where a[index] == b[index] {
                keptOld.insert(index)
                keptNew.insert(index)
            }
        }
        let added = b.indices.filter { !keptNew.contains($0) }.map { "\(start + $0 + 1): \(b[$0])" }
        let removed = a.indices.filter { !keptOld.contains($0) }.map { "\(start + $0 + 1): \(a[$0])" }
        return (added, removed)
    }
}
