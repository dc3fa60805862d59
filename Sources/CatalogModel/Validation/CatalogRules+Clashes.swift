extension CatalogRules {
    /// Two products, recipes or retailers with the same name, or two promotions with the same
    /// title: a reader of the app cannot tell them apart. Reported at the second, naming the
    /// first. Names are compared as a reader sees them (`readerKey`), one dictionary per list.
    mutating func checkDuplicateNames() {
        checkNames(catalog.products, kind: .product) { ($0.id.rawValue, $0.name) }
        checkNames(catalog.recipes, kind: .recipe) { ($0.id.rawValue, $0.name) }
        checkNames(catalog.retailers, kind: .retailer) { ($0.id.rawValue, $0.name) }
        // A promotion whose id an earlier one has is left to `duplicate-id`: the two are one
        // entity to whatever places a problem by its entity, so the title could not be pointed at.
        var ids = Set<PromotionID>()
        let distinct = catalog.home.promotions.enumerated().filter { ids.insert($0.element.id).inserted }
        var first: [String: (index: Int, promotion: Promotion)] = [:]
        for (index, promotion) in distinct where !promotion.title.showsNothing {
            let key = Self.readerKey(promotion.title)
            guard let original = first[key] else {
                first[key] = (index, promotion)
                continue
            }
            let clash = CatalogIssue.Clash(
                other: EntityReference(.promotion, original.promotion.id.rawValue), field: FieldPath("promotion", original.index),
                lead: "promotion title '\(promotion.title)' is also the title of ",
                rest: Self.spelling(original.promotion.title, beside: promotion.title) + "; give each promotion a title of its own")
            report(.duplicateName, EntityReference(.promotion, promotion.id.rawValue), FieldPath("title"), clash,
                   otherNamed: "promotion '\(original.promotion.id)'")
        }
    }

    /// Each promotion's id once: the home page's list is the one list of entities whose ids are
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
            let clash = CatalogIssue.Clash(
                other: entity, field: FieldPath("promotion", original),
                lead: "promotion id '\(promotion.id)' is also the id of ", rest: "; give each promotion an id of its own")
            report(.duplicateID, entity, FieldPath("promotion", index), clash, otherNamed: "promotion number \(original + 1) of the home page")
        }
    }

    private mutating func checkNames<Entity>(
        _ entities: [Entity], kind: EntityReference.Kind, _ idAndName: (Entity) -> (id: String, name: String)
    ) {
        var first: [String: Int] = [:]  // a name as a reader sees it → the index of the first to have it
        first.reserveCapacity(entities.count)
        for (index, entity) in entities.enumerated() {
            let (id, name) = idAndName(entity)
            guard !name.showsNothing else { continue }  // `empty-field` says what to do
            let key = Self.readerKey(name)
            guard let original = first[key].map({ idAndName(entities[$0]) }) else {
                first[key] = index
                continue
            }
            let other = EntityReference(kind, original.id)
            let clash = CatalogIssue.Clash(
                other: other, field: FieldPath("name"), lead: "\(kind.rawValue) name '\(name)' is also the name of ",
                rest: Self.spelling(original.name, beside: name) + "; give each \(kind.rawValue) a name of its own")
            report(.duplicateName, EntityReference(kind, id), FieldPath("name"), clash, otherNamed: other.description)
        }
    }

    private mutating func report(
        _ code: CatalogIssue.Code, _ entity: EntityReference, _ field: FieldPath, _ clash: CatalogIssue.Clash, otherNamed name: String
    ) {
        var issue = CatalogIssue(severity: .error, code: code, entity: entity, field: field, message: clash.message(naming: name))
        issue.clash = clash
        issues.append(issue)
    }

    /// ` (written 'Café Latte')` when the first name is written otherwise than the second, in
    /// capitals or spaces; nothing when the two are written alike.
    private static func spelling(_ original: String, beside name: String) -> String {
        original == name ? "" : " (written '\(original)')"
    }

    /// A name as a reader tells names apart: runs of whitespace one space and none at the ends,
    /// and capitals as small letters, by Unicode's default case mappings (lower, upper, then
    /// lower again: "STRASSE" and "STRAẞE" meet "Straße", "ΟΔΟΣ" meets "οδος"), the same in
    /// every locale. Accents stay: "Kahvi" and "Kähvi" are two names; so does the dotless ı, a
    /// letter of its own in Turkish, which the mappings would make an i.
    ///
    /// Names of ASCII are folded byte by byte, and names of Latin letters with one lower-case
    /// mapping (ä, ö, é: most of the rest) with one `lowercased()`; 100,000 names take some
    /// 40 ms. The parser has already collapsed whitespace, so a name is split only when it has
    /// a run to collapse.
    static func readerKey(_ name: String) -> String {
        let utf8 = name.utf8
        var isASCII = true
        var needsCollapsing = utf8.first == 0x20 || utf8.last == 0x20
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte >= 0x80 { isASCII = false }
            if byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) { needsCollapsing = true }
            previous = byte
        }
        if isASCII && !needsCollapsing {
            return String(unsafeUninitializedCapacity: utf8.count) { output in
                for (index, byte) in utf8.enumerated() { output[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
                return utf8.count
            }
        }
        let collapsed = !needsCollapsing ? name
            : name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
        if collapsed.unicodeScalars.allSatisfy({ $0.value < 0x250 && !Self.foldsFurther.contains($0.value) }) {
            return collapsed.lowercased()
        }
        return collapsed.split(separator: "ı", omittingEmptySubsequences: false)
            .map { $0.lowercased().uppercased().lowercased() }
            .joined(separator: "ı")
    }

    /// The Latin letters below U+0250 whose lower-case form is not yet their folded form, or
    /// that must keep their own: µ (the Greek μ folded), ß (ss), İ, ı, ŉ, ſ (s), ǰ.
    private static let foldsFurther: Set<UInt32> = [0xB5, 0xDF, 0x130, 0x131, 0x149, 0x17F, 0x1F0]
}
