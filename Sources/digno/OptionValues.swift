import ArgumentParser
import BundleCompiler
import CatalogContent
import ChannelFormat
import Foundation

// The values of options, each parsed once, where argument-parser reads the command line: a
// value that is not one is refused there, with the parser's words, the option's name and ours
// ("The value '7x' is invalid for '--expires <time>': …"), and usage status 2. None is parsed
// again, or defaulted, inside a command's `run()`.

/// How long a signed head or root stays valid: `30d` or `12h`, the number at most 3,650.
struct Lifetime: Hashable, CustomStringConvertible {
    /// The number as written, and whether it counts hours.
    private let number: Int
    private let inHours: Bool

    /// The lifetime in seconds.
    var seconds: TimeInterval { TimeInterval(number) * (inHours ? 3_600 : 86_400) }

    var description: String { "\(number)\(inHours ? "h" : "d")" }

    static func days(_ number: Int) -> Lifetime { Lifetime(number: number, inHours: false) }

    private init(number: Int, inHours: Bool) {
        self.number = number
        self.inHours = inHours
    }

    /// `30d` or `12h`.
    init(daysOrHours text: String) throws {
        guard let unit = text.last, ["d", "h"].contains(unit), let number = Int(text.dropLast()), number > 0, number <= 3_650 else {
            throw ValidationError("not a number of days or hours, such as 30d or 12h")
        }
        self.init(number: number, inHours: unit == "h")
    }

    /// `365d`: a root's lifetime, a whole number of days.
    init(days text: String) throws {
        guard text.last == "d", let number = Int(text.dropLast()), number > 0, number <= 3_650 else {
            throw ValidationError("not a number of days, such as 365d")
        }
        self.init(number: number, inHours: false)
    }
}

/// A release's version as `digno build --release-version` and `digno publish --rollback-to`
/// take it: year.month.patch.
enum ReleaseVersionArgument {
    static func parse(_ text: String) throws -> String {
        guard BundleBuilder.isReleaseVersion(text) else { throw ValidationError("not year.month.patch, such as 2026.11.0") }
        return text
    }
}

extension ChannelKey {
    /// `ed25519:…`, as `digno keygen` printed it; the key's own error when it is not one
    /// (without the value, which the parser's words give).
    static func argument(_ text: String) throws -> ChannelKey {
        do { return try ChannelKey(text) } catch {
            let words = "\(error)", value = "'\(text)' is "
            throw ValidationError(words.hasPrefix(value) ? String(words.dropFirst(value.count)) : words)
        }
    }
}

extension LanguageCode {
    /// A language as catalog.xml declares one (`sv`, `sv-FI`), the XSD's pattern.
    static func argument(_ text: String) throws -> LanguageCode {
        guard text.wholeMatch(of: #/[a-z]{2,3}(-[A-Z]{2})?/#) != nil else {
            throw ValidationError("not a language code as catalog.xml declares one, such as sv or sv-FI")
        }
        return LanguageCode(text)
    }
}

/// A language as a reader's phone lists it, which `digno show` and `digno diff` look up among a
/// bundle's languages as an app does (`sv`, `sv-FI`, `sv_FI`, `zh-Hant-TW`): a BCP 47 tag's
/// letters, digits and separators, its first subtag a language's two or three letters.
enum ReaderLanguage {
    static func argument(_ text: String) throws -> String {
        guard text.wholeMatch(of: #/[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*/#) != nil else {
            throw ValidationError("not a language as a phone lists one, such as sv or sv-FI")
        }
        return text
    }
}

extension XLIFFWriter.Version: ExpressibleByArgument {}

/// The states `digno translations export --only` keeps: missing, outdated, or both.
struct UnitStates: Hashable {
    var missing = false
    var outdated = false

    init(_ text: String) throws {
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            switch word {
            case "missing": missing = true
            case "outdated": outdated = true
            default: throw ValidationError("not missing, outdated or missing,outdated")
            }
        }
    }
}

/// The moment a command's expiries count from: now, or `SOURCE_DATE_EPOCH` (seconds since
/// 1970, the reproducible-builds convention) when it is set, so that the same channel and
/// bundle give the same head, byte for byte (Ed25519 signatures are deterministic).
enum SourceDate {
    static func now(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailed) -> Date {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return Date() }
        guard let seconds = Int(text), seconds >= 0, seconds < 253_402_300_800 else {
            throw .failed("SOURCE_DATE_EPOCH '\(text)' is not a number of seconds since 1970")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
