import BundleCompiler
import Foundation

/// Writes a valid synthetic content folder shaped like the real one: realistic text lengths,
/// one or two pictures per entity drawn from a pool of small distinct PNGs, valid relations.
/// The same seed and sizes always give the same files.
struct SyntheticContent {
    var products: Int
    var recipes: Int
    var retailers: Int
    var seed: UInt64
    /// How many distinct pictures and icons the pool holds.
    var imagePool = 64
    /// Languages besides Finnish, into which every text is translated (`sv`, `en`). Their
    /// words come from a generator of their own, so the Finnish texts are the same whatever
    /// the languages: the catalogue in Finnish only is the same catalogue.
    var languages: [String] = []

    func write(to folder: URL) throws {
        let manager = FileManager.default
        try? manager.removeItem(at: folder)
        for sub in ["products", "recipes", "retailers", "images"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        var random = SplitMix64(seed: seed)
        var other = SplitMix64(seed: seed ^ 0x7472_616e_736c_6174)
        /// The translations of a text element, each on a line of its own after it.
        func translated(_ element: String, _ indent: String, _ text: (inout SplitMix64) -> String) -> String {
            languages.map { "\n\(indent)<\(element) xml:lang=\"\($0)\">\(text(&other))</\(element)>" }.joined()
        }
        /// An `<image>`'s alt translations, as its content.
        func alts(_ indent: String) -> String {
            languages.map { "\n\(indent)  <alt xml:lang=\"\($0)\">\(Words.sentence(&other, words: 4))</alt>" }.joined()
        }
        func image(_ attributes: String, _ indent: String) -> String {
            languages.isEmpty ? "\(indent)<image \(attributes)/>" : "\(indent)<image \(attributes)>\(alts(indent))\n\(indent)</image>"
        }
        /// A body or method's translations.
        func richTranslations(_ element: String, paragraphs count: Int) -> String {
            languages.map { language in
                let body = (0..<count).map { _ in "    <p>\(Words.sentence(&other, words: 12 + other.next(below: 30)))</p>" }.joined(separator: "\n")
                return "\n  <\(element) xml:lang=\"\(language)\">\n\(body)\n  </\(element)>"
            }.joined()
        }
        for index in 0..<imagePool {
            try PNGTile.make(width: 32, height: 32, seed: UInt64(index) &* 2 &+ 1).write(to: folder.appendingPathComponent("images/icon-\(index).png"))
            try PNGTile.make(width: 48, height: 32, seed: UInt64(index) &* 2 &+ 2).write(to: folder.appendingPathComponent("images/picture-\(index).png"))
        }
        func icon() -> String { "images/icon-\(random.next(below: imagePool)).png" }
        // Two pictures of one entity are two images (the rule duplicate-picture): a second
        // draw of the first is moved to the next image in the pool.
        func pictures() -> String {
            var first: Int?
            return (0..<(1 + random.next(below: 2))).map { _ in
                var picked = random.next(below: imagePool)
                if picked == first { picked = (picked + 1) % imagePool }
                first = first ?? picked
                return image("src=\"images/picture-\(picked).png\" alt=\"\(Words.sentence(&random, words: 4))\"", "    ")
            }.joined(separator: "\n")
        }
        func paragraphs(_ count: Int) -> String {
            (0..<count).map { _ in "    <p>\(Words.sentence(&random, words: 12 + random.next(below: 30)))</p>" }.joined(separator: "\n")
        }
        func write(_ text: String, _ path: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(path))
        }

        let sections = [("home", "Etusivu"), ("products", "Tuotteet"), ("recipes", "Kahvireseptit"), ("retailers", "Jälleenmyyjät"), ("company", "Deling Group")]
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <catalog>
              <brand>Café Digno</brand>
              <release version="2026.11.0" date="2026-11-22"/>\(languages.isEmpty ? "" : "\n  <languages>\n    <language code=\"fi\"/>" + languages.map { "\n    <language code=\"\($0)\" fallback=\"fi\"/>" }.joined() + "\n  </languages>")
              <sections>
            \(sections.map { "    <section id=\"\($0.0)\"><title>\($0.1)</title>\(languages.map { "<title xml:lang=\"\($0)\">\(Words.title(&other))</title>" }.joined())<icon src=\"images/icon-0.png\"/></section>" }.joined(separator: "\n"))
              </sections>
            </catalog>

            """, "catalog.xml")
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <home>
              <logo src="images/picture-0.png"/>
            \(image("src=\"images/picture-1.png\" alt=\"Café Digno -tuotesarja\"", "  "))
              <body>
            \(paragraphs(3))
              </body>\(richTranslations("body", paragraphs: 3))
            </home>

            """, "home.xml")
        try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <company>
              <name translate="no">Deling Group Oy</name>
              <logo src="images/picture-2.png"/>
              <body>
            \(paragraphs(2))
              </body>\(richTranslations("body", paragraphs: 2))
              <images>
            \(image("src=\"images/picture-3.png\" alt=\"Deling Groupin toimisto\"", "    "))
              </images>
              <web>https://www.delinggroup.com</web>
            </company>

            """, "company.xml")

        // Product p is used by recipe p % recipes, so every product has a recipe and every
        // recipe with an index below the product count has a product; the rest get random ones.
        for index in 0..<products {
            try write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <product id="product-\(index)">
                  <name>\(Words.title(&random)) \(index)</name>\(translated("name", "  ") { "\(Words.title(&$0)) \(index)" })
                  <icon src="\(icon())"/>
                  <summary>\(Words.sentence(&random, words: 3 + random.next(below: 5)))</summary>\(translated("summary", "  ") { Words.sentence(&$0, words: 3 + $0.next(below: 5)) })
                  <body>
                \(paragraphs(1 + random.next(below: 3)))
                    <h2>Vinkkejä</h2>
                    <ol>
                      <li>\(Words.sentence(&random, words: 8))</li>
                      <li>\(Words.sentence(&random, words: 8))</li>
                    </ol>
                  </body>\(richTranslations("body", paragraphs: 2))
                  <images>
                \(pictures())
                  </images>
                </product>

                """, "products/product-\(index).xml")
        }
        for index in 0..<recipes {
            var used = stride(from: index, to: products, by: recipes).map { $0 }
            if used.isEmpty { used = [random.next(below: products)] }
            // Each line once (the rule duplicate-ingredient): a line drawn again says it is more.
            var lines = Set<String>()
            func once(_ line: String) -> String {
                var line = line
                while !lines.insert(line).inserted { line += " lisää" }
                return line
            }
            // A translated line is numbered, so that no two of a recipe's are alike.
            var line = 0
            func lineTranslations() -> String {
                line += 1
                return translated("ingredient", "    ") { "\(line). \(Words.sentence(&$0, words: 3))" }
            }
            let ingredients = used.map { "    <ingredient product=\"product-\($0)\">\(once("1–2 annosta \(Words.title(&random))"))</ingredient>" + lineTranslations() }
                + (0..<(1 + random.next(below: 3))).map { _ in "    <ingredient>\(once("\(random.next(below: 5) + 1) dl \(Words.word(&random))"))</ingredient>" + lineTranslations() }
            try write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <recipe id="recipe-\(index)">
                  <name>\(Words.title(&random)) \(index)</name>\(translated("name", "  ") { "\(Words.title(&$0)) \(index)" })
                  <icon src="\(icon())"/>
                  <summary>\(Words.sentence(&random, words: 3 + random.next(below: 5)))</summary>\(translated("summary", "  ") { Words.sentence(&$0, words: 3 + $0.next(below: 5)) })
                  <ingredients>
                \(ingredients.joined(separator: "\n"))
                  </ingredients>
                  <method>
                \(paragraphs(1 + random.next(below: 2)))
                  </method>\(richTranslations("method", paragraphs: 1))
                  <images>
                \(pictures())
                  </images>
                </recipe>

                """, "recipes/recipe-\(index).xml")
        }
        for index in 0..<retailers {
            let sells = Set((0..<(1 + random.next(below: 4))).map { _ in random.next(below: products) }).sorted()
            try write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <retailer id="retailer-\(index)">
                  <name>\(Words.title(&random)) \(index)</name>
                  <logo src="images/picture-\(random.next(below: imagePool)).png"/>
                  <address>\(Words.title(&random))katu \(random.next(below: 200) + 1), 00\(100 + random.next(below: 900)) Helsinki</address>
                  <phone>040 \(100 + random.next(below: 900)) \(1000 + random.next(below: 9000))</phone>
                  <hours>ma–pe klo \(7 + random.next(below: 4))–\(16 + random.next(below: 6))</hours>\(translated("hours", "  ") { "\($0.next(below: 4) + 7)–\($0.next(below: 6) + 16)" })
                  <web>https://www.example.fi/\(index)</web>
                  <location latitude="60.\(1000 + random.next(below: 9000))" longitude="24.\(1000 + random.next(below: 9000))"/>
                \(sells.map { "  <sells product=\"product-\($0)\"/>" }.joined(separator: "\n"))
                </retailer>

                """, "retailers/retailer-\(index).xml")
        }
    }
}

/// Finnish coffee words for synthetic text.
enum Words {
    static let vocabulary = [
        "kahvi", "espresso", "maito", "vaahto", "paahto", "papu", "jauhe", "kuppi", "lasi", "aamu", "ilta", "suklaa",
        "kerma", "sokeri", "vanilja", "kardemumma", "jää", "höyry", "crema", "aromi", "maku", "pehmeä", "vahva", "tumma",
        "vaalea", "täyteläinen", "ylellinen", "Arabica", "ylänkö", "Meksiko", "keitin", "mylly", "pannu", "tamppaus",
        "annos", "resepti", "herkku", "nautinto", "tuoksu", "lämmin", "kylmä", "kevyt", "makea", "kirpeä", "Café", "Digno",
    ]

    static func word(_ random: inout SplitMix64) -> String {
        vocabulary[random.next(below: vocabulary.count)]
    }

    static func title(_ random: inout SplitMix64) -> String {
        let word = word(&random)
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    static func sentence(_ random: inout SplitMix64, words: Int) -> String {
        let text = (0..<max(words, 1)).map { _ in word(&random) }.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}
