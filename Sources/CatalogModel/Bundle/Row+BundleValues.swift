import Foundation
import GRDB

/// A value in a bundle that is not what the schema says it may be: NULL where text belongs,
/// text where a number does, an id that is not a slug, a day that is not `YYYY-MM-DD`. GRDB's
/// row subscripts stop the process on such a value (they call `try!`); a bundle is untrusted
/// input, so every value is read through `Row.value(_:)` and its kin, which throw this.
package struct BundleValueError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, such as "its column 'name' holds NULL, not text".
    package var description: String
    /// The column, when a column's value is wrong.
    package var column: String?

    /// A column's value is wrong: `problem` says what it holds and what it should, such as
    /// "NULL, not text".
    package init(column: String, problem: String) {
        description = "its column '\(column)' holds \(problem)"
        self.column = column
    }

    /// Something else is missing or wrong, such as "it has no home page".
    package init(_ description: String) {
        self.description = description
    }
}

extension Row {
    /// The column's value as `T`; a `BundleValueError` saying what it holds when it is not one.
    /// Strict about storage: SQLite would give a BLOB or a number where text is asked for as
    /// text, and GRDB a real number as an integer cut short; in a bundle each is damage.
    package func value<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        let stored = (try? decode(DatabaseValue.self, forColumn: column)).map(Self.kind) ?? "missing"
        // Worded only when thrown: every value of every screen passes through here.
        func mismatch() -> BundleValueError {
            BundleValueError(column: column, problem: "\(Self.storedWords[stored] ?? stored), not \(Self.words(for: T.self))")
        }
        if let allowed = Self.storage[ObjectIdentifier(T.self)], !allowed.contains(stored) { throw mismatch() }
        let value: T
        do {
            value = try decode(T.self, forColumn: column)
        } catch {
            throw mismatch()
        }
        // Text as the compiler writes it: a longer run of combining marks than stream-safe text
        // allows is refused when content is read, so a bundle holding one was made otherwise.
        if stored == "text", let text = value as? String, let excess = StreamSafeText.excess(in: text) {
            throw BundleValueError(column: column, problem: "text with \(excess.length) combining marks in a row, more than the \(StreamSafeText.maximumRun) of stream-safe text")
        }
        return value
    }

    /// The storage classes each type may be read from (`typeof()`'s words).
    private static let storage: [ObjectIdentifier: Set<String>] = [
        ObjectIdentifier(String.self): ["text"], ObjectIdentifier(String?.self): ["text", "null"],
        ObjectIdentifier(Int.self): ["integer"], ObjectIdentifier(Int?.self): ["integer", "null"],
        ObjectIdentifier(Int32.self): ["integer"], ObjectIdentifier(Int64.self): ["integer"],
        ObjectIdentifier(Double.self): ["real", "integer"], ObjectIdentifier(Double?.self): ["real", "integer", "null"],
        ObjectIdentifier(Data.self): ["blob"],
    ]

    private static func kind(of value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "null"
        case .int64: "integer"
        case .double: "real"
        case .string: "text"
        case .blob: "blob"
        }
    }

    /// An id column: a slug such as `cafe-latte`.
    package func slug(_ column: String) throws -> String {
        let text: String = try value(column)
        guard isValidSlug(text) else { throw BundleValueError(column: column, problem: "'\(Self.excerpt(text))', not an id such as cafe-latte") }
        return text
    }

    /// An id column that may be NULL.
    package func optionalSlug(_ column: String) throws -> String? {
        guard try value(column, as: DatabaseValue.self) != .null else { return nil }
        return try slug(column)
    }

    /// An image column: the SHA-256 of the image's bytes, 64 lowercase hexadecimal digits.
    package func imageID(_ column: String) throws -> ImageID {
        let text: String = try value(column)
        guard text.isSHA256Hex else {
            throw BundleValueError(column: column, problem: "'\(Self.excerpt(text))', not an image's SHA-256")
        }
        return ImageID(rawValue: text)
    }

    /// A day column, `YYYY-MM-DD`.
    package func day(_ column: String) throws -> Day {
        let text: String = try value(column)
        guard let day = Day(text) else { throw BundleValueError(column: column, problem: "'\(Self.excerpt(text))', not a day (YYYY-MM-DD)") }
        return day
    }

    /// A rich-text column: the typed blocks as JSON.
    package func richText(_ column: String) throws -> RichText {
        let json: String = try value(column)
        let text: RichText
        do {
            text = try JSONDecoder().decode(RichText.self, from: Data(json.utf8))
        } catch {
            throw BundleValueError(column: column, problem: "text that is not rich text as a bundle stores it")
        }
        // A run of marks may go on across a paragraph's inline runs (each within the limit);
        // the plain text joins them, and parts with a line between.
        if let excess = StreamSafeText.excess(in: text.plainText) {
            throw BundleValueError(column: column, problem: "rich text with \(excess.length) combining marks in a row, more than the \(StreamSafeText.maximumRun) of stream-safe text")
        }
        return text
    }

    /// A text column that must show something.
    package func nonEmptyText(_ column: String) throws -> String {
        let text: String = try value(column)
        guard !text.isEmpty else { throw BundleValueError(column: column, problem: "empty text") }
        return text
    }

    /// What a column holds, in words, by its storage class.
    private static let storedWords = [
        "missing": "nothing (there is no such column)", "null": "NULL", "integer": "an integer", "real": "a real number",
        "text": "text", "blob": "bytes (a BLOB)",
    ]

    private static let typeWords: [ObjectIdentifier: String] = [
        ObjectIdentifier(String.self): "text", ObjectIdentifier(String?.self): "text or NULL",
        ObjectIdentifier(Int.self): "an integer", ObjectIdentifier(Int?.self): "an integer or NULL",
        ObjectIdentifier(Int32.self): "an integer", ObjectIdentifier(Int64.self): "an integer",
        ObjectIdentifier(Double.self): "a number", ObjectIdentifier(Double?.self): "a number or NULL",
        ObjectIdentifier(Data.self): "bytes (a BLOB)",
    ]

    private static func words(for type: Any.Type) -> String {
        typeWords[ObjectIdentifier(type)] ?? "\(type)"
    }

    /// A value quoted in a message: invisible characters as codes, at most 40 characters.
    static func excerpt(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return shown.showingInvisibles
    }
}

extension StringProtocol {
    /// Whether the text is a SHA-256 as a bundle writes it: 64 lowercase hexadecimal digits.
    package var isSHA256Hex: Bool {
        utf8.count == 64 && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
