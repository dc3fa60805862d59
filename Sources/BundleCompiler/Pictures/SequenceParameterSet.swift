/// The size and bit depth an HEVC stream decodes to, from its sequence parameter set (H.265
/// 7.3.2.2): the fields up to `bit_depth_chroma_minus8`, read bit by bit.
enum SequenceParameterSet {
    static func read(_ unit: [UInt8]) throws -> (width: Int, height: Int, depth: Int) {
        // The NAL unit's two-byte header, then its payload without emulation-prevention bytes
        // (00 00 03 is 00 00).
        var payload: [UInt8] = []
        payload.reserveCapacity(unit.count)
        var zeros = 0
        for byte in unit.dropFirst(2) {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(byte)
        }
        var bits = BitReader(bytes: payload)
        _ = try bits.read(4)  // sps_video_parameter_set_id
        let subLayers = try bits.read(3)  // sps_max_sub_layers_minus1
        _ = try bits.read(1)
        // profile_tier_level: the general profile and level, 96 bits; then the sub-layers'.
        try bits.skip(96)
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            profilePresent.append(try bits.read(1) == 1)
            levelPresent.append(try bits.read(1) == 1)
        }
        if subLayers > 0 { try bits.skip(2 * (8 - subLayers)) }
        for layer in 0..<subLayers {
            if profilePresent[layer] { try bits.skip(88) }
            if levelPresent[layer] { try bits.skip(8) }
        }
        _ = try bits.golomb()  // sps_seq_parameter_set_id
        let chroma = try bits.golomb()
        if chroma == 3 { _ = try bits.read(1) }
        let width = try bits.golomb()
        let height = try bits.golomb()
        if try bits.read(1) == 1 { for _ in 0..<4 { _ = try bits.golomb() } }  // conformance window
        let luma = try bits.golomb() + 8
        let chromaDepth = try bits.golomb() + 8
        guard width > 0, height > 0 else { throw HEIFStructure.Failure.damaged("an HEVC stream has no size") }
        return (width, height, max(luma, chromaDepth))
    }

    struct BitReader {
        let bytes: [UInt8]
        var position = 0

        mutating func read(_ count: Int) throws -> Int {
            guard position + count <= bytes.count * 8 else { throw HEIFStructure.Failure.damaged("an HEVC parameter set ends too soon") }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        mutating func skip(_ count: Int) throws {
            guard position + count <= bytes.count * 8 else { throw HEIFStructure.Failure.damaged("an HEVC parameter set ends too soon") }
            position += count
        }

        /// An unsigned Exp-Golomb number, ue(v).
        mutating func golomb() throws -> Int {
            var zeros = 0
            while try read(1) == 0 {
                zeros += 1
                guard zeros <= 31 else { throw HEIFStructure.Failure.damaged("an HEVC parameter set has a number out of range") }
            }
            return (1 << zeros) - 1 + (try read(zeros))
        }
    }
}
