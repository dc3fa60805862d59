import BundleCompiler
import Foundation
import Testing

/// The report says what `digno validate` and `digno build` exit with: 0 for valid content,
/// warnings or not; 1 for errors in the content; 2 when a file could not be read.
@Suite struct ExitStatusTests {
    @Test func validContentExitsWithZero() throws {
        #expect(try Fixtures.validate(Fixtures.valid).exitStatus == 0)
    }

    @Test func warningsAloneExitWithZeroAndErrorsWithOne() throws {
        for (name, status) in [("warnings-only", Int32(0)), ("unknown-product", 1), ("missing-files", 1)] {
            let content = try Fixtures.makeContent(case: name)
            defer { Fixtures.remove(content) }
            #expect(try Fixtures.validate(content).exitStatus == status, "\(name)")
        }
    }

    @Test func anUnreadableFileExitsWithTwo() throws {
        let content = try Fixtures.makeContent { content in
            let url = content.appendingPathComponent("products/espresso.xml")
            try FileManager.default.removeItem(at: url)
            #expect(mkfifo(url.path, 0o644) == 0)
        }
        defer { Fixtures.remove(content) }
        let report = try Fixtures.validate(content)
        #expect(report.diagnostics.map(\.code.rawValue).contains("file-unreadable"))
        #expect(report.exitStatus == 2)
    }
}
