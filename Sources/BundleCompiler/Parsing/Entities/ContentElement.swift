/// An element of a schema-valid content file, as `EntityBuilder` and `RichTextReader` read it.
/// Two kinds of document provide one: libxml2's tree (`XMLElement`), which also knows where
/// each element starts and so serves every file with a diagnostic; and `StreamedDocument`,
/// filled from libxml2's SAX events while the schema is checked on the same pass, which builds
/// the entities of clean files with no tree at all.
protocol ContentElement {
    associatedtype Children: Sequence<Self>

    /// Whether the element is named `name` (no namespace: content files have none).
    func isNamed(_ name: StaticString) -> Bool
    /// The child elements in order.
    var children: Children { get }
    /// The first child element named `name`.
    func child(_ name: StaticString) -> Self?
    /// The value of attribute `name`, if present, in Unicode NFC (`NFC`), as every value is
    /// read: the same text typed composed or decomposed is one value.
    func attribute(_ name: StaticString) -> String?
    /// The element's own `xml:lang`, whitespace around it dropped, if it has one: the
    /// language of a translation. Not inherited: only translations carry it.
    var language: String? { get }
    /// All the text inside, whitespace runs collapsed to one space and trimmed, in NFC: the
    /// form every plain-text field is stored in.
    var text: String { get }
    /// The element's content in order: its own runs of text and its child elements. Comments
    /// and processing instructions are not content. The runs are the bytes as parsed, not
    /// normalised: `RichTextReader` normalises each run of rich text once it is whole.
    func forEachContent(_ body: (ContentPiece<Self>) -> Void)
}

/// A piece of an element's mixed content.
enum ContentPiece<Element> {
    /// A run of character data, entities and character references already decoded; valid only
    /// during the call.
    case text(UnsafeBufferPointer<UInt8>)
    case element(Element)
}
