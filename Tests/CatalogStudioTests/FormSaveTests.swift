import BundleCompiler
import CatalogContent
import CatalogModel
@testable import CatalogStudio
import Testing

/// A form sent back, decided against the file as it is now: the table of three versions of a
/// text (opened, sent, on disk) and what becomes of it.
@Suite struct FormSaveTests {
    static let product = """
        <?xml version="1.0" encoding="UTF-8"?>
        <product id="espresso">
          <name translate="no">Espresso</name>
          <icon src="images/products/espresso-icon.png"/>
          <summary>Tumma paahto</summary>
          <summary xml:lang="en">Dark roast</summary>
          <body>
            <p>Vahva.</p>
          </body>
          <images>
            <image src="images/products/espresso-1.png" alt="Pakkaus"/>
          </images>
        </product>

        """
    static let languages: [LanguageCode] = ["fi", "sv", "en"]
    static let espresso = EntityReference(.product, "espresso")

    static func form(_ text: String = product) throws -> EntityForm {
        let entities = try EntityFileReading.entities(in: Array(text.utf8), path: "products/espresso.xml")
        let entity: any ContentEntity = try #require(entities[espresso])
        return EntityForm(espresso, entity, languages: languages)
    }

    @Test func theFormHasEachTextInEachLanguageButWhatIsNotTranslated() throws {
        let form = try Self.form()
        #expect(form.fields.map(\.key) == ["name@fi", "summary@fi", "summary@sv", "summary@en", "body@fi", "body@sv", "body@en"])
        #expect(form.field("summary@en")?.value == "Dark roast")
        #expect(form.field("summary@sv")?.value == "")
        // The pictures are a list, edited as a whole; the icon and position are chosen.
        #expect(form.lists == [FormList(kind: .pictures, rows: [FormList.Row(reference: "images/products/espresso-1.png", texts: ["fi": "Pakkaus", "sv": "", "en": ""])])])
        #expect(form.choices == [FormChoice(key: "icon", kind: .picture, value: "images/products/espresso-icon.png"), FormChoice(key: "position", kind: .position, value: "")])
        #expect(form.field("name@fi")?.isRequired == true && form.field("name@fi")?.limit == FieldLimits.name)
        #expect(form.field("body@fi")?.rich != nil)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var opened: String
        var sent: String
        var disk: String
        var expected: String
        var testDescription: String { "opened \(opened), sent \(sent), on disk \(disk): \(expected)" }
    }

    static let rows: [Row] = [
        Row(opened: "Dark roast", sent: "Dark roast", disk: "Dark roast", expected: "unchanged"),
        Row(opened: "Dark roast", sent: "Darker", disk: "Dark roast", expected: "write Darker"),
        Row(opened: "Dark roast", sent: "Darker", disk: "Darker", expected: "unchanged"),
        Row(opened: "Dark roast", sent: "Darker", disk: "Deep roast", expected: "conflict Darker | Deep roast"),
        Row(opened: "Dark roast", sent: "Dark roast", disk: "Deep roast", expected: "unchanged"),
        Row(opened: "Dark roast", sent: "", disk: "Dark roast", expected: "write nil"),
    ]

    @Test(arguments: rows) func aTextOfTheSummary(row: Row) throws {
        let form = try Self.form(Self.product.replacingOccurrences(of: "Dark roast", with: row.disk))
        let decision = FormSave.decide(form: form, sent: ["summary@en": row.sent], opened: ["summary@en": row.opened])
        let shown: String = switch decision {
        case .unchanged: "unchanged"
        case .write(let changes, _, _, _): "write " + changes.map { $0.value ?? "nil" }.joined(separator: ",")
        case .conflicts(let conflicts): "conflict " + conflicts.map { "\($0.mine) | \($0.theirs)" }.joined(separator: ",")
        }
        #expect(shown == row.expected)
    }

    @Test func changesOnDiskToOtherTextsAreCountedAndKept() throws {
        let form = try Self.form(Self.product.replacingOccurrences(of: "Dark roast", with: "Deep roast"))
        let decision = FormSave.decide(form: form, sent: ["summary@fi": "Tumma", "summary@en": "Dark roast"],
                                       opened: ["summary@fi": "Tumma paahto", "summary@en": "Dark roast"])
        #expect(decision == .write([EntityFileEdit.Change(entity: Self.espresso, field: .summary, language: nil, value: "Tumma")], merged: 1))
    }

    @Test func aListOrChoiceIsDecidedAsAWhole() throws {
        let form = try Self.form()
        let opened = form.lists[0].canonical
        let added = [FormList.Row(reference: "images/products/espresso-1.png", texts: ["fi": "Pakkaus"]),
                     FormList.Row(reference: "images/products/espresso-2.png", texts: ["fi": "Pavut", "en": "Beans"])]
        #expect(FormSave.decide(form: form, sent: [:], opened: ["images": opened], lists: ["images": added])
            == .write([], lists: [FormList(kind: .pictures, rows: added)], merged: 0))
        // Sent back as opened: nothing.
        #expect(FormSave.decide(form: form, sent: [:], opened: ["images": opened], lists: ["images": form.lists[0].rows]) == .unchanged)
        // The list changed on disk too, differently: both shown.
        let disk = try Self.form(Self.product.replacingOccurrences(of: "alt=\"Pakkaus\"", with: "alt=\"Paketti\""))
        guard case .conflicts(let conflicts) = FormSave.decide(form: disk, sent: [:], opened: ["images": opened], lists: ["images": added]) else {
            Issue.record("not a conflict")
            return
        }
        #expect(conflicts.map(\.key) == ["images"])
        // A position chosen; the same day chosen on both sides is no change.
        #expect(FormSave.decide(form: form, sent: [:], opened: ["position": ""], choices: ["position": "2"])
            == .write([], choices: [FormChoice(key: "position", kind: .position, value: "2")], merged: 0))
    }

    @Test func aLanguageChosenAndItsWordsFromAnyTable() {
        #expect(StudioWords.language(chosen: nil, accepted: "sv-FI,sv;q=0.9,en;q=0.8") == "sv")
        #expect(StudioWords.language(chosen: nil, accepted: "de-DE,en;q=0.5,fi;q=0.7") == "fi")
        #expect(StudioWords.language(chosen: "en", accepted: "sv") == "en")
        #expect(StudioWords.language(chosen: "xx", accepted: nil) == "fi")
        // Every word of each table is in the others.
        for language in StudioWords.languages.map(\.code) {
            let words = StudioWords(language)
            for key in ["save", "overview", "conflict", "kind.products", "field.summary", "language.sv", "status.errors"] {
                #expect(words[key] != key, "\(language) \(key)")
            }
        }
    }
}
