// libFuzzer target: bytes → one content picture → what validation and the build do with it
// (`PictureProbe`): the format by its first bytes, a PNG's or JPEG's structure, the header
// through libvips, the limits, then libvips decoding it and making a list icon's and a detail
// picture's renditions. Any input must end in a verdict: a crash, a sanitizer report or a hang
// (libFuzzer's -timeout) in our code or in the C decoders (libjpeg-turbo, libpng, libheif with
// libde265, libwebp) is a bug. Built and run as docs/FUZZING.md says.
import BundleCompiler

/// libFuzzer calls this with each input; its own `main` (linked by `--sanitize=fuzzer`) runs the
/// fuzzer with the command line's options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPicture(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    _ = PictureProbe.probe(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
