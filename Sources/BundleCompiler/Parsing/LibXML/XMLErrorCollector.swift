import CLibXML2

/// Collects libxml2's errors for the file being parsed.
final class XMLErrorCollector {
    var errors: [RawXMLError] = []
    var doctypeLine: Int?

    static func from(_ context: xmlParserCtxtPtr) -> XMLErrorCollector {
        Unmanaged<XMLErrorCollector>.fromOpaque(context.pointee._private).takeUnretainedValue()
    }

    func reset() {
        errors.removeAll(keepingCapacity: true)
        doctypeLine = nil
    }

    func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, doctypeLine == nil else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown libxml2 error \(error.code)"
        var node = error.node?.assumingMemoryBound(to: xmlNode.self)
        if let attribute = node, attribute.pointee.type == XML_ATTRIBUTE_NODE { node = attribute.pointee.parent }
        errors.append(RawXMLError(
            code: Int(error.code),
            message: collapsingWhitespace(message),
            line: Int(error.line),
            column: Int(error.int2),
            node: node,
            // str2 without str1 would shift the names: only a leading run is kept.
            names: [error.str1, error.str2].prefix { $0 != nil }.compactMap { $0.map { String(cString: $0) } },
            number: Int(error.int1)))
    }
}
