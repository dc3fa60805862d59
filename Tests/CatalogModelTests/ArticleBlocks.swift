import Foundation

/// The code blocks of a DocC article and of the test that compiles them, for comparing the two.
/// Shared by CatalogModelTests and CatalogStoreTests (a link in the latter's folder).
enum ArticleBlocks {
    /// The blocks between lines `begin` and `end` (trimmed), each with its common indentation
    /// removed, in the file's order.
    static func blocks(in text: String, begin: String, end: String) -> [String] {
        var blocks: [String] = [], current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == begin {
                current = []
            } else if let lines = current, trimmed == end {
                let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
                blocks.append(lines.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
