import CICUSpoof
import CatalogContent
import CatalogModel

/// Web addresses whose host name mixes scripts, such as a Cyrillic 'а' among Latin letters
/// (`www.cаfedigno.fi`): the address looks like one site and opens another. The schema lets
/// any letters into a host name, as international domain names need.
///
/// Judged label by label (`www`, `sähkö`, `fi`) by ICU's spoof checker (Unicode Technical
/// Standard #39, "highly restrictive"): a label in one script passes, so `www.sähkö.fi` and a
/// Cyrillic name under `www.` do.
enum HostScripts {
    /// ICU's checker, opened once; it is safe to use from several threads at once.
    nonisolated(unsafe) private static let checker = digno_spoof_open()

    /// The mixed-script hosts of the company's and the retailers' web addresses, as diagnostics at
    /// their `<web>`.
    static func diagnostics(_ catalog: Catalog) -> [EntityDiagnostic] {
        var diagnostics: [EntityDiagnostic] = []
        func check(_ address: String?, _ entity: EntityReference) {
            guard let address, let label = mixedLabel(in: address) else { return }
            diagnostics.append(EntityDiagnostic(
                severity: .error, code: .mixedScriptHost, entity: entity, field: .web,
                message: "the host name in the web address mixes the letters or digits of different scripts in '\(label)' (such as a Cyrillic 'а' among "
                    + "Latin letters), so it looks like another address; type it again, or, if it is right, write its host in the xn-- form"))
        }
        check(catalog.company.webAddress, EntityReference(.company))
        for retailer in catalog.retailers { check(retailer.webAddress, EntityReference(.retailer, retailer.id.rawValue)) }
        return diagnostics
    }

    /// The first label of `address`'s host that mixes scripts or numbering systems, if any.
    /// An address all in ASCII is passed without asking ICU: its letters are all Latin.
    static func mixedLabel(in address: String) -> String? {
        guard let checker, address.utf8.contains(where: { $0 >= 0x80 }), let scheme = address.range(of: "://") else { return nil }
        let host = address[scheme.upperBound...].prefix { !":/?#".contains($0) }
        for label in host.split(separator: ".") where label.utf8.contains(where: { $0 >= 0x80 }) {
            var text = String(label)
            if text.withUTF8({ digno_spoof_check(checker, $0.baseAddress, Int32($0.count)) }) != 0 { return text }
        }
        return nil
    }
}
