@testable import BundleCompiler
import Foundation
import Testing

/// A web address whose host mixes scripts looks like one site and opens another; ICU's spoof
/// checker judges each label of the host.
@Suite struct HostScriptsTests {
    @Test(arguments: [
        ("https://www.c\u{430}fedigno.fi", "c\u{430}fedigno"),  // a Cyrillic а among Latin letters
        ("https://www.caf\u{E9}\u{43A}\u{43E}\u{444}\u{435}.fi/menu", "caf\u{E9}\u{43A}\u{43E}\u{444}\u{435}"),
        ("https://cafe\u{661}\u{662}3.fi", "cafe\u{661}\u{662}3"),  // Arabic-Indic digits among Latin ones
    ])
    func aMixedLabelIsFound(address: String, label: String) {
        #expect(HostScripts.mixedLabel(in: address) == label)
    }

    @Test(arguments: [
        "https://www.delinggroup.com",
        "https://www.s\u{E4}hk\u{F6}.fi/ty\u{F6}",  // Latin with Finnish letters
        "https://www.\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}",  // Cyrillic labels under www
        "https://xn--80ak6aa92e.com",
        "https://example.com/\u{43F}\u{443}\u{442}\u{44C}",  // the path is not the host
    ])
    func aHostInOneScriptPerLabelPasses(address: String) {
        #expect(HostScripts.mixedLabel(in: address) == nil)
    }

    @Test func theCompanysAddressIsReportedAtItsWebElement() throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("company.xml")
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains("<web>https://www.delinggroup.com</web>"))
            try Data(text.replacingOccurrences(of: "https://www.delinggroup.com", with: "https://www.delinggr\u{43E}up.com").utf8).write(to: url)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics.map { "\($0.file ?? ""):\($0.line ?? 0) \($0.code)" } == ["company.xml:11 mixed-script-host"])
        #expect(report.diagnostics.first?.message.hasPrefix("the host name in the web address mixes the letters or digits of different scripts in 'delinggr\u{43E}up'") == true)
    }
}
