import CatalogContent
import CatalogModel

/// A field's elements written anew as the shipped content files write them: one element a line
/// at the field's indentation, a list's items one level in, each translation after the text it
/// translates (`xml:lang`, in the declared order), rich text's blocks wrapped at 100 columns.
/// `digno studio` writes a field this way when its structure changed (a list's lines added,
/// removed or reordered, a picture or reference chosen, formatted text edited), in place of the
/// field's old elements (`EntityFileEdit.Replacement`).
package enum FieldElements {
    /// `<body>` (or `<method>`) in the default language, then each translation.
    package static func rich(_ name: String, _ text: RichText, _ translations: Translations, path: FieldPath, languages: [LanguageCode], indent: String) -> String {
        var lines = [indent + "<\(name)>" + ContentFileEdit.content(.rich(text), indent: indent) + "</\(name)>"]
        for language in languages.dropFirst() {
            guard case .richText(let translated)? = translations.first(path, along: [language])?.value else { continue }
            lines.append(indent + ContentFileEdit.element(name, language, .rich(translated), indent: indent))
        }
        return lines.joined(separator: "\n")
    }

    /// A recipe's `<ingredients>`: each line, the product it names, and its translations.
    package static func ingredients(_ lines: [Ingredient], _ translations: Translations, languages: [LanguageCode], indent: String) -> String {
        let inner = indent + "  "
        var written = [indent + "<ingredients>"]
        for (index, line) in lines.enumerated() {
            let product = line.product.map { " product=\"\(XLIFFWriter.attribute($0.rawValue))\"" } ?? ""
            written.append(inner + "<ingredient\(product)>" + XLIFFWriter.text(line.text) + "</ingredient>")
            for language in languages.dropFirst() {
                guard let translated = translations.first(.ingredient(index), along: [language])?.value.plainText else { continue }
                written.append(inner + ContentFileEdit.element("ingredient", language, .plain(translated), indent: inner))
            }
        }
        written.append(indent + "</ingredients>")
        return written.joined(separator: "\n")
    }

    /// A detail screen's `<images>`: each picture's file and words, with their translations.
    package static func images(_ pictures: [ImageReference], _ translations: Translations, languages: [LanguageCode], indent: String) -> String {
        let inner = indent + "  "
        var written = [indent + "<images>"]
        for (index, picture) in pictures.enumerated() {
            written.append(Self.picture("image", picture, translations, path: .picture(index), languages: languages, indent: inner))
        }
        written.append(indent + "</images>")
        return written.joined(separator: "\n")
    }

    /// One picture's element: `<icon src="…"/>`, or with its words, `<image src="…" alt="…">`
    /// and their translations inside it.
    package static func picture(_ name: String, _ picture: ImageReference, _ translations: Translations, path: FieldPath, languages: [LanguageCode],
                                indent: String) -> String {
        let alt = picture.alt.map { " alt=\"\(XLIFFWriter.attribute($0))\"" } ?? ""
        let start = indent + "<\(name) src=\"\(XLIFFWriter.attribute(picture.source))\"" + alt
        let alts = languages.dropFirst().compactMap { language in
            translations.first(path, along: [language]).map { (language, $0.value.plainText) }
        }
        guard !alts.isEmpty else { return start + "/>" }
        let inner = indent + "  "
        return ([start + ">"] + alts.map { inner + ContentFileEdit.element("alt", $0.0, .plain($0.1), indent: inner) } + [indent + "</\(name)>"])
            .joined(separator: "\n")
    }

    /// A plain text's element in the default language: `<info>…</info>`.
    package static func text(_ name: String, _ value: String, indent: String) -> String {
        indent + "<\(name)>" + XLIFFWriter.text(value) + "</\(name)>"
    }

    /// A retailer's `<sells>`, one a product.
    package static func sells(_ products: [ProductID], indent: String) -> String {
        products.map { indent + "<sells product=\"\(XLIFFWriter.attribute($0.rawValue))\"/>" }.joined(separator: "\n")
    }
}
