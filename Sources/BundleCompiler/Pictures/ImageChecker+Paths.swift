import CatalogModel

/// How a `src` names a file: its normal form, the file on disk, and the characters no path
/// should hold.
extension ImageChecker {
    /// The path with `.` and empty parts removed; nil for an absolute path, a `..` part, a
    /// backslash or a home-folder path, all of which could leave the content folder.
    static func normalized(_ source: String) -> String? {
        if isPlainRelativePath(source) { return source }
        guard !source.hasPrefix("/"), !source.hasPrefix("~"), !source.contains("\\") else { return nil }
        var parts: [Substring] = []
        for part in source.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// The path on disk of the file a `src` names (`path`, normalised, in NFC like every
    /// value): `path` itself, or the listed image of that name spelled in another Unicode
    /// form, such as a decomposed "é" (`ContentTree.imageSpellings`).
    static func pathOnDisk(_ path: String, spellings: [String: String]) -> String {
        spellings.isEmpty ? path : spellings[path] ?? path
    }

    /// The first character in `source` that shows as nothing or changes how the path reads: a
    /// control character (a tab or line break written as `&#9;` or `&#10;`, U+0085), a format
    /// character (a zero-width space, a right-to-left override) or a line or paragraph
    /// separator. A path of printable ASCII, the common case, is passed on its bytes.
    static func firstInvisible(in source: String) -> Unicode.Scalar? {
        if source.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        return source.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
    }

    /// `invisible` in words, by its code.
    static func words(for invisible: Unicode.Scalar) -> String {
        let code = unicodeCode(invisible.value)
        switch invisible.properties.generalCategory {
        case .control: return "the invisible control character \(code)"
        case .lineSeparator: return "a line separator (\(code))"
        case .paragraphSeparator: return "a paragraph separator (\(code))"
        default: return "the invisible character \(code)" + (invisible.properties.name.map { " (\($0))" } ?? "")
        }
    }

    /// Whether a path is already normal: not empty, no leading `/` or `~`, no backslash, no
    /// empty, `.` or `..` part. The common case, checked on bytes without splitting.
    static func isPlainRelativePath(_ source: String) -> Bool {
        var partLength = 0
        var partIsDots = true
        for byte in source.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                if partLength == 0 || (partIsDots && partLength <= 2) { return false }
                partLength = 0
                partIsDots = true
            case UInt8(ascii: "\\"):
                return false
            case UInt8(ascii: "~") where partLength == 0:
                return false
            default:
                partIsDots = partIsDots && byte == UInt8(ascii: ".")
                partLength += 1
            }
        }
        return partLength > 0 && !(partIsDots && partLength <= 2)
    }
}
