import Foundation
import Testing

/// `digno show`: every screen of the shipped content, in both formats, and clear failures.
@Suite struct ShowCommandTests {
    /// The folder the shipped content is built into, once per test process; removed when the
    /// process exits.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digno-show-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ShowCommandTests.folder) }
        return folder
    }()

    static let bundle: String = {
        let output = folder.appendingPathComponent("catalog.sqlite").path
        _ = try? DignoRunner.run(["build", "--content", DignoRunner.repository.appendingPathComponent("content").path, "--output", output, "--quiet"])
        return output
    }()

    static let routes: [String] = {
        var routes = ["cafedigno://home", "cafedigno://products", "cafedigno://recipes", "cafedigno://retailers", "cafedigno://company"]
        let content = DignoRunner.repository.appendingPathComponent("content")
        for (folder, prefix) in [("products", "cafedigno://products/"), ("recipes", "cafedigno://recipes/")] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: content.appendingPathComponent(folder).path)) ?? []
            routes += names.filter { $0.hasSuffix(".xml") }.sorted().map { prefix + $0.dropLast(4) }
        }
        return routes
    }()

    @Test func everyScreenOfTheShippedContentShows() throws {
        #expect(Self.routes.count == 21)
        let expectedKinds = ["home": "home", "products": "productList", "recipes": "recipeList", "retailers": "retailerList", "company": "company"]
        for route in Self.routes {
            let outcome = try DignoRunner.run(["show", Self.bundle, route, "--format", "json", "--today", "2026-11-22"])
            #expect(outcome.status == 0, "\(route): \(outcome.errors)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
            #expect(json["route"] as? String == route)
            let tabs = try #require(json["tabs"] as? [[String: Any]])
            #expect(tabs.map { $0["id"] as? String } == ["home", "products", "recipes", "retailers", "company"])
            #expect(tabs.map { $0["title"] as? String } == ["Etusivu", "Tuotteet", "Kahvireseptit", "Jälleenmyyjät", "Deling Group"])
            let section = try #require(route.dropFirst("cafedigno://".count).split(separator: "/").first.map(String.init), "\(route)")
            #expect(tabs.filter { $0["selected"] as? Bool == true }.map { $0["id"] as? String } == [section])
            let screen = try #require(json["screen"] as? [String: Any])
            let isDetail = route.split(separator: "/").count == 3  // "cafedigno:", section, id
            #expect(screen["kind"] as? String == (isDetail ? (section == "products" ? "product" : "recipe") : expectedKinds[section]))
            switch (section, isDetail) {
            case ("home", _), ("company", _):
                #expect(json["navigationBar"] is NSNull)
            case (_, false):
                let bar = try #require(json["navigationBar"] as? [String: Any])
                #expect(bar["title"] as? String == tabs.first { $0["id"] as? String == section }?["title"] as? String)
                #expect(bar["backButton"] is NSNull)
            case (_, true):
                let bar = try #require(json["navigationBar"] as? [String: Any])
                #expect(bar["title"] is NSNull)
                #expect(bar["backButton"] as? String == (section == "products" ? "Tuotteet" : "Kahvireseptit"))
                #expect(screen["id"] as? String == route.split(separator: "/").last.map(String.init))
            }
            let text = try DignoRunner.run(["show", Self.bundle, route, "--today", "2026-11-22"])
            #expect(text.status == 0)
            #expect(text.output.hasPrefix(route + "\ntabs: "))
        }
    }

    @Test func textFormatOfARecipe() throws {
        let outcome = try DignoRunner.run(["show", Self.bundle, "cafedigno://recipes/cafe-latte"])
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("""
            cafedigno://recipes/cafe-latte
            tabs: Etusivu | Tuotteet | [Kahvireseptit] | Jälleenmyyjät | Deling Group
            navigation bar: < Kahvireseptit
            language: fi

            Café Latte
            Italialainen maitokahvi

            - 1–2 annosta Café Digno Espressoa → cafedigno://products/espresso
            - 2–3 dl täysmaitoa

            """))
        #expect(outcome.output.hasSuffix("products: Espresso\n"))
    }

    @Test func aScreenInSwedishMarksWhatIsNotTranslated() throws {
        // The shipped content with a recipe's Swedish summary, second line and first alt text left out.
        let content = Self.folder.appendingPathComponent("partly-swedish")
        try? FileManager.default.removeItem(at: content)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
        let recipe = content.appendingPathComponent("recipes/cafe-latte.xml")
        let lines = try String(contentsOf: recipe, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let untranslated = ["<summary xml:lang=\"sv\">", "standardmjölk", "i ett glas</alt>"]
        let kept = lines.filter { line in !untranslated.contains { line.contains($0) } }
        #expect(kept.count == lines.count - 3)
        try kept.joined(separator: "\n").write(to: recipe, atomically: true, encoding: .utf8)
        let bundle = Self.folder.appendingPathComponent("partly-swedish.sqlite").path
        let build = try DignoRunner.run(["build", "--content", content.path, "--output", bundle, "--quiet"])
        #expect(build.status == 0, "\(build.errors)")

        let swedish = try DignoRunner.run(["show", bundle, "cafedigno://recipes/cafe-latte", "--lang", "sv-FI"])
        #expect(swedish.status == 0, "\(swedish.errors)")
        #expect(swedish.output == """
            cafedigno://recipes/cafe-latte
            tabs: Hem | Produkter | [Kafferecept] | Återförsäljare | Deling Group
            navigation bar: < Kafferecept
            language: sv

            Caffè latte
            Italialainen maitokahvi [fi]

            - 1–2 shots Café Digno Espresso → cafedigno://products/espresso
            - 2–3 dl täysmaitoa [fi]

            Brygg espresson. Skumma den uppvärmda mjölken. Häll den heta espresson i botten av ett glas och toppa med mjölkskummet.

            picture: 230e22640f3f "Café Latte lasissa" [fi]
            picture: 9ca19faa695a "Mjölkskum hälls över espresso"

            products: Espresso

            """)
        let json = try DignoRunner.run(["show", bundle, "cafedigno://recipes/cafe-latte", "--lang", "sv", "--format", "json"])
        let screen = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])["screen"] as? [String: Any]
        #expect(screen?["languages"] as? NSDictionary == ["language": "sv", "fallbacks": ["summary": "fi"]] as NSDictionary)
        let ingredients = try #require(screen?["ingredients"] as? [[String: Any]])
        #expect(ingredients.map { $0["languages"] as? NSDictionary } == [
            ["language": "sv", "fallbacks": [:] as [String: String]], ["language": "sv", "fallbacks": ["text": "fi"]],
        ] as [NSDictionary])

        // The list: Swedish alphabetical order after the editor's positions, as the bundle holds it.
        let list = try DignoRunner.run(["show", bundle, "cafedigno://recipes", "--lang", "sv"])
        #expect(list.output.contains("Caffè latte — Italialainen maitokahvi [fi]  [icon "))

        let unknown = try DignoRunner.run(["show", bundle, "cafedigno://home", "--lang", "de"])
        #expect(unknown.status == 1)
        #expect(unknown.errors == "error: the bundle has no language 'de'; it has fi, sv, en\n")
    }

    @Test func searchKeepsTheLettersOfEachLanguage() throws {
        // Two recipes whose names differ by ä (Finnish) and by ö (Swedish) alone at the start.
        let content = Self.folder.appendingPathComponent("letters")
        try? FileManager.default.removeItem(at: content)
        try FileManager.default.copyItem(at: DignoRunner.repository.appendingPathComponent("content"), to: content)
        func replace(_ file: String, _ old: String, _ new: String) throws {
            let url = content.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old), "\(file): \(old)")
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
        try replace("recipes/cafe-latte.xml", "<name>Café Latte</name>\n  <name xml:lang=\"sv\">Caffè latte</name>",
                    "<name>Päärynälatte</name>\n  <name xml:lang=\"sv\">Mjölkkaffe</name>")
        try replace("recipes/cappuccino.xml", "<name translate=\"no\">Cappuccino</name>",
                    "<name>Paahtolatte</name>\n  <name xml:lang=\"sv\">Mjolkdryck</name>\n  <name xml:lang=\"en\">Cappuccino</name>")
        let bundle = Self.folder.appendingPathComponent("letters.sqlite").path
        let build = try DignoRunner.run(["build", "--content", content.path, "--output", bundle, "--quiet"])
        #expect(build.status == 0, "\(build.errors)")
        func hits(_ text: String, _ language: String) throws -> [String] {
            let outcome = try DignoRunner.run(["show", bundle, "--search", text, "--lang", language])
            #expect(outcome.status == 0, "\(outcome.errors)")
            return outcome.output.split(separator: "\n").dropFirst(2).map { String($0.split(separator: " — ")[0]) }
        }
        // Written with ä: the name with ä first; without it: the name with a first, and the
        // other still found, after.
        #expect(try hits("pää", "fi").prefix(2) == ["Päärynälatte", "Paahtolatte"])
        #expect(try hits("paa", "fi").prefix(2) == ["Paahtolatte", "Päärynälatte"])
        #expect(try hits("mjö", "sv").prefix(2) == ["Mjölkkaffe", "Mjolkdryck"])
        #expect(try hits("mjo", "sv").prefix(2) == ["Mjolkdryck", "Mjölkkaffe"])
        #expect(try hits("MJÖLKK", "sv").first == "Mjölkkaffe")
        // An accent that is not a letter of its own is folded both ways, in every language.
        #expect(try hits("cafe", "en").contains("Café au lait") && hits("café", "fi").contains("Café au Lait"))
        #expect(try hits("caffe", "en").contains("Caffè mocha") && hits("caffè", "sv").contains("Caffè mocha"))
        // Each language searches its own texts: a Swedish word finds nothing in Finnish.
        #expect(try hits("mjölkkaffe", "fi").isEmpty)
        #expect(try hits("päärynälatte", "sv").isEmpty)

        let json = try DignoRunner.run(["show", bundle, "--search", "mjö", "--lang", "sv", "--format", "json"])
        let first = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]).first
        #expect(first?["name"] as? String == "Mjölkkaffe")
        #expect(first?["target"] as? NSDictionary == ["recipe": ["_0": "cafe-latte"]] as NSDictionary)
        let both = try DignoRunner.run(["show", bundle, "cafedigno://home", "--search", "x"])
        #expect(both.status == 2 && both.errors.contains("give a route or --search, not both"))
    }

    @Test func badRoutesAndBundlesFailWithTheirMessage() throws {
        let unknown = try DignoRunner.run(["show", Self.bundle, "cafedigno://products/mocha"])
        #expect(unknown.status == 1)
        #expect(unknown.errors == "error: there is no product 'mocha' in this bundle\n")
        let badPath = try DignoRunner.run(["show", Self.bundle, "cafedigno://shop"])
        #expect(badPath.status == 1)
        #expect(badPath.errors.hasPrefix("error: 'cafedigno://shop' names no screen; "))
        let notABundle = try DignoRunner.run(["show", "Package.swift", "cafedigno://home"])
        #expect(notABundle.status == 1)
        #expect(notABundle.errors == "error: 'Package.swift' is not a Café Digno bundle: it is not an SQLite database\n")
        let missing = try DignoRunner.run(["show", "nothing.sqlite", "cafedigno://home"])
        #expect(missing.status == 1)
        #expect(missing.errors == "error: no bundle at 'nothing.sqlite'\n")
    }

    @Test func aForgottenBundleIsToldAsSuch() throws {
        // The route alone: argument-parser would take it for the bundle and ask for a route.
        let routeAlone = try DignoRunner.run(["show", "cafedigno://home"])
        #expect(routeAlone.status == 2)
        #expect(routeAlone.output == "")
        #expect(routeAlone.errors == """
            Error: 'cafedigno://home' is a route; the first argument must be the bundle file, then the route: digno show dist/catalog.sqlite cafedigno://home
            Usage: digno show <bundle> (<route> | --search <text>) [--lang <language>] [--format <format>] [--today <day>]
              See 'digno show --help' for more information.

            """)
        let swapped = try DignoRunner.run(["show", "cafedigno://recipes", Self.bundle])
        #expect(swapped.status == 2)
        #expect(swapped.errors.hasPrefix("Error: the bundle file comes first, then the route: digno show \(Self.bundle) cafedigno://recipes\n"))
        let bundleAlone = try DignoRunner.run(["show", Self.bundle])
        #expect(bundleAlone.status == 2)
        #expect(bundleAlone.errors.hasPrefix("Error: name the route to show after the bundle file, such as digno show dist/catalog.sqlite cafedigno://home\n"))
    }
}
