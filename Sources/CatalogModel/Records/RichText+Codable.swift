
// Rich text's one stored form, in bundles and anywhere else it is encoded (docs/BUNDLE-FORMAT.md, "Rich
// text in the bundle"): an array of blocks, each an object with one key, holding inline runs,
// each a string or an object with one key:
//
//     [{"p": ["Sopii ", {"link": {"recipe": "cafe-latte"}, "text": ["Café Latteen"]}, "."]},
//      {"h2": ["Vinkkejä"]},
//      {"ol": [["Jauha hienoksi."], ["Tamppaa ", {"strong": ["tasaisesti"]}, "."]]}]
//
// Nothing else decodes: an unknown key is an error, so a client never meets markup it cannot
// render.

extension RichText {
    public init(from decoder: any Decoder) throws {
        blocks = try decoder.singleValueContainer().decode([Block].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(blocks)
    }
}

extension RichText.Block {
    private enum Key: String, CodingKey {
        case p, h2, h3, ul, ol
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a rich-text block is an object with exactly one of p, h2, h3, ul, ol"))
        }
        switch key {
        case .p: self = .paragraph(try container.decode([RichText.Inline].self, forKey: key))
        case .h2: self = .heading(level: 2, try container.decode([RichText.Inline].self, forKey: key))
        case .h3: self = .heading(level: 3, try container.decode([RichText.Inline].self, forKey: key))
        case .ul, .ol: self = .list(ordered: key == .ol, items: try container.decode([[RichText.Inline]].self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .paragraph(let inlines): try container.encode(inlines, forKey: .p)
        case .heading(let level, let inlines): try container.encode(inlines, forKey: level <= 2 ? .h2 : .h3)
        case .list(let ordered, let items): try container.encode(items, forKey: ordered ? .ol : .ul)
        }
    }
}

extension RichText.Inline {
    private enum Key: String, CodingKey {
        case em, strong, link, text
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            if let excess = StreamSafeText.excess(in: text) {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "a text run holds \(excess.length) combining marks in a row, more than the \(StreamSafeText.maximumRun) of stream-safe text"))
            }
            self = .text(text)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(.link) {
            self = .link(try container.decode(LinkTarget.self, forKey: .link), try container.decode([Self].self, forKey: .text))
        } else if container.contains(.em) {
            self = .emphasis(try container.decode([Self].self, forKey: .em))
        } else if container.contains(.strong) {
            self = .strong(try container.decode([Self].self, forKey: .strong))
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "an inline run is a string or an object with em, strong or link"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .emphasis(let children):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(children, forKey: .em)
        case .strong(let children):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(children, forKey: .strong)
        case .link(let target, let children):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(target, forKey: .link)
            try container.encode(children, forKey: .text)
        }
    }
}

extension LinkTarget {
    private enum Key: String, CodingKey {
        case product, recipe
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch (try container.decodeIfPresent(String.self, forKey: .product), try container.decodeIfPresent(String.self, forKey: .recipe)) {
        case (let product?, nil): self = .product(ProductID(product))
        case (nil, let recipe?): self = .recipe(RecipeID(recipe))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a link target is {\"product\": id} or {\"recipe\": id}"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .product(let id): try container.encode(id.rawValue, forKey: .product)
        case .recipe(let id): try container.encode(id.rawValue, forKey: .recipe)
        }
    }
}
