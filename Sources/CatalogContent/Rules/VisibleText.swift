import CatalogModel
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
    /// reorders how the text around it is shown.
    ///
    /// Read from the UTF-8 bytes by hand: every text of a catalogue passes through here, and
    /// walking Unicode scalars cost a build of 100,000 entities 0.15 s of processor time. In
    /// valid UTF-8, 0xC2 and 0xE2 only ever start a character, and these characters are
    /// C2 80–9F, E2 80 A8–AE and E2 81 A6–A9.
    var unwantedControl: Unicode.Scalar? {
        if let found = utf8.withContiguousStorageIfAvailable(Self.firstUnwantedControl) { return found }
        var copy = String(self)
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(Self.firstUnwantedControl) ?? nil
    }

    private static func firstUnwantedControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var index = 0
        while index + 1 < bytes.count {
            switch bytes[index] {
            case 0xC2 where (0x80...0x9F).contains(bytes[index + 1]):
                return Unicode.Scalar(bytes[index + 1])
            case 0xE2 where index + 2 < bytes.count:
                let second = bytes[index + 1], third = bytes[index + 2]
                if (second == 0x80 && (0xA8...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third)) {
                    return Unicode.Scalar(0x2000 | UInt32(second & 0x3F) << 6 | UInt32(third & 0x3F))
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}

extension Unicode.Scalar {
    /// What to do about an `unwantedControl`, in words for an editor.
    var unwantedControlAdvice: String { unwantedControlAdvice(inBlock: nil) }

    /// `unwantedControlAdvice` for a character inside the rich-text element `block` (`p`,
    /// `li`…): where a separator may have been meant to start a new paragraph or list item,
    /// the advice says how to write one.
    func unwantedControlAdvice(inBlock block: String?) -> String {
        let code = "U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
        switch value {
        case 0x80...0x9F:
            // What the byte meant in Windows-1252, the usual source of such text (Foundation's
            // own table; five bytes mean nothing there).
            let meant = String(bytes: [UInt8(value)], encoding: .windowsCP1252).flatMap { $0.unicodeScalars.first?.value == value ? nil : $0 }
            return "the invisible control character \(code), left by text copied through the wrong encoding; "
                + (meant.map { "type the character meant, probably '\($0)'" } ?? "delete it")
        case 0x2028, 0x2029:
            let split = block.flatMap { ["p", "li"].contains($0) ? ", or end the <\($0)> there and start a new one" : nil } ?? ""
            return "a \(value == 0x2028 ? "line" : "paragraph") separator (\(code)), which breaks the line where it stands; replace it with a space\(split)"
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
