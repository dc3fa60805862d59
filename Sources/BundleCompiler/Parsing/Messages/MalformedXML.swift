import CatalogContent
import CatalogModel
import CLibXML2

/// libxml2's well-formedness errors in the words of someone who edits content rather than
/// parsers: what is wrong, and what to write instead. libxml2 has no such messages (it says
/// "xmlParseEntityRef: no name" for a bare `&`), so the common mistakes are written here by
/// hand, by error code and the names the error carries; any other error keeps libxml2's own
/// message.
enum MalformedXML {
    static func explanation(of error: RawXMLError, root: String) -> String {
        words(for: error, root: root) ?? "not well-formed XML: \(error.message.trimmingTrailingPeriod()); fix the markup here"
    }

    /// A character XML does not allow, by its code: "the invisible control character U+0007",
    /// "the character U+FFFF".
    static func words(forRefused value: UInt32) -> String {
        (value < 0x20 ? "the invisible control character " : "the character ") + unicodeCode(value)
    }

    /// Of an element's start and end tag names that differ, the misspelled one and the name
    /// meant: when exactly one of them is an element of the content format and the other is
    /// within two letters of it (a typo, two letters swapped).
    static func misspelling(_ opened: String, _ closed: String) -> (misspelled: String, meant: String)? {
        guard case .success(let libXML) = LibXML.shared else { return nil }
        let known = libXML.documentation.elementNames
        guard known.contains(opened) != known.contains(closed) else { return nil }
        let (misspelled, meant) = known.contains(closed) ? (opened, closed) : (closed, opened)
        guard editDistance(Array(misspelled), Array(meant), limit: 2) != nil else { return nil }
        return (misspelled, meant)
    }

    private static func words(for error: RawXMLError, root: String) -> String? {
        let names = error.names
        switch xmlParserErrors(rawValue: UInt32(clamping: error.code)) {
        case XML_ERR_DOCUMENT_EMPTY:
            // "Document is empty", or "Start tag expected, '<' not found".
            return "the file holds no element: it is empty, or holds only a declaration, comments or text; write its <\(root)> element, or remove the file"
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("xmlParseEntityRef"), XML_ERR_ENTITYREF_SEMICOL_MISSING:
            return "a bare '&': in these files '&' begins a code such as &amp; (written with a ';' at its end); write '&' in text as &amp;"
        case XML_ERR_NAME_REQUIRED where error.message.hasPrefix("StartTag"):
            return "a '<' that starts no element; write a '<' in text as &lt;"
        case XML_ERR_LT_IN_ATTRIBUTE:
            return "a '<' inside an attribute value; write it as &lt;"
        case XML_ERR_UNDECLARED_ENTITY where names.count >= 1:
            return "&\(names[0]); is not a code these files know (they have only &amp; &lt; &gt; &quot; &apos;); write the character itself instead"
        case XML_ERR_TAG_NAME_MISMATCH where names.count >= 2 && names[0].lowercased() == names[1].lowercased():
            // <P>…</p>: the format's element names are all lower case, so the tag in capitals
            // is the one to change, not the other to match it.
            let name = names[0].lowercased()
            let fixes = [names[0] == name ? nil : "<\(name)>", names[1] == name ? nil : "</\(name)>"].compactMap { $0 }
            return "<\(names[0])> (opened on line \(error.number)) and </\(names[1])> differ in capital and small letters; element names are lower case: write \(fixes.joined(separator: " and "))"
        case XML_ERR_TAG_NAME_MISMATCH where names.count >= 2 && misspelling(names[0], names[1]) != nil:
            // <langauges>…</languages>: one name is the format's and the other a near miss of
            // it, so the tag with the misspelled name is the one to change.
            let (misspelled, meant) = misspelling(names[0], names[1])!
            return misspelled == names[0]
                ? "<\(names[0])> (opened on line \(error.number)) is misspelled: the element is <\(meant)>, as its end tag </\(names[1])> says; write <\(meant)>"
                : "</\(names[1])> is misspelled: the element opened on line \(error.number) is <\(meant)>; write </\(meant)>"
        case XML_ERR_TAG_NAME_MISMATCH where names.count >= 2:
            return "</\(names[1])> does not close <\(names[0])>, which was opened on line \(error.number) and is still open; end <\(names[0])> with </\(names[0])> first, "
                + "or correct whichever of the two names is misspelled"
        case XML_ERR_TAG_NOT_FINISHED where names.count >= 1:
            return "the file ends before <\(names[0])>, opened on line \(error.number), is closed; add </\(names[0])> where it ends"
        case XML_ERR_GT_REQUIRED where names.count >= 1:
            // "Couldn't find end of Start Tag image line 1".
            return "the tag <\(names[0])> is not closed properly; look for a missing quote around an attribute's value, a missing space between attributes, or a missing > or />"
        case XML_ERR_SPACE_REQUIRED where error.message.hasPrefix("attributes construct error"):
            return "the attributes of this tag are not written properly; look for a missing quote around a value, a missing space between attributes, or a missing > or />"
        case XML_ERR_DOCUMENT_END:
            return "there is more after the end of <\(root)>; a file holds one <\(root)> element and nothing after it but comments: move what follows into it, or remove it"
        case XML_ERR_ATTRIBUTE_REDEFINED where names.count >= 1:
            return "the attribute \(names[0]) is given twice in one tag; keep one"
        case XML_ERR_INVALID_CHAR where error.message.hasPrefix("xmlParseCharRef"):
            return "a character reference (&#…;) to a character XML does not allow; remove it"
        case XML_ERR_INVALID_CHAR where error.number > 0:
            // "PCDATA invalid Char value 7", "Char 0xFFFF out of allowed range": the number is the character.
            return "\(words(forRefused: UInt32(clamping: error.number))), which XML does not allow; delete it"
        case XML_ERR_ATTRIBUTE_NOT_STARTED:
            return "an attribute's value is not in quotes; write it in quotes, as in name=\"value\""
        case XML_NS_ERR_UNDEFINED_NAMESPACE where names.count >= 2 && error.message.contains(" for "):
            // "Namespace prefix xsi for type on product is not defined": an attribute's prefix.
            return "the attribute \(names[0]):\(names[1]) has a prefix, \(names[0]):, that no xmlns:\(names[0]) declares; content files use no namespaces: remove the attribute"
        case XML_NS_ERR_UNDEFINED_NAMESPACE where names.count >= 2:
            return "<\(names[0]):\(names[1])> has a prefix, \(names[0]):, and content files use no namespaces; write <\(names[1])>"
        case XML_ERR_HYPHEN_IN_COMMENT:
            return "a comment holds '--', which XML does not allow between <!-- and -->; change it, such as to '–'"
        case XML_ERR_MISPLACED_CDATA_END:
            return "']]>' is not allowed in text; write it as ]]&gt;"
        default:
            return nil
        }
    }
}
