import Foundation
import Testing

/// Every option's value is parsed once, by argument-parser: a value that is not one is refused
/// there, in the parser's words with the option's name and ours, status 2, before the command
/// reads or writes anything.
@Suite struct OptionValueTests {
    static let key = "ed25519:" + Data(repeating: 7, count: 32).base64EncodedString()

    @Test(arguments: [
        (["translations", "export", "content", "--language", "sv", "--output", "/nonexistent/x.xlf", "--xliff", "3.0"],
         "Error: The value '3.0' is invalid for '--xliff <version>'. Please provide one of '1.2' and '2.0'.\n"),
        (["translations", "export", "content", "--language", "sv", "--output", "/nonexistent/x.xlf", "--only", "missing,new"],
         "Error: The value 'missing,new' is invalid for '--only <states>': not missing, outdated or missing,outdated\n"),
        (["translations", "export", "content", "--language", "SV", "--output", "/nonexistent/x.xlf"],
         "Error: The value 'SV' is invalid for '--language <code>': not a language code as catalog.xml declares one, such as sv or sv-FI\n"),
        (["validate", "content", "--require-language", "Swedish"],
         "Error: The value 'Swedish' is invalid for '--require-language <code>': not a language code as catalog.xml declares one, such as sv or sv-FI\n"),
        (["root", "draft", "--channel-dir", "/nonexistent", "--release-key", key, "--expires", "12h", "--output", "/nonexistent/root.json"],
         "Error: The value '12h' is invalid for '--expires <time>': not a number of days, such as 365d\n"),
        (["root", "draft", "--channel-dir", "/nonexistent", "--release-key", "ed25519:AAAA", "--output", "/nonexistent/root.json"],
         "Error: The value 'ed25519:AAAA' is invalid for '--release-key <public key>': not a channel key; a key is written ed25519: and its 32 bytes in base64, as digno keygen prints it\n"),
        (["publish", "--channel-dir", "/nonexistent", "--key", "/nonexistent/key", "--rollback-to", "latest"],
         "Error: The value 'latest' is invalid for '--rollback-to <version>': not year.month.patch, such as 2026.11.0\n"),
        (["publish", "--channel-dir", "/nonexistent", "--key", "/nonexistent/key", "--expires", "0d"],
         "Error: The value '0d' is invalid for '--expires <time>': not a number of days or hours, such as 30d or 12h\n"),
        (["update", "--url", "https://example.com", "--store", "/nonexistent", "--root-key", "ed25519:", "--root-threshold", "1"],
         "Error: The value 'ed25519:' is invalid for '--root-key <public key>': not a channel key; a key is written ed25519: and its 32 bytes in base64, as digno keygen prints it\n"),
        (["show", "/nonexistent/catalog.sqlite", "products", "--lang", "svenska språket"],
         "Error: The value 'svenska språket' is invalid for '--lang <language>': not a language as a phone lists one, such as sv or sv-FI\n"),
        (["diff", "/nonexistent/a", "/nonexistent/b", "--language", "sv/FI"],
         "Error: The value 'sv/FI' is invalid for '--language <code>': not a language as a phone lists one, such as sv or sv-FI\n"),
    ])
    func aValueThatIsNotOneIsRefusedByTheParser(arguments: [String], message: String) throws {
        let outcome = try DignoRunner.run(arguments)
        #expect(outcome.status == 2, "\(outcome.errors)")
        #expect(outcome.errors.hasPrefix(message), "\(outcome.errors)")
        #expect(outcome.output == "")
    }
}
