import Foundation

extension StringProtocol {
    /// Whether the text shows nothing on screen: it holds only whitespace and invisible
    /// characters (Unicode's default-ignorable code points: zero-width space and joiners, the
    /// byte order mark, direction marks). A name that is one zero-width space is as empty as
    /// one that is a space. Most texts start with a visible ASCII character, which settles it
    /// at once.
    var showsNothing: Bool {
        for byte in utf8 {
            if byte > 0x20 && byte < 0x7F { return false }
        }
        return unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
    }

    /// The first character in the text that no editor means to put there, because it shows as
    /// nothing (or a box) yet changes the text: a C1 control character (U+0080 to U+009F, what
    /// text copied through the wrong encoding holds: U+0096 was an en dash in Windows-1252), a
    /// line or paragraph separator (U+2028, U+2029: a line break in the middle of a name), or a
    /// bidirectional embedding, override or isolate (U+202A to U+202E, U+2066 to U+2069), which
    /// reorders how the text around it is shown. Most texts are ASCII, which settles it at once.
    var unwantedControl: Unicode.Scalar? {
        guard utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        return unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }
}

extension Unicode.Scalar {
    /// What to do about an `unwantedControl`, in words for an editor.
    var unwantedControlAdvice: String {
        let code = "U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
        switch value {
        case 0x80...0x9F:
            // What the byte meant in Windows-1252, the usual source of such text (Foundation's
            // own table; five bytes mean nothing there).
            let meant = String(bytes: [UInt8(value)], encoding: .windowsCP1252).flatMap { $0.unicodeScalars.first?.value == value ? nil : $0 }
            return "the invisible control character \(code), left by text copied through the wrong encoding; "
                + (meant.map { "type the character meant, probably '\($0)'" } ?? "delete it")
        case 0x2028, 0x2029:
            return "a \(value == 0x2028 ? "line" : "paragraph") separator (\(code)), which breaks the line where it stands; replace it with a space"
        default:
            let name = properties.name.map { " (\($0))" } ?? ""
            return "the invisible character \(code)\(name), which changes the direction the text around it is shown in; delete it"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
