import Foundation

/// Runs the `digno` executable that `swift build` put beside the test bundle.
struct DignoRunner {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/BundleCompilerTests/Fixtures")

    static var executable: URL {
        let productsFolder = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
            ?? Bundle.main.bundleURL
        return productsFolder.appendingPathComponent("digno")
    }

    static func run(_ arguments: [String], in folder: URL = repository, environment: [String: String] = [:]) throws -> Outcome {
        try run(executable, arguments, in: folder, environment: environment)
    }

    /// Runs any program (a tool a test needs) the same way, to its end.
    static func run(_ program: URL, _ arguments: [String], in folder: URL = repository, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.currentDirectoryURL = folder
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes at once: a program that fills one (64 KiB) while the other is read would
        // wait for ever.
        let errorReader = Thread.detachNewThreadReading(errors.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errorReader.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       errors: String(decoding: errorData, as: UTF8.self))
    }
}

extension Thread {
    /// A pipe read to its end on a thread of its own.
    final class PipeReader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }

    static func detachNewThreadReading(_ handle: FileHandle) -> PipeReader {
        PipeReader(handle)
    }
}
