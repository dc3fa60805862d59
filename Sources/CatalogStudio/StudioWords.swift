import CatalogContent
import CatalogModel
import Foundation

/// The studio's own words in Finnish, Swedish and English: the language a page is in is the
/// one the editor chose, else the first of the browser's that the studio speaks, else
/// Finnish. The diagnostics keep `digno validate`'s English words.
struct StudioWords: Sendable {
    /// `fi`, `sv` or `en`.
    let language: String
    private let words: [String: String]

    /// The languages the studio speaks, each named in itself, in the order its switch lists them.
    static let languages: [(code: String, name: String)] = [("fi", "suomi"), ("sv", "svenska"), ("en", "English")]

    init(_ language: String) {
        self.language = Self.tables[language] == nil ? "fi" : language
        words = Self.tables[self.language] ?? [:]
    }

    /// The studio's language for a request: `chosen` (the editor's, from its cookie) when the
    /// studio speaks it, else the first of `Accept-Language`'s that it does, else Finnish.
    static func language(chosen: String?, accepted: String?) -> String {
        if let chosen, tables[chosen] != nil { return chosen }
        // `sv-FI,sv;q=0.9,en;q=0.8`: by weight, then order.
        let ranked = (accepted ?? "").split(separator: ",").enumerated().compactMap { (index, part) -> (String, Double, Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty else { return nil }
            let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased(), weight, index)
        }.sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }
        return ranked.first { tables[$0.0] != nil && $0.1 > 0 }?.0 ?? "fi"
    }

    subscript(_ key: String) -> String {
        words[key] ?? Self.tables["en"]?[key] ?? key
    }

    /// `{n}` in a word replaced by `number`.
    func counted(_ key: String, _ number: Int) -> String {
        self[key].replacingOccurrences(of: "{n}", with: String(number))
    }

    /// A kind's name, plural for the overview's headings.
    func kind(_ kind: EntityReference.Kind, plural: Bool = false) -> String {
        self["kind.\(kind.rawValue)" + (plural ? "s" : "")]
    }

    /// A field's label: its element's word, and its number in a list (`Kuva 2`).
    func field(_ element: String, number: Int?) -> String {
        let word = self["field.\(element)"]
        return number.map { "\(word) \($0)" } ?? word
    }

    /// A moment as the studio's language writes it, in this machine's time zone: `7.12.2026
    /// klo 14.32`, `7 dec. 2026 14:32`, `7 Dec 2026, 14:32`.
    func moment(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: ["fi": "fi_FI", "sv": "sv_SE"][language] ?? "en_GB")
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }

    /// A content language's name, as the studio's language names it.
    func languageName(_ code: LanguageCode) -> String {
        let key = "language.\(code.rawValue)"
        let word = self[key]
        return word == key ? code.rawValue : word
    }

    private static let tables: [String: [String: String]] = [
        "fi": [
            "studio": "Digno Studio", "skip": "Siirry sisältöön", "overview": "Sisältö", "language": "Kieli",
            "filter": "Suodata nimellä", "filter.button": "Suodata", "filter.none": "Ei osumia.", "more": "Seuraavat",
            "previous": "Edelliset", "page": "Sivu {n}",
            "status.clean": "Sisällössä ei ole virheitä: sen voi julkaista.",
            "status.errors": "Sisällössä on virheitä ({n}): sitä ei voi julkaista, ennen kuin ne on korjattu.",
            "status.warnings": "Varoituksia: {n}.", "status.unchecked": "Sisältöä tarkistetaan…",
            "errors": "{n} virhettä", "warnings": "{n} varoitusta", "error.one": "1 virhe", "warning.one": "1 varoitus",
            "save": "Tallenna", "undo": "Kumoa viimeisin tallennus", "saved": "Tallennettu.", "saved.merged": "Tallennettu. Levyllä tehdyt muutokset muihin kenttiin ({n}) säilyivät.",
            "saved.unchanged": "Ei muutoksia tallennettavaksi.", "undone": "Viimeisin tallennus kumottu.",
            "draft.kept": "Tällä lomakkeella on muutoksia, joita ei tallennettu ({when}). Studio piti ne tallessa.",
            "draft.restore": "Palauta muutokset lomakkeelle", "draft.discard": "Hylkää ne",
            "draft.restored": "Tallentamattomat muutoksesi ovat lomakkeella. Tallenna, niin ne tulevat tiedostoon.",
            "git.heading": "Versiot", "git.branch": "haara: {branch}", "git.none": "Sisältökansio ei ole git-varastossa, joten versioita ei ole.",
            "git.changes": "Muutokset viimeisimmän version jälkeen", "git.clean": "Ei muutoksia viimeisimmän version jälkeen.",
            "git.pictures": "Kuvat", "git.files": "Tiedostot", "git.message": "Mitä muutit (viesti)", "git.commit": "Tallenna versioksi (git commit)",
            "git.pull": "Hae muiden muutokset (pull)", "git.push": "Lähetä versiot (push)", "git.branchHeading": "Oma haara tarkistettavaksi",
            "git.branchName": "Haaran nimi", "git.branchButton": "Tee haara ja siirry siihen", "git.history": "Historia",
            "git.messageMissing": "Kirjoita viesti: mitä muutit.", "git.conflicted": "Muiden muutokset osuvat samoihin kohtiin kuin omasi; mitään ei muutettu.",
            "git.done.commit": "Tallennettu versioksi {what}.", "git.done.pull": "Muiden muutokset haettu.", "git.done.push": "Versiot lähetetty.",
            "git.done.branch": "Haara {what} tehty; olet nyt siinä.",
            "git.done.merge": "Muiden muutokset yhdistetty omiisi (versio {what}).", "git.done.choose": "Muiden muutokset osuivat samoihin kenttiin kuin omasi ({what} lomaketta): valitse kussakin.",
            "git.done.abort": "Haku peruttu: tiedostot ovat kuten viimeisimmässä omassa versiossasi.",
            "git.mergeFirst": "Haku on kesken: valitse ensin lomakkeissa tai peru haku.", "git.unmergeable": "{path} ei ole lomakkeella muokattava tiedosto, joten sitä ei voi yhdistää kenttä kentältä; mitään ei muutettu.",
            "git.choose": "Haetut muutokset osuvat samoihin kenttiin kuin omasi: valitse kullekin arvo ja tallenna.",
            "git.merging": "Haku on kesken. Valitse näissä lomakkeissa, mitkä arvot jäävät:", "git.abort": "Peru haku",
            "translations.heading": "Käännökset", "translations.intro": "Jokainen sisällön osa kielittäin: mitä on käännetty, mitä puuttuu ja mikä on vanhentunut. Linkki avaa kentän, johon käännös kirjoitetaan.",
            "translations.entity": "Sisältö", "translations.all": "Näytä kaikki", "translations.todo": "Näytä vain käännettävät",
            "translations.coverage": "{translated}/{total} tekstiä, {percent} %", "translations.done": "valmis ({n})", "translations.missing": "puuttuu {n}",
            "translations.outdated": "vanhentunut {n}", "translations.none": "Kaikki on käännetty.",
            "translations.export": "Kääntäjälle", "translations.exportTodo": "XLIFF: käännettävät", "translations.exportAll": "XLIFF: kaikki",
            "translations.exportNote": "Lataa kääntäjälle XLIFF-tiedosto (käännöstyökalut lukevat sen) ja tuo käännetty tiedosto takaisin tästä.",
            "translations.import": "Tuo käännökset", "translations.importLabel": "Kääntäjän palauttama XLIFF-tiedosto",
            "translations.imported": "Käännöksiä tuotiin: {n}.", "translations.refused": "Tuonti hylättiin, mitään ei kirjoitettu:",
            "translations.invalid": "Sisällössä on virheitä; korjaa ne ennen käännösten tuontia.",
            "translation.fallback": "Puuttuu: sovellus näyttää tämän:", "translation.outdated": "Vanhentunut: suomenkielinen teksti on muuttunut",
            "upload.drop": "Pudota kuva tähän tai valitse tiedosto", "upload.choose": "Valitse kuva", "upload.taking": "Kuvaa tuodaan…",
            "upload.busy": "Toista kuvaa tuodaan parhaillaan; yritä hetken päästä uudelleen.", "upload.adds": "Lisää julkaisuun {size}.",
            "upload.taken": "Kuva tallennettiin nimellä {path} ({format}, {width}×{height}).", "upload.alt": "Kirjoita kuvalle sanat jokaisella kielellä.",
            "removed.note": "Sovelluksen kuvista poistetaan:", "removed.none": "Kuvassa ei ole poistettavia tietoja.",
            "removed.place": "Kuvauspaikka", "removed.camera": "Kamera", "removed.date": "Kuvausaika", "removed.author": "Tekijä ja kuvaukset",
            "removed.software": "Ohjelma", "removed.other": "Muita EXIF-tietoja (kpl)",
            "unused.heading": "Käyttämättömät kuvat", "unused.note": "Mikään ei käytä näitä kuvia. Poista ne, jos niitä ei tarvita.", "unused.remove": "Poista",
            "unused.removed": "Kuva {path} poistettiin.",
            "required": "pakollinen", "limit": "{n} merkkiä enintään", "preview": "Esikatselu", "preview.title": "Sovelluksen näkymä",
            "file": "Tiedosto", "problems": "Ongelmat", "problems.none": "Ei ongelmia.",
            "conflict": "Tätä kenttää on muutettu myös levyllä.", "conflict.mine": "Sinun", "conflict.theirs": "Levyllä",
            "conflicts": "Osa muutoksistasi osuu kenttiin, joita on muutettu levyllä lomakkeen avaamisen jälkeen. Valitse kullekin arvo ja tallenna uudelleen.",
            "unreadable": "Tätä tiedostoa ei voi avata lomakkeena", "unreadable.advice": "Korjaa se tekstieditorissa; studio ei kirjoita sen päälle.",
            "missing": "Tiedostoa ei löydy",
            "release.blocked": "Tallennus onnistuu virheistä huolimatta, mutta sisältöä ei voi julkaista ennen kuin virheet on korjattu.",
            "kind.section": "Välilehti", "kind.sections": "Välilehdet", "kind.home": "Etusivu", "kind.homes": "Etusivu",
            "kind.promotion": "Kampanja", "kind.promotions": "Kampanjat", "kind.company": "Yritys", "kind.companys": "Yritys",
            "kind.product": "Tuote", "kind.products": "Tuotteet", "kind.recipe": "Resepti", "kind.recipes": "Reseptit",
            "kind.retailer": "Jälleenmyyjä", "kind.retailers": "Jälleenmyyjät",
            "field.name": "Nimi", "field.title": "Otsikko", "field.summary": "Lyhyt kuvaus", "field.text": "Teksti", "field.body": "Teksti",
            "field.method": "Valmistus", "field.image": "Kuvan teksti", "field.ingredient": "Ainesosa", "field.address": "Osoite",
            "field.phone": "Puhelin", "field.hours": "Aukioloajat", "field.info": "Muuta tietoa", "field.web": "Verkko-osoite",
            "field.ingredients": "Ainesosat", "field.promotions": "Kampanjat", "field.images": "Kuvat", "field.sells": "Myytävät tuotteet", "field.icon": "Kuvake", "field.logo": "Logo",
            "field.link": "Linkki", "field.location": "Sijainti kartalla", "location.latitude": "Leveysaste", "location.longitude": "Pituusaste", "choice.pictureFile": "Kuvatiedosto", "field.position": "Paikka listassa", "field.first-day": "Ensimmäinen päivä", "field.last-day": "Viimeinen päivä",
            "row.product": "Tuote", "row.picture": "Kuvatiedosto", "row.up": "Siirrä ylös", "row.down": "Siirrä alas", "row.remove": "Poista",
            "row.add": "Lisää rivi", "row.words": "Kuvan teksti", "row.text": "Rivi", "list.empty": "Ei rivejä.",
            "rich.toolbar": "Muotoilu", "rich.p": "Kappale", "rich.h2": "Otsikko", "rich.h3": "Väliotsikko", "rich.ul": "Luettelo",
            "rich.ol": "Numeroitu luettelo", "rich.strong": "Lihavointi", "rich.em": "Kursivointi", "rich.link": "Linkitä valinta",
            "rich.linkTarget": "Tuote tai resepti",
            "new": "Uusi", "new.heading": "Uusi: {kind}", "new.name": "Nimi", "new.id": "Tunniste (tiedoston nimi)", "new.create": "Luo", "new.picture": "Ensimmäinen kuva",
            "new.idHelp": "Pienet kirjaimet, numerot ja väliviivat, esimerkiksi cafe-latte.",
            "usedBy": "Käytössä", "usedBy.none": "Mikään ei viittaa tähän.", "actions": "Toiminnot",
            "copy": "Kopioi", "copy.id": "Kopion tunniste", "copy.name": "Kopion nimi", "rename": "Vaihda tunniste", "rename.id": "Uusi tunniste",
            "delete": "Poista", "delete.used": "Tätä ei poistettu, koska nämä käyttävät sitä:", "delete.anyway": "Poista ja poista myös viittaukset",
            "deleted": "Poistettu: {name}.", "renamed.others": "Tunniste vaihdettu; viittaukset päivitetty {n} tiedostossa.",
            "language.fi": "suomi", "language.sv": "ruotsi", "language.en": "englanti",
        ],
        "sv": [
            "studio": "Digno Studio", "skip": "Hoppa till innehållet", "overview": "Innehåll", "language": "Språk",
            "filter": "Filtrera på namn", "filter.button": "Filtrera", "filter.none": "Inga träffar.", "more": "Nästa",
            "previous": "Föregående", "page": "Sida {n}",
            "status.clean": "Innehållet har inga fel: det kan publiceras.",
            "status.errors": "Innehållet har fel ({n}): det kan inte publiceras förrän de är rättade.",
            "status.warnings": "Varningar: {n}.", "status.unchecked": "Innehållet kontrolleras…",
            "errors": "{n} fel", "warnings": "{n} varningar", "error.one": "1 fel", "warning.one": "1 varning",
            "save": "Spara", "undo": "Ångra senaste sparning", "saved": "Sparat.", "saved.merged": "Sparat. Ändringar på disken i andra fält ({n}) behölls.",
            "saved.unchanged": "Inga ändringar att spara.", "undone": "Senaste sparningen ångrad.",
            "draft.kept": "Det här formuläret har ändringar som inte sparades ({when}). Studion har behållit dem.",
            "draft.restore": "Återställ ändringarna i formuläret", "draft.discard": "Förkasta dem",
            "draft.restored": "Dina osparade ändringar finns i formuläret. Spara för att skriva dem i filen.",
            "git.heading": "Versioner", "git.branch": "gren: {branch}", "git.none": "Innehållsmappen ligger inte i ett git-förråd, så det finns inga versioner.",
            "git.changes": "Ändringar sedan senaste versionen", "git.clean": "Inga ändringar sedan senaste versionen.",
            "git.pictures": "Bilder", "git.files": "Filer", "git.message": "Vad du ändrade (meddelande)", "git.commit": "Spara som version (git commit)",
            "git.pull": "Hämta andras ändringar (pull)", "git.push": "Skicka versionerna (push)", "git.branchHeading": "En egen gren för granskning",
            "git.branchName": "Grenens namn", "git.branchButton": "Skapa grenen och byt till den", "git.history": "Historik",
            "git.messageMissing": "Skriv ett meddelande: vad du ändrade.", "git.conflicted": "Andras ändringar träffar samma ställen som dina; inget ändrades.",
            "git.done.commit": "Sparat som version {what}.", "git.done.pull": "Andras ändringar hämtade.", "git.done.push": "Versionerna skickade.",
            "git.done.branch": "Grenen {what} skapad; du är nu på den.",
            "git.done.merge": "Andras ändringar sammanfogade med dina (version {what}).", "git.done.choose": "Andras ändringar träffade samma fält som dina ({what} formulär): välj i vart och ett.",
            "git.done.abort": "Hämtningen ångrad: filerna är som i din senaste version.",
            "git.mergeFirst": "En hämtning pågår: välj först i formulären eller ångra hämtningen.", "git.unmergeable": "{path} är ingen fil som redigeras i ett formulär och kan inte sammanfogas fält för fält; inget ändrades.",
            "git.choose": "De hämtade ändringarna träffar samma fält som dina: välj ett värde för vart och ett och spara.",
            "git.merging": "En hämtning pågår. Välj i de här formulären vilka värden som blir kvar:", "git.abort": "Ångra hämtningen",
            "translations.heading": "Översättningar", "translations.intro": "Varje del av innehållet språk för språk: vad som är översatt, vad som saknas och vad som är föråldrat. En länk öppnar fältet där översättningen skrivs.",
            "translations.entity": "Innehåll", "translations.all": "Visa alla", "translations.todo": "Visa bara det som ska översättas",
            "translations.coverage": "{translated}/{total} texter, {percent} %", "translations.done": "klar ({n})", "translations.missing": "saknas {n}",
            "translations.outdated": "föråldrad {n}", "translations.none": "Allt är översatt.",
            "translations.export": "För översättaren", "translations.exportTodo": "XLIFF: att översätta", "translations.exportAll": "XLIFF: allt",
            "translations.exportNote": "Ladda ner en XLIFF-fil åt översättaren (översättningsverktyg läser den) och ta in den översatta filen här.",
            "translations.import": "Ta in översättningar", "translations.importLabel": "XLIFF-filen som översättaren lämnade tillbaka",
            "translations.imported": "Översättningar intagna: {n}.", "translations.refused": "Intagningen avvisades, inget skrevs:",
            "translations.invalid": "Innehållet har fel; rätta dem innan översättningar tas in.",
            "translation.fallback": "Saknas: appen visar det här:", "translation.outdated": "Föråldrad: den finska texten har ändrats",
            "upload.drop": "Släpp en bild här eller välj en fil", "upload.choose": "Välj bild", "upload.taking": "Bilden tas in…",
            "upload.busy": "En annan bild tas in just nu; försök igen om en stund.", "upload.adds": "Lägger till {size} i utgåvan.",
            "upload.taken": "Bilden sparades som {path} ({format}, {width}×{height}).", "upload.alt": "Skriv bildens ord på varje språk.",
            "removed.note": "Tas bort ur appens bilder:", "removed.none": "Bilden har inga uppgifter att ta bort.",
            "removed.place": "Plats där den togs", "removed.camera": "Kamera", "removed.date": "Tagen", "removed.author": "Upphov och beskrivningar",
            "removed.software": "Program", "removed.other": "Andra EXIF-uppgifter (antal)",
            "unused.heading": "Oanvända bilder", "unused.note": "Ingenting använder de här bilderna. Ta bort dem om de inte behövs.", "unused.remove": "Ta bort",
            "unused.removed": "Bilden {path} togs bort.",
            "required": "obligatoriskt", "limit": "högst {n} tecken", "preview": "Förhandsvisning", "preview.title": "Appens vy",
            "file": "Fil", "problems": "Problem", "problems.none": "Inga problem.",
            "conflict": "Det här fältet har också ändrats på disken.", "conflict.mine": "Ditt", "conflict.theirs": "På disken",
            "conflicts": "Några av dina ändringar gäller fält som ändrats på disken sedan formuläret öppnades. Välj ett värde för vart och ett och spara igen.",
            "unreadable": "Filen kan inte öppnas som formulär", "unreadable.advice": "Rätta den i en textredigerare; studion skriver inte över den.",
            "missing": "Filen finns inte",
            "release.blocked": "Du kan spara trots felen, men innehållet kan inte publiceras förrän de är rättade.",
            "kind.section": "Flik", "kind.sections": "Flikar", "kind.home": "Startsida", "kind.homes": "Startsida",
            "kind.promotion": "Kampanj", "kind.promotions": "Kampanjer", "kind.company": "Företag", "kind.companys": "Företag",
            "kind.product": "Produkt", "kind.products": "Produkter", "kind.recipe": "Recept", "kind.recipes": "Recept",
            "kind.retailer": "Återförsäljare", "kind.retailers": "Återförsäljare",
            "field.name": "Namn", "field.title": "Rubrik", "field.summary": "Kort beskrivning", "field.text": "Text", "field.body": "Text",
            "field.method": "Tillagning", "field.image": "Bildtext", "field.ingredient": "Ingrediens", "field.address": "Adress",
            "field.phone": "Telefon", "field.hours": "Öppettider", "field.info": "Övrig information", "field.web": "Webbadress",
            "field.ingredients": "Ingredienser", "field.promotions": "Kampanjer", "field.images": "Bilder", "field.sells": "Produkter som säljs", "field.icon": "Ikon", "field.logo": "Logotyp",
            "field.link": "Länk", "field.location": "Läge på kartan", "location.latitude": "Latitud", "location.longitude": "Longitud", "choice.pictureFile": "Bildfil", "field.position": "Plats i listan", "field.first-day": "Första dagen", "field.last-day": "Sista dagen",
            "row.product": "Produkt", "row.picture": "Bildfil", "row.up": "Flytta upp", "row.down": "Flytta ner", "row.remove": "Ta bort",
            "row.add": "Lägg till rad", "row.words": "Bildtext", "row.text": "Rad", "list.empty": "Inga rader.",
            "rich.toolbar": "Formatering", "rich.p": "Stycke", "rich.h2": "Rubrik", "rich.h3": "Underrubrik", "rich.ul": "Punktlista",
            "rich.ol": "Numrerad lista", "rich.strong": "Fet", "rich.em": "Kursiv", "rich.link": "Länka markeringen",
            "rich.linkTarget": "Produkt eller recept",
            "new": "Ny", "new.heading": "Ny: {kind}", "new.name": "Namn", "new.id": "Id (filens namn)", "new.create": "Skapa", "new.picture": "Första bilden",
            "new.idHelp": "Små bokstäver, siffror och bindestreck, till exempel cafe-latte.",
            "usedBy": "Används av", "usedBy.none": "Inget hänvisar hit.", "actions": "Åtgärder",
            "copy": "Kopiera", "copy.id": "Kopians id", "copy.name": "Kopians namn", "rename": "Byt id", "rename.id": "Nytt id",
            "delete": "Ta bort", "delete.used": "Togs inte bort, eftersom dessa använder det:", "delete.anyway": "Ta bort och ta bort hänvisningarna",
            "deleted": "Borttaget: {name}.", "renamed.others": "Id bytt; hänvisningarna uppdaterade i {n} filer.",
            "language.fi": "finska", "language.sv": "svenska", "language.en": "engelska",
        ],
        "en": [
            "studio": "Digno Studio", "skip": "Skip to the content", "overview": "Content", "language": "Language",
            "filter": "Filter by name", "filter.button": "Filter", "filter.none": "Nothing matches.", "more": "Next",
            "previous": "Previous", "page": "Page {n}",
            "status.clean": "The content has no errors: it can be released.",
            "status.errors": "The content has errors ({n}): it cannot be released until they are fixed.",
            "status.warnings": "Warnings: {n}.", "status.unchecked": "The content is being checked…",
            "errors": "{n} errors", "warnings": "{n} warnings", "error.one": "1 error", "warning.one": "1 warning",
            "save": "Save", "undo": "Undo the last save", "saved": "Saved.", "saved.merged": "Saved. Changes made on disk to other fields ({n}) were kept.",
            "saved.unchanged": "Nothing changed to save.", "undone": "The last save was undone.",
            "draft.kept": "This form has changes that were not saved ({when}). The studio kept them.",
            "draft.restore": "Put the changes back in the form", "draft.discard": "Discard them",
            "draft.restored": "Your unsaved changes are in the form. Save to write them into the file.",
            "git.heading": "Versions", "git.branch": "branch: {branch}", "git.none": "The content folder is not in a git repository, so there are no versions.",
            "git.changes": "Changes since the last version", "git.clean": "No changes since the last version.",
            "git.pictures": "Pictures", "git.files": "Files", "git.message": "What you changed (message)", "git.commit": "Save as a version (git commit)",
            "git.pull": "Get the others' changes (pull)", "git.push": "Send the versions (push)", "git.branchHeading": "A branch of your own for review",
            "git.branchName": "The branch's name", "git.branchButton": "Make the branch and switch to it", "git.history": "History",
            "git.messageMissing": "Write a message: what you changed.", "git.conflicted": "The others' changes meet yours in the same places; nothing was changed.",
            "git.done.commit": "Saved as version {what}.", "git.done.pull": "The others' changes are in.", "git.done.push": "The versions were sent.",
            "git.done.branch": "The branch {what} was made; you are on it now.",
            "git.done.merge": "The others' changes are merged with yours (version {what}).", "git.done.choose": "The others' changes met yours in the same fields ({what} forms): choose in each.",
            "git.done.abort": "The pull was undone: the files are as your last version has them.",
            "git.mergeFirst": "A pull is under way: choose in its forms first, or undo the pull.", "git.unmergeable": "{path} is no file a form edits, so it cannot be merged field by field; nothing was changed.",
            "git.choose": "The changes pulled meet yours in the same fields: choose a value for each and save.",
            "git.merging": "A pull is under way. Choose in these forms which values stay:", "git.abort": "Undo the pull",
            "translations.heading": "Translations", "translations.intro": "Every part of the content, language by language: what is translated, what is missing and what is outdated. A link opens the field to write the translation in.",
            "translations.entity": "Content", "translations.all": "Show all", "translations.todo": "Show only what to translate",
            "translations.coverage": "{translated} of {total} texts, {percent} %", "translations.done": "done ({n})", "translations.missing": "{n} missing",
            "translations.outdated": "{n} outdated", "translations.none": "Everything is translated.",
            "translations.export": "For a translator", "translations.exportTodo": "XLIFF: to translate", "translations.exportAll": "XLIFF: everything",
            "translations.exportNote": "Download an XLIFF file for a translator (translation tools read it), and bring the translated file back here.",
            "translations.import": "Bring translations in", "translations.importLabel": "The XLIFF file a translator gave back",
            "translations.imported": "Translations brought in: {n}.", "translations.refused": "The import was refused; nothing was written:",
            "translations.invalid": "The content has errors; fix them before bringing translations in.",
            "translation.fallback": "Missing: the app shows this instead:", "translation.outdated": "Outdated: the Finnish text has changed",
            "upload.drop": "Drop a photo here or choose a file", "upload.choose": "Choose a photo", "upload.taking": "Taking the photo in…",
            "upload.busy": "Another photo is being taken in; try again in a moment.", "upload.adds": "Adds {size} to the release.",
            "upload.taken": "The photo was saved as {path} ({format}, {width}×{height}).", "upload.alt": "Write the picture's words in each language.",
            "removed.note": "Left out of the app's copies:", "removed.none": "The photo holds nothing to leave out.",
            "removed.place": "Where it was taken", "removed.camera": "Camera", "removed.date": "When it was taken", "removed.author": "Author and descriptions",
            "removed.software": "Program", "removed.other": "Other EXIF fields (count)",
            "unused.heading": "Pictures not used", "unused.note": "Nothing uses these pictures. Remove them if they are not needed.", "unused.remove": "Remove",
            "unused.removed": "The picture {path} was removed.",
            "required": "required", "limit": "at most {n} characters", "preview": "Preview", "preview.title": "The app's screen",
            "file": "File", "problems": "Problems", "problems.none": "No problems.",
            "conflict": "This field was changed on disk too.", "conflict.mine": "Yours", "conflict.theirs": "On disk",
            "conflicts": "Some of your changes are to fields changed on disk since the form opened. Choose a value for each and save again.",
            "unreadable": "This file cannot be opened as a form", "unreadable.advice": "Fix it in a text editor; the studio does not write over it.",
            "missing": "The file is not there",
            "release.blocked": "You can save with errors, but the content cannot be released until they are fixed.",
            "kind.section": "Tab", "kind.sections": "Tabs", "kind.home": "Home", "kind.homes": "Home",
            "kind.promotion": "Promotion", "kind.promotions": "Promotions", "kind.company": "Company", "kind.companys": "Company",
            "kind.product": "Product", "kind.products": "Products", "kind.recipe": "Recipe", "kind.recipes": "Recipes",
            "kind.retailer": "Retailer", "kind.retailers": "Retailers",
            "field.name": "Name", "field.title": "Title", "field.summary": "Summary", "field.text": "Text", "field.body": "Text",
            "field.method": "Method", "field.image": "Picture's words", "field.ingredient": "Ingredient", "field.address": "Address",
            "field.phone": "Phone", "field.hours": "Opening hours", "field.info": "Other information", "field.web": "Web address",
            "field.ingredients": "Ingredients", "field.promotions": "Promotions", "field.images": "Pictures", "field.sells": "Products sold", "field.icon": "Icon", "field.logo": "Logo",
            "field.link": "Link", "field.location": "Place on the map", "location.latitude": "Latitude", "location.longitude": "Longitude", "choice.pictureFile": "Picture file", "field.position": "Place in the list", "field.first-day": "First day", "field.last-day": "Last day",
            "row.product": "Product", "row.picture": "Picture file", "row.up": "Move up", "row.down": "Move down", "row.remove": "Remove",
            "row.add": "Add a line", "row.words": "Picture's words", "row.text": "Line", "list.empty": "No lines.",
            "rich.toolbar": "Formatting", "rich.p": "Paragraph", "rich.h2": "Heading", "rich.h3": "Subheading", "rich.ul": "List",
            "rich.ol": "Numbered list", "rich.strong": "Bold", "rich.em": "Italic", "rich.link": "Link the selection",
            "rich.linkTarget": "Product or recipe",
            "new": "New", "new.heading": "New: {kind}", "new.name": "Name", "new.id": "Id (the file's name)", "new.create": "Create", "new.picture": "First picture",
            "new.idHelp": "Lower-case letters, digits and hyphens, such as cafe-latte.",
            "usedBy": "Used by", "usedBy.none": "Nothing refers to this.", "actions": "Actions",
            "copy": "Copy", "copy.id": "The copy's id", "copy.name": "The copy's name", "rename": "Change the id", "rename.id": "New id",
            "delete": "Delete", "delete.used": "Not deleted, because these use it:", "delete.anyway": "Delete, and remove the references too",
            "deleted": "Deleted: {name}.", "renamed.others": "Id changed; the references updated in {n} files.",
            "language.fi": "Finnish", "language.sv": "Swedish", "language.en": "English",
        ],
    ]
}
