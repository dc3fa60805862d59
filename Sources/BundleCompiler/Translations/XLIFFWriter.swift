import CatalogContent
import CatalogModel
import Foundation

/// Translation units as XLIFF, the file translators' tools exchange: 1.2 (OASIS, which Xcode,
/// Lokalise and Weblate read) by default, 2.0 on request (Crowdin). Written by hand: no XLIFF
/// library is reachable here, and the files are a few elements deep. Deterministic: the same
/// units give the same bytes.
///
/// One unit per text, grouped by entity. A translated one is `approved="yes"` in 1.2. A
/// missing translation has no target (1.2: no `<target>`; 2.0: state `initial`); an outdated one is `needs-review-translation` (2.0:
/// `initial` with its target) with the source before kept beside it (1.2: `<alt-trans
/// alttranstype="previous-version">`; both: a note, which every tool shows). Rich text is one
/// unit whose form is inline codes (1.2: `<g ctype="x-p|x-h2|x-ul|x-ol|x-li|italic|bold|link">`;
/// 2.0: `<pc>`; `XLIFFPiece`), numbered in document order, so that a translator moves words between them but
/// cannot change a link's target, which is not in the file: the import takes it from the
/// current source, code by code.
package enum XLIFFWriter {
    package enum Version: String, Sendable, CaseIterable {
        case v1_2 = "1.2"
        case v2_0 = "2.0"
    }

    package static func document(_ units: [TranslationUnit], version: Version, sourceLanguage: String, targetLanguage: String,
                                 original: String, tool: String) -> String {
        switch version {
        case .v1_2: xliff12(units, sourceLanguage: sourceLanguage, targetLanguage: targetLanguage, original: original, tool: tool)
        case .v2_0: xliff20(units, sourceLanguage: sourceLanguage, targetLanguage: targetLanguage, original: original)
        }
    }

    // MARK: - XLIFF 1.2

    static func xliff12(_ units: [TranslationUnit], sourceLanguage: String, targetLanguage: String, original: String, tool: String) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">"#,
            "  <file original=\"\(attribute(original))\" source-language=\"\(attribute(sourceLanguage))\" target-language=\"\(attribute(targetLanguage))\" datatype=\"xml\">",
            "    <header><tool tool-id=\"digno\" tool-name=\"digno\" tool-version=\"\(attribute(tool))\"/></header>",
            "    <body>",
        ]
        for group in groups(units) {
            let first = group[0]
            lines.append("      <group id=\"\(TranslationUnit.entityID(first.entity))\" resname=\"\(attribute(first.entity.id.isEmpty ? first.entity.kind.rawValue : first.entity.id))\" restype=\"x-\(first.entity.kind.rawValue)\">")
            for unit in group {
                let limit = unit.maxLength.map { " maxwidth=\"\($0)\" size-unit=\"char\"" } ?? ""
                // A translation in the content is the one in use: approved (Weblate and the
                // Translate Toolkit read a target without it as fuzzy).
                let approved = unit.state == .translated && unit.target != nil ? " approved=\"yes\"" : ""
                lines.append("        <trans-unit id=\"\(unit.id)\" resname=\"\(attribute(unit.id))\"\(limit)\(approved) xml:space=\"preserve\">")
                lines.append("          <source>\(codes12(unit.source))</source>")
                switch (unit.state, unit.target) {
                case (.outdated, let target?):
                    lines.append("          <target state=\"needs-review-translation\">\(codes12(target))</target>")
                case (_, let target?):
                    lines.append("          <target state=\"translated\">\(codes12(target))</target>")
                case (_, nil):
                    break
                }
                lines.append("          <note from=\"digno\">\(text(note(unit)))</note>")
                if case .outdated(let previous, let since) = unit.state, let target = unit.target {
                    lines.append("          <alt-trans alttranstype=\"previous-version\" origin=\"\(attribute("digno:" + since))\">"
                        + "<source>\(codes12(previous))</source><target>\(codes12(target))</target></alt-trans>")
                }
                lines.append("        </trans-unit>")
            }
            lines.append("      </group>")
        }
        lines += ["    </body>", "  </file>", "</xliff>", ""]
        return lines.joined(separator: "\n")
    }

    /// A text with its form as XLIFF 1.2's `<g>` codes (`XLIFFPiece.pieces(of:)`).
    static func codes12(_ value: TranslationUnit.Text) -> String {
        func render(_ pieces: [XLIFFPiece]) -> String {
            pieces.map { piece -> String in
                switch piece {
                case .text(let words): text(words)
                case .code(let id, let form, let inner): "<g id=\"\(id)\" ctype=\"\(form.ctype)\">" + render(inner) + "</g>"
                case .foreign: ""
                }
            }.joined()
        }
        return render(XLIFFPiece.pieces(of: value))
    }

    // MARK: - XLIFF 2.0

    static func xliff20(_ units: [TranslationUnit], sourceLanguage: String, targetLanguage: String, original: String) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" xmlns:slr=\"urn:oasis:names:tc:xliff:sizerestriction:2.0\" "
                + "version=\"2.0\" srcLang=\"\(attribute(sourceLanguage))\" trgLang=\"\(attribute(targetLanguage))\">",
            "  <file id=\"f1\" original=\"\(attribute(original))\">",
            "    <slr:profiles generalProfile=\"xliff:codepoints\"/>",
        ]
        for group in groups(units) {
            let first = group[0]
            lines.append("    <group id=\"\(TranslationUnit.entityID(first.entity))\" name=\"\(attribute(first.entity.id.isEmpty ? first.entity.kind.rawValue : first.entity.id))\">")
            for unit in group {
                let limit = unit.maxLength.map { " slr:sizeRestriction=\"\($0)\"" } ?? ""
                lines.append("      <unit id=\"\(unit.id)\" name=\"\(attribute(unit.id))\"\(limit)>")
                var notes = ["        <notes>", "          <note category=\"digno\">\(text(note(unit)))</note>"]
                if case .outdated(let previous, _) = unit.state {
                    notes.append("          <note category=\"digno:previous-source\" appliesTo=\"source\">\(text(previous.words))</note>")
                }
                lines += notes + ["        </notes>"]
                let state = switch unit.state {
                case .translated where unit.target != nil: "translated"
                default: "initial"
                }
                let target = unit.target.map { "<target>\(codes20($0))</target>" } ?? ""
                lines.append("        <segment state=\"\(state)\"><source>\(codes20(unit.source))</source>\(target)</segment>")
                lines.append("      </unit>")
            }
            lines.append("    </group>")
        }
        lines += ["  </file>", "</xliff>", ""]
        return lines.joined(separator: "\n")
    }

    /// A text with its form as XLIFF 2.0's `<pc>` codes (`XLIFFPiece.pieces(of:)`).
    static func codes20(_ value: TranslationUnit.Text) -> String {
        func render(_ pieces: [XLIFFPiece]) -> String {
            pieces.map { piece -> String in
                switch piece {
                case .text(let words): return text(words)
                case .code(let id, let form, let inner):
                    let (type, subType) = form.typeAndSubType
                    return "<pc id=\"\(id)\" type=\"\(type)\" subType=\"\(subType)\" canCopy=\"no\" canDelete=\"no\">" + render(inner) + "</pc>"
                case .foreign: return ""
                }
            }.joined()
        }
        return render(XLIFFPiece.pieces(of: value))
    }

    // MARK: - Shared

    /// The units grouped by entity, in their order.
    static func groups(_ units: [TranslationUnit]) -> [[TranslationUnit]] {
        var groups: [[TranslationUnit]] = []
        for unit in units {
            if let last = groups.last?.last, last.entity == unit.entity { groups[groups.count - 1].append(unit) } else { groups.append([unit]) }
        }
        return groups
    }

    /// What the translator is told of a unit: the entity, the field, the limit, the change.
    static func note(_ unit: TranslationUnit) -> String {
        let field = switch unit.field {
        case .image, .picture: "alt of \(unit.field)"  // as the diagnostics name it
        default: unit.field.description
        }
        var note = "\(unit.entity.kind.rawValue) “\(unit.entityName)”, \(field)"
        if let limit = unit.maxLength { note += "; at most \(limit) characters" }
        if case .rich = unit.source { note += "; keep every tag: they are its paragraphs, headings, list items, emphasis and links" }
        if case .outdated(let previous, let since) = unit.state {
            note += ". The source changed since release \(since); it was: “\(previous.words)”. Check that the translation still says the same"
        }
        return note
    }

    /// Text content escaped for XML; characters XML 1.0 cannot hold are left out (the content's
    /// parser refused them already).
    static func text(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\r": escaped += "&#13;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// An attribute's value escaped for XML (in double quotes).
    package static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
    }
}
