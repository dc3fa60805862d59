import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each element's start tag is: the n-th element of a name, in document order, starts at
/// the n-th `<name` of the text outside comments, CDATA sections and processing instructions
/// (XML allows no literal `<` anywhere else).
extension SourceText {
    /// An element's name as libxml2 holds it: its name, from the parser's dictionary, and its
    /// prefix, which each namespace declaration holds a copy of.
    fileprivate struct NameKey: Hashable {
        var name: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
    }

    /// The offset of every element's start tag under `root`: its n-th element of a name,
    /// in document order, at the n-th start tag of that name in `tags`. One walk of the tree.
    static func startTagOffsets(_ tags: [[UInt8]: [Int]], root: xmlNodePtr) -> [xmlNodePtr: Int] {
        // Each name's offsets and how many of them are taken, by name as written; the name
        // as the tree holds it only finds the written one without making it again.
        var slotsByKey: [NameKey: Int] = [:]
        var slotsByName: [[UInt8]: Int] = [:]
        var offsets: [[Int]] = []
        var taken: [Int] = []
        var result: [xmlNodePtr: Int] = [:]
        result.reserveCapacity(tags.values.reduce(0) { $0 + $1.count })
        var next: xmlNodePtr? = root
        while let node = next {
            let key = NameKey(name: node.pointee.name, prefix: node.pointee.ns?.pointee.prefix)
            let slot: Int
            if let known = slotsByKey[key] {
                slot = known
            } else {
                let name = qualifiedName(node)
                slot = slotsByName[name] ?? offsets.count
                if slot == offsets.count {
                    slotsByName[name] = slot
                    offsets.append(tags[name] ?? [])
                    taken.append(0)
                }
                slotsByKey[key] = slot
            }
            if taken[slot] < offsets[slot].count { result[node] = offsets[slot][taken[slot]] }
            taken[slot] += 1
            next = nextInDocumentOrder(after: node, under: root)
        }
        return result
    }

    /// The offset of `element`'s start tag without an index: how many elements of its name
    /// come before it under `root`, in one walk of the tree that stops at it.
    static func startTagOffset(of element: xmlNodePtr, _ tags: [[UInt8]: [Int]], root: xmlNodePtr) -> Int? {
        var before = 0
        var next: xmlNodePtr? = root
        while let node = next, node != element {
            if xmlStrEqual(node.pointee.name, element.pointee.name) != 0,
               xmlStrEqual(node.pointee.ns?.pointee.prefix, element.pointee.ns?.pointee.prefix) != 0 {
                before += 1
            }
            next = nextInDocumentOrder(after: node, under: root)
        }
        guard let offsets = tags[qualifiedName(element)], before < offsets.count else { return nil }
        return offsets[before]
    }

    /// The element after `node` in document order (its first child element, or the next
    /// element after it or after one of its ancestors), staying under `root`.
    private static func nextInDocumentOrder(after node: xmlNodePtr, under root: xmlNodePtr) -> xmlNodePtr? {
        if let child = firstElement(from: node.pointee.children) { return child }
        var current = node
        while current != root {
            if let sibling = firstElement(from: current.pointee.next) { return sibling }
            guard let parent = current.pointee.parent else { return nil }
            current = parent
        }
        return nil
    }

    /// The first element among `node` and its following siblings.
    private static func firstElement(from node: xmlNodePtr?) -> xmlNodePtr? {
        var node = node
        while let current = node, current.pointee.type != XML_ELEMENT_NODE { node = current.pointee.next }
        return node
    }

    /// The start tags of a file by name, as the byte offsets of their `<`, in document order.
    static func startTags(in bytes: [UInt8]) -> [[UInt8]: [Int]] {
        var tags: [[UInt8]: [Int]] = [:]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            /// The offset just after the first `marker` from `start`, or past the end.
            func skip(past marker: [UInt8], from start: Int) -> Int {
                var from = start
                while from < buffer.count, let found = memchr(base + from, Int32(marker[0]), buffer.count - from) {
                    let candidate = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if starts(with: marker, at: candidate) { return candidate + marker.count }
                    from = candidate + 1
                }
                return buffer.count + marker.count
            }
            func starts(with marker: [UInt8], at offset: Int) -> Bool {
                guard offset + marker.count <= buffer.count else { return false }
                for index in 0..<marker.count where buffer[offset + index] != marker[index] { return false }
                return true
            }
            var index = 0
            while index < buffer.count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), buffer.count - index) {
                let tag = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let next = tag + 1 < buffer.count ? buffer[tag + 1] : nil
                if starts(with: commentStart, at: tag) {
                    index = skip(past: commentEnd, from: tag)
                } else if starts(with: cdataStart, at: tag) {
                    index = skip(past: cdataEnd, from: tag)
                } else if next == UInt8(ascii: "?") {
                    index = skip(past: instructionEnd, from: tag)
                } else if let next, next != UInt8(ascii: "/"), next != UInt8(ascii: "!") {
                    var end = tag + 1
                    while end < buffer.count, !endsName(buffer[end]) { end += 1 }
                    tags[Array(UnsafeBufferPointer(rebasing: buffer[(tag + 1)..<end])), default: []].append(tag)
                    index = end
                } else {
                    index = tag + 1
                }
            }
        }
        return tags
    }

    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let instructionEnd = Array("?>".utf8)

    /// The element's name as its start tag writes it: with its namespace prefix, if any.
    static func qualifiedName(_ node: xmlNodePtr) -> [UInt8] {
        let local = Array(String(cString: node.pointee.name).utf8)
        guard let prefix = node.pointee.ns?.pointee.prefix else { return local }
        return Array(String(cString: prefix).utf8) + [UInt8(ascii: ":")] + local
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}
