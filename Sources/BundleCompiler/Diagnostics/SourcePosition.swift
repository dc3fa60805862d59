/// A place in a content file: line and column, counting from 1.
struct SourcePosition: Hashable, Sendable {
    var line: Int
    var column: Int?
}
