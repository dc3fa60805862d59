import CatalogContent
import Foundation

/// What each diagnostic code means, in docs/DIAGNOSTICS.md's words: the file is embedded in the
/// compiler (linked beside this one), so the SARIF report carries each rule's documentation
/// from the one place it is written. Read from the table's rows, `| `code` | severity | what |`
/// (the first cell may list several codes).
package struct RuleDocumentation: Sendable {
    package struct Rule: Equatable, Sendable {
        package var code: DiagnosticCode
        /// `error`, `warning`, or what the table says (`error (exit 2)`).
        package var severity: String
        /// The table's words, as plain text (code spans and links undone).
        package var description: String

        /// The description's first clause, up to its first `;`, `:` or sentence end:
        /// `a content file over 4 MiB`.
        package var summary: String {
            var end = description.endIndex
            var depth = 0
            var index = description.startIndex
            while index < description.endIndex {
                let character = description[index]
                if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
                let next = description.index(after: index)
                if depth == 0, [";", ":", "."].contains(character), next == description.endIndex || description[next] == " " {
                    end = index
                    break
                }
                index = next
            }
            return String(description[..<end])
        }
    }

    /// The rules in DiagnosticCode's order.
    package let rules: [Rule]

    package static let shared = RuleDocumentation(markdown: String(decoding: PackageResources.DIAGNOSTICS_md, as: UTF8.self))

    init(markdown: String) {
        var found: [DiagnosticCode: Rule] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = Self.cells(of: line)
            guard cells.count >= 3 else { continue }
            // A row may document several codes: `name-too-long`, `summary-too-long`, …
            for name in Self.plain(cells[0]).split(separator: ",") {
                guard let code = DiagnosticCode(rawValue: name.trimmingCharacters(in: .whitespaces)), found[code] == nil else { continue }
                found[code] = Rule(code: code, severity: cells[1], description: Self.plain(cells[2]))
            }
        }
        rules = DiagnosticCode.allCases.compactMap { found[$0] }
    }

    package func rule(_ code: DiagnosticCode) -> Rule? {
        rules.first { $0.code == code }
    }

    /// A table row's cells, trimmed; `\|` is a bar inside a cell.
    private static func cells(of line: Substring) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in line.dropFirst().dropLast(line.hasSuffix("|") ? 1 : 0) {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        cells.append(current)
        return cells.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Markdown made plain: code spans lose their backticks, links keep their text.
    private static func plain(_ markdown: String) -> String {
        var text = markdown.replacingOccurrences(of: "`", with: "")
        while let open = text.range(of: "]("), let start = text[..<open.lowerBound].lastIndex(of: "["),
              let close = text[open.upperBound...].firstIndex(of: ")") {
            text = String(text[..<start]) + text[text.index(after: start)..<open.lowerBound] + text[text.index(after: close)...]
        }
        return text
    }
}
