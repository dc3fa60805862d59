// How text from a file is quoted in a message: shared by the compiler's diagnostics and the
// bundle reader's errors.

extension String {
    /// The text with each character that shows as nothing, or changes how what follows it is
    /// shown, written as its code in brackets: `[U+202E]`. These are control characters (a
    /// tab, a line break, U+0007), format characters (a zero-width space, a direction mark,
    /// a right-to-left override), line and paragraph separators, and spaces other than the
    /// space (a no-break space). A message quotes values
    /// from the content; a right-to-left override quoted as it is reversed the rest of the
    /// line on the terminal, and a zero-width space quoted as it is could not be seen.
    package var showingInvisibles: String {
        guard unicodeScalars.contains(where: \.isInvisibleInMessages) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            if scalar.isInvisibleInMessages {
                shown += "[" + unicodeCode(scalar.value) + "]"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

extension Unicode.Scalar {
    fileprivate var isInvisibleInMessages: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        // A no-break or other space that is not U+0020 looks like one, and is not.
        case .spaceSeparator: self != " "
        default: false
        }
    }
}

/// How Unicode writes a code point: U+0007, U+202E, U+1F600.
package func unicodeCode(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
