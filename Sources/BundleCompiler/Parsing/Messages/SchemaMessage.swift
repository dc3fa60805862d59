/// libxml2's schema-validation messages in the words of someone who edits content: what is
/// wrong where, and what to write instead.
///
/// Written by hand: libxml2 has only its own wording ("Element 'body': This element is not
/// expected. Expected is ( summary )."), and reports a failed value by quoting a regular
/// expression or a type name. Its messages have a few fixed forms (xmlschemas.c); the names
/// and values are read out of them, and the words for a value come from the schema's own
/// documentation of the value's type (`SchemaDocumentation`), and for an element or attribute
/// that must be added, from its own documentation. A message of any other form is kept as
/// libxml2 wrote it.
extension LibXML {
    /// The message in words; nil for libxml2's "No precomputed value available" warning, which
    /// only follows another error about the same value and says nothing of its own. `parent`
    /// is the name of the element around the one the message is about, if any: it says which
    /// declaration of an expected element is meant (a product's `<name>` or a retailer's).
    /// `lineOfFirst` finds the line of the element beside it that was given an id first, for
    /// an id given twice.
    func readableSchemaMessage(_ message: String, parent: String?, lineOfFirst: (String) -> Int? = { _ in nil }) -> String? {
        if message.contains("Warning: No precomputed value available") { return nil }
        // Names in XML's own namespaces, as a file writes them: xml:lang, not {http://…}lang.
        // Looked for first: the replacements were a quarter of the time 300,000 messages took.
        let message = !message.contains("{http://www.w3.org/") ? message
            : message.replacingOccurrences(of: "{http://www.w3.org/XML/1998/namespace}", with: "xml:")
                .replacingOccurrences(of: "{http://www.w3.org/2001/XMLSchema-instance}", with: "xsi:")
                .replacingOccurrences(of: "{http://www.w3.org/2001/XMLSchema}", with: "xs:")
        guard let match = message.wholeMatch(of: SchemaMessageForm.element) else {
            return Self.unexplained(message)
        }
        let element = String(match.1)
        if let attribute = match.2, attribute.hasPrefix("xsi:") {
            // xsi:type and xsi:nil ask the schema to read an element another way.
            return Self.unusedAttribute(String(attribute), of: element)
        }
        let subject = match.2.map { "the attribute \($0) of <\(element)>" } ?? "<\(element)>"
        return explanation(of: String(match.3), element: element, parent: parent, subject: subject, lineOfFirst: lineOfFirst)
            ?? Self.unexplained(message)
    }

    /// The attribute a message is about, as a file writes it (`xml:lang`), when its value is
    /// what is refused: the diagnostic stands at the attribute rather than at its element.
    static func attributeName(inSchemaMessage message: String) -> String? {
        guard message.contains("', attribute '"), !message.contains("is not allowed"), !message.contains("is required but missing"),
              let match = message.wholeMatch(of: SchemaMessageForm.element), let attribute = match.2 else { return nil }
        return attribute.replacingOccurrences(of: "{http://www.w3.org/XML/1998/namespace}", with: "xml:")
    }

    /// A message of no form known here, as libxml2 wrote it.
    static func unexplained(_ message: String) -> String {
        "does not match the schema: \(message)"
    }

    private func explanation(
        of body: String, element: String, parent: String?, subject: String, lineOfFirst: (String) -> Int?
    ) -> String? {
        if let match = body.wholeMatch(of: SchemaMessageForm.duplicateKey) {
            // The schema's one uniqueness rule: a tab section's id.
            let first = lineOfFirst(String(match.1)).map { ", here and at line \($0)" } ?? ""
            return "<\(element)> '\(match.1)' is listed twice\(first); list each once"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.notExpected) {
            let expected = match.1.map { expectedElements($0, in: parent) }
            guard documentation.elementNames.contains(element) else {
                if element.lowercased() != element, documentation.elementNames.contains(element.lowercased()) {
                    return "the content format has no element <\(element)>; element names are lower case: write <\(element.lowercased())> (and </\(element.lowercased())>)"
                }
                return "the content format has no element <\(element)>"
                    + (expected.map { "; the next element here must be \($0): remove it, or correct its name" } ?? ": remove it, or correct its name")
            }
            guard let expected else { return "<\(element)> is not expected here: there is one too many of it, or it is out of place" }
            return "<\(element)> is not expected here; the next element must be \(expected): add it if it is missing, or correct the order"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.missingChild) {
            return "<\(element)> lacks what must come next, \(expectedElements(match.2, in: element)); add \(match.1 == nil ? "it" : "one")"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.attributeNotAllowed) {
            let lowered = match.1.lowercased()
            if lowered != match.1, documentation.meaning(ofAttribute: lowered, of: element) != nil {
                return "<\(element)> has no attribute \(match.1); attribute names are lower case: write \(lowered)"
            }
            return "<\(element)> has no attribute \(match.1); remove it, or correct its name"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.attributeMissing) {
            let meaning = documentation.meaning(ofAttribute: String(match.1), of: element).map { " (\(Self.lowercasingFirst($0)))" } ?? ""
            return "<\(element)> needs the attribute \(match.1)\(meaning); add \(match.1)=\"…\""
        }
        if body == "The element is not 'nillable'." {
            return Self.unusedAttribute("xsi:nil", of: element)
        }
        // The second form for a text with attributes (a translatable text: xml:lang, translate).
        if body == "Element content is not allowed, because the type definition is simple."
            || body == "Element content is not allowed, because the content type is a simple type definition." {
            return "<\(element)> holds an element, where only plain text may go; remove the tags inside it and keep their text"
        }
        if body == "Character content is not allowed, because the content type is empty." {
            return "<\(element)> takes nothing inside, not even a space or a line break; write it as one tag, <\(element) …/>"
        }
        if body == "Element content is not allowed, because the content type is empty." {
            return "<\(element)> holds an element, and takes nothing inside; write it as one tag, <\(element) …/>"
        }
        if body.hasPrefix("Character content other than whitespace is not allowed") {
            return "<\(element)> holds text of its own, where only elements may go; put the text inside the element it belongs to (in a body, a <p>), or remove it"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.localAtomicType), subject.hasPrefix("the attribute xml:lang"),
            let meaning = documentation.typeMeanings["LanguageCode"] {
            // xml.xsd's own type for xml:lang: the language codes' words, as for <language code>.
            let value = String(match.1)
            let meant = value.replacingOccurrences(of: "_", with: "-")
            let hint = meant != value && meant.wholeMatch(of: /[a-z]{2,3}(-[A-Z]{2})?/) != nil ? " (did you mean '\(meant)'?)" : ""
            return value.isEmpty ? "\(subject) is empty; write \(Self.lowercasingFirst(meaning))"
                : "\(subject) holds '\(value)', which is not accepted; write \(Self.lowercasingFirst(meaning))\(hint)"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.atomicType),
            let meaning = documentation.typeMeanings[String(match.2)] {
            return Self.dayMessage(subject, String(match.1), type: String(match.2))
                ?? "\(subject) holds '\(match.1)', which is not accepted; write \(Self.lowercasingFirst(meaning))"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.pattern),
            let meaning = documentation.patternMeanings[String(match.2)] {
            let type = documentation.typeMeanings.first { $0.value == meaning }?.key ?? ""
            return Self.dayMessage(subject, String(match.1), type: type)
                ?? "\(subject) holds '\(match.1)', which is not accepted; write \(Self.lowercasingFirst(meaning))"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.enumeration) {
            let allowed = match.2.split(separator: ", ").map { $0.trimmingCharacters(in: ["'"]) }.joined(separator: ", ")
            return "\(subject) holds '\(match.1)', which is not accepted; write one of: \(allowed)"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.maxInclusive) {
            return "\(subject) holds \(match.1), which is more than the most allowed, \(match.2)"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.minInclusive) {
            return "\(subject) holds \(match.1), which is less than the least allowed, \(match.2)"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.maxLength) {
            return "\(subject) is \(match.1) characters long; the limit is \(match.2)"
        }
        if let match = body.wholeMatch(of: SchemaMessageForm.minLength) {
            return match.1 == "0" ? "\(subject) is empty; write it" : "\(subject) is \(match.1) characters long; it must be at least \(match.2)"
        }
        return nil
    }

    /// For a value refused as a day, what is wrong with it first: a well-formed one that is no
    /// day (`2026-11-31`: November 2026 has 30 days), or a Finnish one written as the format
    /// wants it (`1.12.2026`: write 2026-12-01). Nil for any other value, or another type.
    static func dayMessage(_ subject: String, _ value: String, type: String) -> String? {
        guard type == "Day" || type == "xs:date" else { return nil }
        func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        if let match = value.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/), let year = Int(match.1), let month = Int(match.2), let day = Int(match.3) {
            guard (1...12).contains(month) else {
                return "\(subject) holds '\(value)', which is no day: there is no month \(month) (the month comes second, as in 2026-12-01); write the day as YYYY-MM-DD"
            }
            let days = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
            guard day > days || day == 0 else { return nil }
            return "\(subject) holds '\(value)', which is no day: \(names[month - 1]) \(year) has \(days) days; write a day that exists, such as \(match.1)-\(match.2)-\(days)"
        }
        if let match = value.wholeMatch(of: /(\d{1,2})\.(\d{1,2})\.(\d{4})/), let day = Int(match.1), let month = Int(match.2),
           (1...12).contains(month), (1...31).contains(day) {
            return "\(subject) holds '\(value)', a day written the Finnish way; these files write it year first, YYYY-MM-DD: \(match.3)-\(twoDigits(month))-\(twoDigits(day))"
        }
        return nil
    }

    private static func unusedAttribute(_ attribute: String, of element: String) -> String {
        "<\(element)> has the attribute \(attribute), which content files do not use; remove it"
    }

    /// `em, strong, link` as `<em>, <strong> or <link>`; a single element with what it is,
    /// inside `owner`: `<summary> (the short description under the product's name, …)`.
    private func expectedElements(_ names: Substring, in owner: String?) -> String {
        // A text element the schema lets repeat for its translations (`<body xml:lang="sv">`)
        // is expected again after it: said as a translation, after what comes next.
        // libxml2 lists the expected elements in the order of the content model, so the one
        // just written, which may repeat, comes first.
        let all = names.split(separator: ", ")
        let repeated = all.count > 1 && Self.translatedTexts.contains(String(all[0])) ? all[0] : nil
        let next = repeated == nil ? all : Array(all.dropFirst())
        let translations = repeated.map { ", or a translation of <\($0)> (with xml:lang)" } ?? ""
        let elements = next.map { "<\($0)>" }
        guard elements.count < 2 else { return elements.dropLast().joined(separator: ", ") + " or " + elements.last! + translations }
        guard let owner, let meaning = documentation.meaning(ofElement: next.joined(), in: owner) else { return elements.joined() + translations }
        return "\(elements.joined()) (\(Self.lowercasingFirst(meaning)))" + translations
    }

    /// The elements of text that are translated by repeating them with `xml:lang`, and are
    /// never optional the first time (`<info>` is, so it stays a plain next element).
    private static let translatedTexts: Set<String> = ["name", "summary", "title", "text", "hours", "body", "method"]

    private static func lowercasingFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}

/// The forms of libxml2's schema messages, each parsed once: a regex literal is parsed again
/// each time it is evaluated, which was most of the time a file with 260,000 schema errors
/// took. Shared by every thread: `Regex` is not `Sendable`, but matching never changes one,
/// and the one thing made on first use, its program for the matching engine, is stored with
/// an atomic compare-and-swap (swift-experimental-string-processing, `Regex.Program`).
private enum SchemaMessageForm {
    nonisolated(unsafe) static let element = /Element '([^']+)'(?:, attribute '([^']+)')?: (.*)/.dotMatchesNewlines()
    nonisolated(unsafe) static let duplicateKey = /Duplicate key-sequence \['(.*)'\] in unique identity-constraint '.*'\./
    nonisolated(unsafe) static let notExpected = /This element is not expected\.(?: Expected is (?:one of )?\( (.+) \)\.)?/
    nonisolated(unsafe) static let missingChild = /Missing child element\(s\)\. Expected is (one of )?\( (.+) \)\./
    nonisolated(unsafe) static let attributeNotAllowed = /The attribute '([^']+)' is not allowed\./
    nonisolated(unsafe) static let attributeMissing = /The attribute '([^']+)' is required but missing\./
    nonisolated(unsafe) static let atomicType = /'(.*)' is not a valid value of the atomic type '([^']+)'\./.dotMatchesNewlines()
    nonisolated(unsafe) static let localAtomicType = /'(.*)' is not a valid value of the local atomic type\./.dotMatchesNewlines()
    nonisolated(unsafe) static let pattern = /\[facet 'pattern'\] The value '(.*)' is not accepted by the pattern '(.*)'\./.dotMatchesNewlines()
    nonisolated(unsafe) static let enumeration = /\[facet 'enumeration'\] The value '(.*)' is not an element of the set \{(.*)\}\./.dotMatchesNewlines()
    nonisolated(unsafe) static let maxInclusive = /\[facet 'maxInclusive'\] The value '(.*)' is greater than the maximum value allowed \('(.*)'\)\./
    nonisolated(unsafe) static let minInclusive = /\[facet 'minInclusive'\] The value '(.*)' is less than the minimum value allowed \('(.*)'\)\./
    nonisolated(unsafe) static let maxLength = /\[facet 'maxLength'\] The value (?:'.*' )?has a length of '(\d+)'; this exceeds the allowed maximum length of '(\d+)'\./.dotMatchesNewlines()
    nonisolated(unsafe) static let minLength = /\[facet 'minLength'\] The value (?:'.*' )?has a length of '(\d+)'; this underruns the allowed minimum length of '(\d+)'\./.dotMatchesNewlines()
}
