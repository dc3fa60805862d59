import CatalogModel

/// A text change word by word, with the standard library's difference (Myers' algorithm).
enum WordDifference {
    /// The most tokens, both sides together, between the common start and end that are
    /// compared token by token: the difference's time and memory grow with the square of the
    /// changes, so beyond this the middle is shown replaced whole (at most some 30 MB).
    static let middleLimit = 2_000

    /// `old` turned into `new` as runs of words kept, removed and added: the kept and removed
    /// runs joined give `old` back, the kept and added ones `new`.
    static func words(from old: String, to new: String) -> [CatalogChanges.Words] {
        let before = tokens(old), after = tokens(new)
        // The common start and end first: most edits are a few words in a long text.
        var start = 0
        while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
        var end = 0
        while end < before.count - start, end < after.count - start, before[before.count - 1 - end] == after[after.count - 1 - end] { end += 1 }
        let oldMiddle = before[start..<(before.count - end)], newMiddle = after[start..<(after.count - end)]
        var runs: [CatalogChanges.Words] = []
        func append(_ op: CatalogChanges.Words.Operation, _ text: Substring) {
            guard !text.isEmpty else { return }
            if let last = runs.last, last.op == op {
                runs[runs.count - 1].text += text
            } else {
                runs.append(CatalogChanges.Words(op, String(text)))
            }
        }
        for token in before[..<start] { append(.same, token) }
        if oldMiddle.count + newMiddle.count > middleLimit {
            // Too different to compare word by word in bounded time and memory: replaced whole.
            for token in oldMiddle { append(.removed, token) }
            for token in newMiddle { append(.added, token) }
        } else {
            let difference = Array(newMiddle).difference(from: Array(oldMiddle))
            var removed = Set<Int>(), inserted = Set<Int>()
            for change in difference {
                switch change {
                case .remove(let offset, _, _): removed.insert(offset)
                case .insert(let offset, _, _): inserted.insert(offset)
                }
            }
            let oldTokens = Array(oldMiddle), newTokens = Array(newMiddle)
            var i = 0, j = 0
            while i < oldTokens.count || j < newTokens.count {
                if i < oldTokens.count && removed.contains(i) {
                    append(.removed, oldTokens[i])
                    i += 1
                } else if j < newTokens.count && inserted.contains(j) {
                    append(.added, newTokens[j])
                    j += 1
                } else {
                    // Kept: the same token on both sides.
                    if j < newTokens.count { append(.same, newTokens[j]) }
                    i += 1
                    j += 1
                }
            }
        }
        for token in after[(after.count - end)...] { append(.same, token) }
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
