/// git's refusal, in its words; `conflicted`: a pull met the editor's changes and was undone.
struct GitFailure: Error, Sendable, CustomStringConvertible {
    var words: String
    var conflicted = false

    init(_ words: String, conflicted: Bool = false) {
        self.words = words
        self.conflicted = conflicted
    }

    var description: String { words }
}
