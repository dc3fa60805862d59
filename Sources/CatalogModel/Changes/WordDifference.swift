/// A text change word by word, with the standard library's difference (Myers' algorithm).
enum WordDifference {
    /// The most words on a side to compare word by word; a longer text changes whole (the
    /// comparison's time grows with the product of the lengths where they differ much).
    static let wordLimit = 20_000

    /// `old` turned into `new` as runs of words kept, removed and added: the kept and removed
    /// runs joined give `old` back, the kept and added ones `new`.
    static func words(from old: String, to new: String) -> [CatalogChanges.Words] {
        let before = tokens(old), after = tokens(new)
        guard before.count <= wordLimit, after.count <= wordLimit else {
            return [CatalogChanges.Words(.removed, old), CatalogChanges.Words(.added, new)].filter { !$0.text.isEmpty }
        }
        let difference = after.difference(from: before)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var runs: [CatalogChanges.Words] = []
        func append(_ op: CatalogChanges.Words.Operation, _ text: Substring) {
            if let last = runs.last, last.op == op {
                runs[runs.count - 1].text += text
            } else {
                runs.append(CatalogChanges.Words(op, String(text)))
            }
        }
        var i = 0, j = 0
        while i < before.count || j < after.count {
            if i < before.count && removed.contains(i) {
                append(.removed, before[i])
                i += 1
            } else if j < after.count && inserted.contains(j) {
                append(.added, after[j])
                j += 1
            } else {
                // Kept: the same token on both sides.
                if j < after.count { append(.same, after[j]) }
                i += 1
                j += 1
            }
        }
        return runs
    }

    /// The text as tokens: runs of letters and digits, runs of whitespace, and each other
    /// character alone, so that a comma added after a word leaves the word the same.
    static func tokens(_ text: String) -> [Substring] {
        enum Class { case word, space, other }
        func kind(_ character: Character) -> Class {
            character.isLetter || character.isNumber ? .word : character.isWhitespace ? .space : .other
        }
        var tokens: [Substring] = []
        var start = text.startIndex
        var current: Class?
        var index = text.startIndex
        while index < text.endIndex {
            let next = kind(text[index])
            if let current, next != current || next == .other {
                tokens.append(text[start..<index])
                start = index
            }
            current = next
            index = text.index(after: index)
        }
        if start < text.endIndex { tokens.append(text[start..<text.endIndex]) }
        return tokens
    }
}
