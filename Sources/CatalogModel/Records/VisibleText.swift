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
}
