import BundleCompiler
import Foundation
import Testing

/// docs/EDITING.md, applied as an editor would follow it: its examples, in order, on a copy of
/// `content/`, with the built `digno`. Each example is marked by an HTML comment just before
/// it, which Markdown does not show:
///
/// - `<!-- check: write PATH -->` then a block: the whole file at `content/PATH`.
/// - `<!-- check: replace PATH -->` then a block: an element of the file, put in place of the
///   first one with the same name (and the same `id`, if it has one); a start tag alone replaces
///   only the start tag.
/// - `<!-- check: try replace PATH -->`: the same, undone after the next `expect`.
/// - `<!-- check: picture PATH WIDTHxHEIGHT -->`: a picture the guide tells the editor to add
///   (the guide cannot hold it), made here: a PNG of one colour, each of its own.
/// - `<!-- check: expect validate -->` then a block: exactly what `digno validate content`
///   prints; `<!-- check: expect build -->`: what `digno build` prints, the bundle's size and
///   the time it took aside; `<!-- check: expect digno ARGUMENTS -->`: what that command prints,
///   or how its output begins when the block's last line is `…`.
/// - `<!-- check: run ARGUMENTS | TEXT -->`: a command the guide names succeeds, and its output
///   holds TEXT.
///
/// Every `xml` block in the guide must be one of these, so no example goes unchecked.
@Suite struct EditingGuideTests {
    static let guide = DignoRunner.repository.appendingPathComponent("docs/EDITING.md")
    /// Promotions are judged against this day, so that the reports do not change with the date.
    static let today = "2026-11-23"

    struct Step {
        var words: [String]
        var body: String?
        var line: Int
    }

    @Test func everyExampleHoldsWhenFollowedInOrder() throws {
        let steps = try Self.steps(of: String(contentsOf: Self.guide, encoding: .utf8))
        #expect(steps.filter { $0.words.first == "expect" }.count >= 8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("editing-guide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = folder.appendingPathComponent("content")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)

        var undo: [(URL, Data)] = []
        var recorded: [(line: Int, output: String)] = []
        defer { if Self.recording { Self.record(recorded) } }
        var pictures: UInt64 = 0
        for step in steps {
            let place = "docs/EDITING.md:\(step.line)"
            var words = step.words
            let trial = words.first == "try"
            if trial { words.removeFirst() }
            switch (words.first, words.count) {
            case ("write", 2):
                let file = content.appendingPathComponent(words[1])
                try Data((step.body ?? "").utf8).write(to: file)
            case ("replace", 2):
                let file = content.appendingPathComponent(words[1])
                let before = try Data(contentsOf: file)
                if trial { undo.append((file, before)) }
                let replaced = try #require(Self.replacingElement(in: String(decoding: before, as: UTF8.self), with: step.body ?? ""),
                                            "\(place): no element in \(words[1]) to replace with this example")
                try Data(replaced.utf8).write(to: file)
            case ("picture", 3):
                let size = words[2].split(separator: "x").compactMap { Int($0) }
                try #require(size.count == 2, "\(place): a picture's size is WIDTHxHEIGHT")
                pictures += 1
                try PNGTile.make(width: size[0], height: size[1], seed: pictures).write(to: content.appendingPathComponent(words[1]))
            case ("expect", 2) where words[1] == "validate":
                let outcome = try DignoRunner.run(["validate", "content", "--today", Self.today], in: folder)
                if Self.recording { recorded.append((step.line, outcome.output)) }
                #expect(outcome.output == step.body, "\(place): the guide shows another report than digno prints:\n\(outcome.output)")
                // The summary line; the languages' coverage may follow it.
                let summary = outcome.output.split(separator: "\n").first { $0.contains(" error") && $0.contains(" warning") } ?? ""
                #expect(outcome.status == (summary.hasPrefix("0 errors") ? 0 : 1), "\(place): exit status \(outcome.status)")
                for (file, data) in undo { try data.write(to: file) }
                undo = []
            case ("expect", _) where words.count > 2 && words[1] == "digno":
                let outcome = try DignoRunner.run(Array(words.dropFirst(2)), in: folder)
                #expect(outcome.status == 0, "\(place): \(outcome.errors)")
                let shown = step.body ?? ""
                if shown.hasSuffix("\n…\n") {
                    #expect(outcome.output.hasPrefix(String(shown.dropLast(2))), "\(place): the output begins otherwise:\n\(outcome.output)")
                } else {
                    #expect(outcome.output == shown, "\(place): the output differs:\n\(outcome.output)")
                }
            case ("run", _) where words.contains("|"):
                let bar = try #require(words.firstIndex(of: "|"))
                let outcome = try DignoRunner.run(Array(words[1..<bar]), in: folder)
                #expect(outcome.status == 0, "\(place): \(outcome.errors)")
                let text = words[(bar + 1)...].joined(separator: " ")
                #expect(outcome.output.contains(text), "\(place): no '\(text)' in:\n\(outcome.output)")
            case ("expect", 2) where words[1] == "build":
                let outcome = try DignoRunner.run(["build"], in: folder)
                #expect(outcome.status == 0, "\(place): \(outcome.errors)")
                #expect(Self.sizeAndTimeAside(outcome.output) == Self.sizeAndTimeAside(step.body ?? ""),
                        "\(place): the guide shows another summary than digno prints:\n\(outcome.output)")
            default:
                Issue.record("\(place): unknown check '\(step.words.joined(separator: " "))'")
            }
        }
        #expect(undo.isEmpty, "a 'try' with no 'expect' after it")
    }

    /// With `DIGNO_RECORD_GUIDE=1`, each `expect validate` block is rewritten with what
    /// `digno validate` printed there: for a change of wording or of the shipped content. Read
    /// the difference before committing it.
    static var recording: Bool { ProcessInfo.processInfo.environment["DIGNO_RECORD_GUIDE"] == "1" }

    static func record(_ outputs: [(line: Int, output: String)]) {
        guard var lines = try? String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n") else { return }
        for (line, output) in outputs.sorted(by: { $0.line > $1.line }) {
            // The check is at `line` (from 1); its block opens on the next line that starts a fence.
            guard let open = lines[line...].firstIndex(where: { $0.hasPrefix("```") }),
                  let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else { continue }
            var body = output.components(separatedBy: "\n")
            if body.last == "" { body.removeLast() }
            lines.replaceSubrange((open + 1)..<close, with: body)
        }
        try? lines.joined(separator: "\n").write(to: guide, atomically: true, encoding: .utf8)
    }

    /// The guide's checks in order, each with the fenced block that follows it when its verb
    /// takes one. Also records an issue for any `xml` block that no check claims.
    static func steps(of markdown: String) throws -> [Step] {
        let lines = markdown.components(separatedBy: "\n")
        var steps: [Step] = []
        var index = 0
        var pending: Step?
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("<!-- check:") && trimmed.hasSuffix("-->") {
                if let waiting = pending { Issue.record("docs/EDITING.md:\(waiting.line): no block after the check") }
                let words = trimmed.dropFirst("<!-- check:".count).dropLast("-->".count).split(separator: " ").map(String.init)
                let step = Step(words: words, body: nil, line: index + 1)
                if words.first == "picture" || words.first == "run" { steps.append(step) } else { pending = step }
                index += 1
                continue
            }
            if trimmed.hasPrefix("```") {
                let indent = lines[index].prefix { $0 == " " }.count
                let language = trimmed.dropFirst(3)
                var body: [String] = []
                index += 1
                while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    body.append(String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
                    index += 1
                }
                index += 1
                if var step = pending {
                    step.body = body.joined(separator: "\n") + "\n"
                    steps.append(step)
                    pending = nil
                } else if language == "xml" {
                    Issue.record("docs/EDITING.md: an xml example no check claims, before line \(index)")
                }
                continue
            }
            if !trimmed.isEmpty, let waiting = pending {
                Issue.record("docs/EDITING.md:\(waiting.line): text between a check and its block")
                pending = nil
            }
            index += 1
        }
        return steps
    }

    /// `text` with the element that `snippet` shows replaced by it: the first element of the
    /// snippet's name (and `id`, if the snippet has one). Nil if there is none.
    static func replacingElement(in text: String, with snippet: String) -> String? {
        let snippet = snippet.trimmingCharacters(in: .whitespacesAndNewlines)
        guard snippet.hasPrefix("<"), let nameEnd = snippet.dropFirst().firstIndex(where: { $0 == " " || $0 == ">" || $0 == "/" }) else { return nil }
        let name = String(snippet[snippet.index(after: snippet.startIndex)..<nameEnd])
        guard let snippetTagEnd = snippet.firstIndex(of: ">") else { return nil }
        let snippetTag = snippet[...snippetTagEnd]
        let id = snippetTag.range(of: #"\bid="[^"]*""#, options: .regularExpression).map { String(snippetTag[$0]) }
        let startTagOnly = !snippetTag.hasSuffix("/>") && !snippet.contains("</")

        var searchFrom = text.startIndex
        while let start = text.range(of: "<" + name, range: searchFrom..<text.endIndex) {
            searchFrom = start.upperBound
            guard let next = text[start.upperBound...].first, next == " " || next == ">" || next == "/" || next == "\n",
                  let tagEnd = text[start.upperBound...].firstIndex(of: ">") else { continue }
            let tag = text[start.lowerBound...tagEnd]
            if let id, !tag.contains(id) { continue }
            let end: String.Index
            if startTagOnly || tag.hasSuffix("/>") {
                end = text.index(after: tagEnd)
            } else {
                guard let close = text.range(of: "</\(name)>", range: tagEnd..<text.endIndex) else { return nil }
                end = close.upperBound
            }
            return text.replacingCharacters(in: start.lowerBound..<end, with: snippet)
        }
        return nil
    }

    /// A build's summary with its bundle size and time as `N`: both change with the compiler.
    static func sizeAndTimeAside(_ summary: String) -> String {
        summary.replacingOccurrences(of: #"\d+ bytes \(pictures \d+ %\) in \d+ ms"#, with: "N bytes (pictures N %) in N ms", options: .regularExpression)
            // The pictures' bytes, and how many came from the cache, which depends on earlier builds.
            .replacingOccurrences(of: #"\d+ bytes \(\d+ made, \d+ from the cache\)"#, with: "N bytes (N made, N from the cache)", options: .regularExpression)
    }

    @Test func replacingAnElementKeepsTheRestOfTheFile() {
        let file = "<a>\n  <b id=\"x\">1</b>\n  <b id=\"y\">2</b>\n  <c/>\n</a>\n"
        #expect(Self.replacingElement(in: file, with: "  <b id=\"y\">3</b>\n") == "<a>\n  <b id=\"x\">1</b>\n  <b id=\"y\">3</b>\n  <c/>\n</a>\n")
        #expect(Self.replacingElement(in: file, with: "<c d=\"1\"/>") == "<a>\n  <b id=\"x\">1</b>\n  <b id=\"y\">2</b>\n  <c d=\"1\"/>\n</a>\n")
        #expect(Self.replacingElement(in: file, with: "<a lang=\"fi\">") == "<a lang=\"fi\">\n  <b id=\"x\">1</b>\n  <b id=\"y\">2</b>\n  <c/>\n</a>\n")
        #expect(Self.replacingElement(in: file, with: "<d/>") == nil)
    }
}
