@testable import LanguageServer
import Foundation
import LanguageServerProtocol
import Testing

/// The base protocol's framing over a pipe, and what a broken or hostile client gets.
@Suite struct MessageStreamTests {
    /// The pipes behind a stream, kept open while it is used (a `Pipe` closes its ends when freed).
    static let pipes = NSLock()
    nonisolated(unsafe) static var kept: [Pipe] = []

    /// A stream reading what `bytes` holds (then the end), writing to a pipe read back.
    func stream(reading bytes: [UInt8]) -> (MessageStream, FileHandle) {
        let input = Pipe(), output = Pipe()
        Self.pipes.withLock { Self.kept += [input, output] }
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
        return (MessageStream(input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor),
                output.fileHandleForReading)
    }

    @Test func messagesAreReadByTheirLengthAndWrittenWithIt() throws {
        let body = #"{"jsonrpc":"2.0","method":"initialized","params":{"é":1}}"#
        let framed = "Content-Length: \(body.utf8.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\(body)"
        let (stream, output) = stream(reading: Array((framed + framed).utf8))
        #expect(try stream.read() == Data(body.utf8))
        #expect(try stream.read() == Data(body.utf8))
        #expect(throws: MessageStream.Failure.closed) { try stream.read() }
        stream.write(Data("{}".utf8))
        #expect(output.availableData == Data("Content-Length: 2\r\n\r\n{}".utf8))
    }

    @Test(arguments: [
        ("Content-Length: 99999999999\r\n\r\n", MessageStream.Failure.tooLong(99_999_999_999)),
        ("Content-Type: x\r\n\r\n{}", .badHeader("no Content-Length")),
        ("Content-Length: -1\r\n\r\n", .badHeader("Content-Length '-1'")),
        ("no colon here\r\n\r\n", .badHeader("a line with no colon")),
        (String(repeating: "x", count: 2000), .badHeader("a header line over 1 KiB")),
        (String(repeating: "A: b\r\n", count: 17) + "\r\n", .badHeader("more than 16 header lines")),
        ("Content-Length: 10\r\n\r\n{}", .closed),
    ])
    func aBrokenOrHostileClientEndsTheStream(_ input: String, _ failure: MessageStream.Failure) {
        let (stream, _) = stream(reading: Array(input.utf8))
        #expect(throws: failure) { try stream.read() }
    }

    @Test func positionsAreUTF16AndColumnsAreCharacters() {
        let text = DocumentText("<a>\r\n  <name>Päivän 😀 kahvi</name>\n<link product=\"espr")
        // Column 17 is the character after the emoji (one character, two UTF-16 units).
        #expect(text.position(line: 2, column: 17) == Position(line: 1, character: 17))
        #expect(text.range(line: 2, column: 3) == Range(start: Position(line: 1, character: 2), end: Position(line: 1, character: 7)))
        let value = text.attribute(at: Position(line: 2, character: 18))
        #expect(value?.name == "product" && value?.value == "espr")
        #expect(ContentLanguageServer.replacing(Range(start: Position(line: 1, character: 8), end: Position(line: 1, character: 14)),
                                                in: "<a>\n  <name>Päivän</name>", with: "Ilta") == "<a>\n  <name>Ilta</name>")
    }
}
