import CatalogContent
import CatalogModel

/// The image file a path that names none most likely meant: one of the same name in another
/// folder, or else the nearest name in the same folder (by edit distance, capitals and small
/// letters alike, within about a quarter of the name). Among equally near files one that
/// nothing uses comes first: it is most likely the picture meant.
///
/// Kept cheap for a folder of 100,000 images: the images are indexed by name and by folder on
/// first use; each missing path is looked up once however often it is used, and compared only
/// with the names of its own folder, of about its length and with about its letters; and a run
/// compares at most `comparisonBudget` names in all. Without the last two, 300 mistyped paths
/// into a folder of 100,000 images took three and a half minutes (debug build).
struct ImageSuggestion {
    /// The file meant, and whether it differs from the path only in capitals and small letters.
    struct Match: Hashable {
        var path: String
        var differsOnlyInCase: Bool
    }

    /// How many names one run compares with a missing path's at most, over all missing paths:
    /// ten paths in a folder of 100,000 images, thousands in folders of hundreds. A million
    /// comparisons took 0.09 s (release build). A path whose folder no longer fits in what is
    /// left gets no near name, rather than the nearest of part of its folder.
    static let comparisonBudget = 1_000_000

    private let files: [String]
    private var index: Index?
    private var found: [String: Match?] = [:]
    private var comparisonsLeft = comparisonBudget

    private struct Index {
        /// The paths of the images of each name.
        var byName: [String: [String]] = [:]
        /// For each folder, by its path in small letters, its images. Strings rather than
        /// arrays of characters: 100,000 arrays took 35 MB.
        var byFolder: [String: [Candidate]] = [:]
    }

    private struct Candidate {
        var path: String
        /// The name in small letters, its length in characters, and whether it is ASCII.
        var name: String
        var length: Int
        var isASCII: Bool
    }

    init(files: [String]) {
        self.files = files
    }

    /// The file `path` most likely meant, nil when none is near; `used` are the images the
    /// content uses.
    mutating func match(for path: String, used: Set<String>) -> Match? {
        if let known = found[path] { return known }
        let match = nearest(to: path, used: used)
        found[path] = match
        return match
    }

    private mutating func nearest(to path: String, used: Set<String>) -> Match? {
        let index = self.index ?? Self.makeIndex(files)
        self.index = index
        let (folder, name) = Self.split(path)
        // The same name in another folder. Byte for byte, not as strings: in another Unicode
        // spelling in the same folder it is the file itself, found before any suggestion.
        let sameName = (index.byName[name] ?? []).filter { !$0.utf8.elementsEqual(path.utf8) }
        if let meant = sameName.first(where: { !used.contains($0) }) ?? sameName.first {
            return Match(path: meant, differsOnlyInCase: meant.lowercased() == path.lowercased())
        }
        // The nearest name in the same folder.
        let candidates = index.byFolder[folder.lowercased()] ?? []
        guard candidates.count <= comparisonsLeft else { return nil }
        comparisonsLeft -= candidates.count
        let lowered = name.lowercased()
        let typed = Array(lowered)
        let limit = max(2, typed.count / 4)
        var letters = LetterCount(lowered)
        var best: (distance: Int, unused: Bool, path: String)?
        for candidate in candidates where !candidate.path.utf8.elementsEqual(path.utf8) {
            let bound = best.map { min($0.distance, limit) } ?? limit
            guard abs(candidate.length - typed.count) <= bound,
                !(candidate.isASCII && letters.difference(from: candidate.name) > bound),
                let distance = editDistance(typed, Array(candidate.name), limit: bound)
            else { continue }
            let entry = (distance: distance, unused: !used.contains(candidate.path), path: candidate.path)
            if let current = best,
                (current.distance, current.unused ? 0 : 1, current.path) <= (entry.distance, entry.unused ? 0 : 1, entry.path) { continue }
            best = entry
        }
        return best.map { Match(path: $0.path, differsOnlyInCase: $0.distance == 0) }
    }

    private static func makeIndex(_ files: [String]) -> Index {
        var index = Index()
        for path in files {
            let (folder, name) = split(path)
            index.byName[name, default: []].append(path)
            let lowered = name.lowercased()
            let isASCII = lowered.utf8.allSatisfy { $0 < 0x80 }
            index.byFolder[folder.lowercased(), default: []].append(
                Candidate(path: path, name: lowered, length: isASCII ? lowered.utf8.count : lowered.count, isASCII: isASCII))
        }
        return index
    }

    /// `images/recipes` and `latte.png` from `images/recipes/latte.png`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}

/// How many of each ASCII letter a typed name has, for a bound on its edit distance from
/// another ASCII name that costs one pass over that name and no allocation: an edit adds,
/// removes or changes one letter, so two names are at least as many edits apart as the
/// letters one has beyond the other's.
private struct LetterCount {
    private var counts = [Int](repeating: 0, count: 256)  // by byte: any byte has its place
    private let total: Int
    private let isASCII: Bool

    init(_ name: String) {
        isASCII = name.utf8.allSatisfy { $0 < 0x80 }
        total = name.utf8.count
        if isASCII { for byte in name.utf8 { counts[Int(byte)] += 1 } }
    }

    /// The letters the typed name has beyond `other`, or `other` beyond it, whichever is more;
    /// 0 when the typed name is not ASCII. A bound only when `other` is ASCII too.
    mutating func difference(from other: String) -> Int {
        guard isASCII else { return 0 }
        var other = other
        let total = self.total
        // Through pointers: an array subscript checked its bounds and uniqueness at every
        // byte, twice the time of the whole comparison.
        return other.withUTF8 { bytes in
            counts.withUnsafeMutableBufferPointer { counts in
                var typedBeyond = total, otherBeyond = 0
                for byte in bytes {
                    if counts[Int(byte)] > 0 { typedBeyond -= 1 } else { otherBeyond += 1 }
                    counts[Int(byte)] -= 1
                }
                for byte in bytes { counts[Int(byte)] += 1 }
                return max(typedBeyond, otherBeyond)
            }
        }
    }
}
