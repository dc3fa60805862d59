import CatalogModel

extension CatalogRules {
    /// Two products, recipes or retailers with the same name, or two promotions with the same
    /// title: a reader of the app cannot tell them apart. Reported at both, each naming the
    /// other (two files: either may be the one an editor touched); two promotion titles in the
    /// home's one file, at the second, naming the first. Names are compared as a reader sees them (`readerKey`), one dictionary per list.
    mutating func checkDuplicateNames() {
        checkNames(catalog.products, kind: .product) { ($0.id.rawValue, $0.name) }
        checkNames(catalog.recipes, kind: .recipe) { ($0.id.rawValue, $0.name) }
        checkNames(catalog.retailers, kind: .retailer) { ($0.id.rawValue, $0.name) }
        // A promotion whose id an earlier one has is left to `duplicate-id`: the two are one
        // entity to whatever places a problem by its entity, so the title could not be pointed at.
        var ids = Set<PromotionID>()
        let distinct = catalog.home.promotions.enumerated().filter { ids.insert($0.element.id).inserted }
        var first: [String: (index: Int, promotion: Promotion)] = [:]
        for (index, promotion) in distinct where !promotion.title.showsNothing && !Self.isOver(FieldLimits.title, promotion.title) {
            let key = Self.readerKey(promotion.title)
            guard let original = first[key] else {
                first[key] = (index, promotion)
                continue
            }
            let clash = EntityDiagnostic.Clash(
                other: EntityReference(.promotion, original.promotion.id.rawValue), field: .promotion(original.index),
                lead: "promotion title '\(promotion.title)' is also the title of ",
                rest: Self.spelling(original.promotion.title, beside: promotion.title) + "; give each promotion a title of its own")
            report(.duplicateName, EntityReference(.promotion, promotion.id.rawValue), .title, clash,
                   otherNamed: "promotion '\(original.promotion.id)'")
        }
    }

    /// Each promotion's id once: the home's list is the one list of entities whose ids are
    /// written in one file rather than given by file names. Reported at the second, naming the
    /// first by its place in the list.
    mutating func checkPromotionIDs() {
        var first: [PromotionID: Int] = [:]
        for (index, promotion) in catalog.home.promotions.enumerated() {
            guard let original = first[promotion.id] else {
                first[promotion.id] = index
                continue
            }
            let entity = EntityReference(.promotion, promotion.id.rawValue)
            let clash = EntityDiagnostic.Clash(
                other: entity, field: .promotion(original),
                lead: "promotion id '\(promotion.id)' is also the id of ", rest: "; give each promotion an id of its own")
            report(.duplicateID, entity, .promotion(index), clash, otherNamed: "promotion number \(original + 1) of the home page")
        }
    }

    private mutating func checkNames<Entity>(
        _ entities: [Entity], kind: EntityReference.Kind, _ idAndName: (Entity) -> (id: String, name: String)
    ) {
        var first: [String: Int] = [:]  // a name as a reader sees it → the index of the first to have it
        // `empty-field` and `name-too-long` say what to do.
        func key(_ name: String) -> String? {
            name.showsNothing || Self.isOver(FieldLimits.name, name) ? nil : Self.readerKey(name)
        }
        // With a focus, only the names of the focus's entities can clash at them: the others are
        // compared to those few, not each put in the dictionary (its hashing was a tenth of a
        // form's check as typed at 10,000 entities).
        var focusKeys: [String]?
        if let focus {
            let ids = focus.filter { $0.kind == kind }.map(\.id)
            guard !ids.isEmpty else { return }
            let keys = entities.indices.compactMap { index in
                let (id, name) = idAndName(entities[index])
                return ids.contains(id) ? key(name) : nil
            }
            guard !keys.isEmpty else { return }
            focusKeys = keys
        } else {
            first.reserveCapacity(entities.count)
        }
        // By index, each entity read in place: a copy of each cost more than the check.
        for index in entities.indices {
            let (id, name) = idAndName(entities[index])
            guard let key = key(name), focusKeys?.contains(key) ?? true else { continue }
            guard let original = first[key].map({ idAndName(entities[$0]) }) else {
                first[key] = index
                continue
            }
            let other = EntityReference(kind, original.id)
            let clash = EntityDiagnostic.Clash(
                other: other, field: .name, lead: "\(kind.rawValue) name '\(name)' is also the name of ",
                rest: Self.spelling(original.name, beside: name) + "; give each \(kind.rawValue) a name of its own")
            report(.duplicateName, EntityReference(kind, id), .name, clash, otherNamed: other.description)
            // And at the first, naming the second: the editor who wrote either file hears of it
            // there, whichever of the two they touched.
            let second = EntityReference(kind, id)
            let mirror = EntityDiagnostic.Clash(
                other: second, field: .name, lead: "\(kind.rawValue) name '\(original.name)' is also the name of ",
                rest: Self.spelling(name, beside: original.name) + "; give each \(kind.rawValue) a name of its own")
            report(.duplicateName, other, .name, mirror, otherNamed: second.description)
        }
    }

    private mutating func report(
        _ code: DiagnosticCode, _ entity: EntityReference, _ field: FieldPath, _ clash: EntityDiagnostic.Clash, otherNamed name: String
    ) {
        var diagnostic = EntityDiagnostic(severity: .error, code: code, entity: entity, field: field, message: clash.message(naming: name))
        diagnostic.clash = clash
        diagnostics.append(diagnostic)
    }

    /// ` (written 'Café Latte')` when the first name is written otherwise than the second, in
    /// capitals or spaces; nothing when the two are written alike.
    private static func spelling(_ original: String, beside name: String) -> String {
        original == name ? "" : " (written '\(original)')"
    }

    /// A name as a reader tells names apart: any run of whitespace (a no-break space too) one
    /// space and none at the ends, characters that show nothing (a zero-width space, a soft
    /// hyphen) left out, and capitals as small letters, by Unicode's default case mappings
    /// (lower, upper, then lower again: "STRASSE" and "STRAẞE" meet "Straße", "ΟΔΟΣ" meets
    /// "οδος"), the same in every locale. Accents stay: "Kahvi" and "Kähvi" are two names; so
    /// does the dotless ı, a letter of its own in Turkish, which the mappings would make an i.
    ///
    /// Names of ASCII with single spaces are folded byte by byte, and names of Latin letters
    /// with one lower-case mapping (ä, ö, é: most of the rest) with one `lowercased()`; 100,000
    /// names take some 40 ms.
    static func readerKey(_ name: String) -> String {
        var name = name
        let ascii = name.withUTF8 { bytes -> String? in
            // Byte by byte over the buffer: a 4 MiB name took a second through `utf8` in a
            // debug build.
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return nil }
            var previous: UInt8 = 0
            for byte in bytes {
                if byte >= 0x80 || byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) { return nil }
                previous = byte
            }
            return String(unsafeUninitializedCapacity: bytes.count) { output in
                for index in bytes.indices {
                    let byte = bytes[index]
                    output[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                return bytes.count
            }
        }
        if let ascii { return ascii }
        var shown = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !shown.isEmpty
            } else if !scalar.properties.isDefaultIgnorableCodePoint {
                if pendingSpace { shown.append(" ") }
                pendingSpace = false
                shown.append(scalar)
            }
        }
        let collapsed = String(shown)
        if collapsed.unicodeScalars.allSatisfy({ $0.value < 0x250 && !Self.foldsFurther.contains($0.value) }) {
            return collapsed.lowercased()
        }
        return collapsed.split(separator: "ı", omittingEmptySubsequences: false)
            .map { $0.lowercased().uppercased().lowercased() }
            .joined(separator: "ı")
    }

    /// Whether `text` is longer than `limit` characters: such a name is an error of its own,
    /// and not compared (a 4 MiB name took a second to fold in a debug build). Counted only when
    /// its bytes could be over the limit.
    private static func isOver(_ limit: Int, _ text: String) -> Bool {
        text.utf8.count > limit && text.count > limit
    }

    /// The Latin letters below U+0250 whose lower-case form is not yet their folded form, or
    /// that must keep their own: µ (the Greek μ folded), ß (ss), İ, ı, ŉ, ſ (s), ǰ.
    private static let foldsFurther: Set<UInt32> = [0xB5, 0xDF, 0x130, 0x131, 0x149, 0x17F, 0x1F0]
}
