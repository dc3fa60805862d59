import CatalogModel

extension CatalogRules {
    // MARK: Duplicate ids, positions and texts

    mutating func checkUnique(_ ids: [String], kind: EntityReference.Kind) {
        // With a focus, only its ids can be reported: compared to those few, not each hashed.
        if let focus {
            let wanted = focus.filter { $0.kind == kind }.map(\.id)
            guard !wanted.isEmpty else { return }
            var seen: [String] = []
            for id in ids where wanted.contains(id) {
                if seen.contains(id) {
                    report(.duplicateID, EntityReference(kind, id), nil, "\(kind.rawValue) id '\(id)' is used twice; ids must be unique")
                } else {
                    seen.append(id)
                }
            }
            return
        }
        var seen = Set<String>(minimumCapacity: ids.count)
        for id in ids where !seen.insert(id).inserted {
            report(.duplicateID, EntityReference(kind, id), nil, "\(kind.rawValue) id '\(id)' is used twice; ids must be unique")
        }
    }

    mutating func checkPositions(_ entries: [(id: String, position: Int?)], kind: EntityReference.Kind) {
        // With a focus, only the positions its entities hold can be reported at them.
        let focusIDs = focus.map { focus in focus.filter { $0.kind == kind }.map(\.id) }
        if focusIDs?.isEmpty == true { return }
        let focusPositions = focusIDs.map { ids in Set(entries.compactMap { ids.contains($0.id) ? $0.position : nil }) }
        var holder: [Int: String] = [:]
        for entry in entries {
            guard let position = entry.position, focusPositions?.contains(position) ?? true else { continue }
            if let other = holder[position] {
                report(.duplicatePosition, EntityReference(kind, entry.id), .position,
                       "position \(position) is also given to \(kind.rawValue) '\(other)'; give each a different position")
            } else {
                holder[position] = entry.id
            }
        }
    }

    /// Two entities with the same text are almost always a copy-and-paste slip. Each text is
    /// kept only as a hash of its collapsed bytes; texts whose hashes meet are compared in
    /// full, so a hash collision never reports a false duplicate. (Keeping every text as a
    /// dictionary key cost 40 MB and a second at 100,000 entities.)
    mutating func checkDuplicateTexts() {
        let productCount = catalog.products.count
        // Entity `index` is product `index`, or recipe `index - productCount`.
        func text(_ index: Int) -> RichText {
            index < productCount ? catalog.products[index].body : catalog.recipes[index - productCount].method
        }
        func entity(_ index: Int) -> EntityReference {
            index < productCount ? EntityReference(.product, catalog.products[index].id.rawValue)
                : EntityReference(.recipe, catalog.recipes[index - productCount].id.rawValue)
        }
        var firstByHash: [Int: [Int]] = [:]  // hash of collapsed text → indices of first holders
        var collapsed = Self.CollapsedText()
        var other = Self.CollapsedText()
        // The hash of entity `index`'s collapsed text, nil for one that shows nothing: from the
        // memo while the text is the one it was.
        func textHash(_ index: Int) -> Int? {
            let body = text(index)
            func compute() -> Int? {
                collapsed.set(body.plainText)
                return collapsed.isEmpty ? nil : collapsed.hashValue
            }
            return memo.map { $0.textHash(of: entity(index), in: memoLanguage, body, compute: compute) } ?? compute()
        }
        // With a focus, only the texts with the hash of one of its texts can be reported at
        // it: the others are not grouped (a list for each text, at each check as typed).
        var focusHashes: Set<Int>?
        if let focus {
            let products = focus.filter { $0.kind == .product }.map(\.id), recipes = focus.filter { $0.kind == .recipe }.map(\.id)
            guard !products.isEmpty || !recipes.isEmpty else { return }
            let indices = catalog.products.indices.filter { products.contains(catalog.products[$0].id.rawValue) }
                + catalog.recipes.indices.filter { recipes.contains(catalog.recipes[$0].id.rawValue) }.map { $0 + productCount }
            focusHashes = Set(indices.compactMap(textHash))
            guard !(focusHashes?.isEmpty ?? true) else { return }
        }
        for index in 0..<(productCount + catalog.recipes.count) {
            let body = text(index)
            guard let hash = textHash(index), focusHashes?.contains(hash) ?? true else { continue }
            let original = firstByHash[hash]?.first { candidate in
                collapsed.set(body.plainText)
                other.set(text(candidate).plainText)
                return other == collapsed
            }
            if let original {
                let field: RichTextField = index < productCount ? .body : .method
                let current = entity(index)
                report(.duplicateText, current, field.path,
                       "\(field.rawValue) is the same text as in \(entity(original)); write this \(current.kind.rawValue)'s own text",
                       severity: .warning)
            } else {
                firstByHash[hash, default: []].append(index)
            }
        }
    }

    /// A text's UTF-8 bytes with runs of ASCII whitespace made one space and none at the
    /// ends, so texts that differ only in line breaks and indentation compare equal. Bytes, not
    /// a `String`: it runs over every text of a catalogue, and hashing bytes skips Unicode
    /// normalisation. ASCII bytes never occur inside other characters. The buffer is reused
    /// from text to text and written through a pointer: appending byte by byte checked the
    /// array's capacity and uniqueness on every byte.
    struct CollapsedText: Hashable {
        private var buffer: [UInt8] = []
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        mutating func set(_ text: String) {
            var text = text
            let needed = text.utf8.count
            if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
            count = text.withUTF8 { source in
                buffer.withUnsafeMutableBufferPointer { output in
                    var written = 0
                    var pendingSpace = false
                    for byte in source {
                        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                            pendingSpace = written > 0
                        } else {
                            if pendingSpace {
                                output[written] = 0x20
                                written += 1
                            }
                            pendingSpace = false
                            output[written] = byte
                            written += 1
                        }
                    }
                    return written
                }
            }
        }

        /// The collapsed bytes.
        var bytes: ArraySlice<UInt8> { buffer[0..<count] }

        static func == (a: Self, b: Self) -> Bool { a.bytes == b.bytes }

        func hash(into hasher: inout Hasher) {
            buffer.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
