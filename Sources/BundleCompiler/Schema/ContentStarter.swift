import CatalogModel
import Foundation

/// `digno init DIR`: a new content folder that `digno validate` passes with nothing to say:
/// catalog.xml, home.xml and company.xml, one product, one recipe that uses it and one retailer
/// that sells it, in Finnish with Swedish and English declared (a few texts translated, to show
/// how), three placeholder pictures, and the schema for editors' tools (`SchemaWriter`).
package enum ContentStarter {
    /// Why a new folder could not be made.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The folder exists and holds something: nothing is written into it.
        case notEmpty(String)
        case write(DurableFileError)
        case schema(SchemaWriter.Failure)

        package var description: String {
            switch self {
            case .notEmpty(let folder): "'\(folder)' exists and is not empty; give a new folder (nothing was written)"
            case .write(let error): error.description
            case .schema(let failure): failure.description
            }
        }
    }

    /// Writes the starter content into `folder`, which must not exist or be empty; the
    /// release is dated `day`. Returns the files written, relative to the folder.
    package static func create(_ folder: String, day: Day) throws(Failure) -> [String] {
        if FileSystem.entryType(folder) != nil {
            let entries = (try? FileSystem.list(folder)) ?? ["?"]
            guard entries.isEmpty else { throw .notEmpty(folder) }
        }
        var written: [String] = []
        do {
            try DurableFile.makeFolder(folder)
            for (path, bytes) in files(day: day) {
                try DurableFile.makeFolder(DurableFile.split(folder + "/" + path).folder)
                try SchemaWriter.replace(folder + "/" + path, with: bytes)
                written.append(path)
            }
        } catch {
            throw .write(error)
        }
        do {
            written += try SchemaWriter.write(contentFolder: folder).schemaFiles
        } catch {
            throw .schema(error)
        }
        return written.sorted()
    }

    /// The files, relative to the folder, with their bytes.
    static func files(day: Day) -> [(path: String, bytes: [UInt8])] {
        let texts: [(String, String)] = [
            ("catalog.xml", """
                <catalog>
                  <brand>Uusi brändi</brand>
                  <!-- Raise the version for each release: year.month.number. -->
                  <release version="\(day.year).\(day.month).0" date="\(day)"/>
                  <languages>
                    <language code="fi"/>
                    <language code="sv" fallback="fi"/>
                    <language code="en" fallback="fi"/>
                  </languages>
                  <sections>
                    <section id="home">
                      <title>Etusivu</title>
                      <title xml:lang="sv">Hem</title>
                      <title xml:lang="en">Home</title>
                      <icon src="images/icon.png"/>
                    </section>
                    <section id="products">
                      <title>Tuotteet</title>
                      <title xml:lang="sv">Produkter</title>
                      <title xml:lang="en">Products</title>
                      <icon src="images/icon.png"/>
                    </section>
                    <section id="recipes">
                      <title>Reseptit</title>
                      <title xml:lang="sv">Recept</title>
                      <title xml:lang="en">Recipes</title>
                      <icon src="images/icon.png"/>
                    </section>
                    <section id="retailers">
                      <title>Jälleenmyyjät</title>
                      <title xml:lang="sv">Återförsäljare</title>
                      <title xml:lang="en">Retailers</title>
                      <icon src="images/icon.png"/>
                    </section>
                    <section id="company">
                      <title>Yritys</title>
                      <title xml:lang="sv">Företaget</title>
                      <title xml:lang="en">Company</title>
                      <icon src="images/icon.png"/>
                    </section>
                  </sections>
                </catalog>
                """),
            ("home.xml", """
                <home>
                  <logo src="images/logo.png"/>
                  <image src="images/picture.png" alt="Kahvikuppi">
                    <alt xml:lang="sv">En kaffekopp</alt>
                    <alt xml:lang="en">A cup of coffee</alt>
                  </image>
                  <body>
                    <p>Tervetuloa! Tutustu <link product="esimerkkikahvi">kahviimme</link>.</p>
                  </body>
                  <body xml:lang="sv">
                    <p>Välkommen! Bekanta dig med <link product="esimerkkikahvi">vårt kaffe</link>.</p>
                  </body>
                  <body xml:lang="en">
                    <p>Welcome! Meet <link product="esimerkkikahvi">our coffee</link>.</p>
                  </body>
                </home>
                """),
            ("company.xml", """
                <company>
                  <name translate="no">Yritys Oy</name>
                  <logo src="images/logo.png"/>
                  <body>
                    <p>Kerro tässä yrityksestä.</p>
                  </body>
                  <body xml:lang="sv">
                    <p>Berätta här om företaget.</p>
                  </body>
                  <body xml:lang="en">
                    <p>Tell about the company here.</p>
                  </body>
                  <images>
                    <image src="images/picture.png" alt="Toimisto">
                      <alt xml:lang="sv">Kontoret</alt>
                      <alt xml:lang="en">The office</alt>
                    </image>
                  </images>
                  <web>https://www.example.com</web>
                </company>
                """),
            ("products/esimerkkikahvi.xml", """
                <product id="esimerkkikahvi">
                  <name>Esimerkkikahvi</name>
                  <name xml:lang="sv">Exempelkaffe</name>
                  <name xml:lang="en">Example coffee</name>
                  <icon src="images/icon.png"/>
                  <summary>Keskipaahteinen suodatinkahvi</summary>
                  <summary xml:lang="sv">Mellanrostat bryggkaffe</summary>
                  <summary xml:lang="en">Medium roast filter coffee</summary>
                  <body>
                    <p>Sopii <link recipe="esimerkkiresepti">esimerkkireseptiin</link>.</p>
                  </body>
                  <body xml:lang="sv">
                    <p>Passar till <link recipe="esimerkkiresepti">exempelreceptet</link>.</p>
                  </body>
                  <body xml:lang="en">
                    <p>Good for <link recipe="esimerkkiresepti">the example recipe</link>.</p>
                  </body>
                  <images>
                    <image src="images/picture.png" alt="Kahvipaketti">
                      <alt xml:lang="sv">Ett kaffepaket</alt>
                      <alt xml:lang="en">A coffee package</alt>
                    </image>
                  </images>
                </product>
                """),
            ("recipes/esimerkkiresepti.xml", """
                <recipe id="esimerkkiresepti">
                  <name>Esimerkkiresepti</name>
                  <name xml:lang="sv">Exempelrecept</name>
                  <name xml:lang="en">Example recipe</name>
                  <icon src="images/icon.png"/>
                  <summary>Kahvi maidon kera</summary>
                  <summary xml:lang="sv">Kaffe med mjölk</summary>
                  <summary xml:lang="en">Coffee with milk</summary>
                  <ingredients>
                    <ingredient product="esimerkkikahvi">2 dl Esimerkkikahvia</ingredient>
                    <ingredient xml:lang="sv">2 dl Exempelkaffe</ingredient>
                    <ingredient xml:lang="en">2 dl of Example coffee</ingredient>
                    <ingredient>1 dl maitoa</ingredient>
                    <ingredient xml:lang="sv">1 dl mjölk</ingredient>
                    <ingredient xml:lang="en">1 dl of milk</ingredient>
                  </ingredients>
                  <method>
                    <p>Keitä kahvi ja lisää lämmin maito.</p>
                  </method>
                  <method xml:lang="sv">
                    <p>Brygg kaffet och tillsätt varm mjölk.</p>
                  </method>
                  <method xml:lang="en">
                    <p>Brew the coffee and add warm milk.</p>
                  </method>
                  <images>
                    <image src="images/picture.png" alt="Kahvikuppi">
                      <alt xml:lang="sv">En kaffekopp</alt>
                      <alt xml:lang="en">A cup of coffee</alt>
                    </image>
                  </images>
                </recipe>
                """),
            ("retailers/esimerkkikauppa.xml", """
                <retailer id="esimerkkikauppa">
                  <name>Esimerkkikauppa</name>
                  <logo src="images/logo.png"/>
                  <address>Esimerkkikatu 1, 00100 Helsinki</address>
                  <phone>040 123 4567</phone>
                  <hours>ma–pe 9–17</hours>
                  <hours xml:lang="sv">mån–fre 9–17</hours>
                  <hours xml:lang="en">Mon–Fri 9–17</hours>
                  <sells product="esimerkkikahvi"/>
                </retailer>
                """),
        ]
        var files = texts.map { path, text in (path, Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text + "\n").utf8)) }
        // Placeholders of one colour each, at the sizes the uses need at 3× (PictureUse).
        files.append(("images/icon.png", Array(PNGTile.make(width: 180, height: 180, seed: 1))))
        files.append(("images/logo.png", Array(PNGTile.make(width: 600, height: 300, seed: 2))))
        files.append(("images/picture.png", Array(PNGTile.make(width: 1170, height: 780, seed: 3))))
        return files
    }
}
