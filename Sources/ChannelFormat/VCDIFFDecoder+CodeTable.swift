extension VCDIFFDecoder {
    /// The address caches of RFC 3284 section 5.1: four recent addresses, and 768 by their value.
    struct AddressCache {
        var near = [Int](repeating: 0, count: 4)
        var nextSlot = 0
        var same = [Int](repeating: 0, count: 3 * 256)

        mutating func decode(mode: Int, here: Int, from reader: inout Reader) throws(VCDIFFError) -> Int {
            let address: Int
            switch mode {
            case 0: address = try reader.integer()
            case 1:
                let offset = try reader.integer()
                guard offset <= here else { throw .badAddress }
                address = here - offset
            case 2...5:
                let (sum, overflow) = near[mode - 2].addingReportingOverflow(try reader.integer())
                guard !overflow else { throw .badAddress }
                address = sum
            case 6...8: address = same[(mode - 6) * 256 + Int(try reader.byte())]
            default: throw .malformed("an address mode")
            }
            near[nextSlot] = address
            nextSlot = (nextSlot + 1) % near.count
            same[address % same.count] = address
            return address
        }
    }

    /// RFC 3284's default code table (section 5.6), built as the RFC describes it.
    enum CodeTable {
        enum Instruction { case noop, add, run, copy }

        struct Entry {
            var type1: Instruction, size1: Int, mode1: Int
            var type2: Instruction = .noop, size2: Int = 0, mode2: Int = 0
        }

        static let entries: [Entry] = {
            var table = [Entry(type1: .run, size1: 0, mode1: 0)]
            for size in 0...17 { table.append(Entry(type1: .add, size1: size, mode1: 0)) }
            for mode in 0...8 {
                table.append(Entry(type1: .copy, size1: 0, mode1: mode))
                for size in 4...18 { table.append(Entry(type1: .copy, size1: size, mode1: mode)) }
            }
            for mode in 0...5 {
                for addSize in 1...4 {
                    for copySize in 4...6 {
                        table.append(Entry(type1: .add, size1: addSize, mode1: 0, type2: .copy, size2: copySize, mode2: mode))
                    }
                }
            }
            for mode in 6...8 {
                for addSize in 1...4 { table.append(Entry(type1: .add, size1: addSize, mode1: 0, type2: .copy, size2: 4, mode2: mode)) }
            }
            for mode in 0...8 { table.append(Entry(type1: .copy, size1: 4, mode1: mode, type2: .add, size2: 1, mode2: 0)) }
            return table
        }()
    }
}
