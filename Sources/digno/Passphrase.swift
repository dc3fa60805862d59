import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a key file's passphrase comes from, in this order: `--passphrase-file` (its first
/// line), the `DIGNO_PASSPHRASE` environment variable (for scripts and tests), or the terminal,
/// asked without echo. With none of them (no terminal), asking fails with a message saying so.
struct Passphrase {
    var file: String?

    /// The environment variable read when no file is given.
    static let variable = "DIGNO_PASSPHRASE"

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The passphrase, asked with `prompt` on a terminal.
    func read(prompt: String = "Passphrase: ") throws -> String {
        if let file {
            // As for a key file: one others can read is refused.
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & 0o077 != 0 {
                throw Unavailable(description: "the passphrase file '\(file)' can be read by others; make it its owner's only: chmod 600 \(file)")
            }
            let text: String
            do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw Unavailable(description: "cannot read the passphrase file '\(file)'")
            }
            // "\r\n" is one Character, a newline as "\n" is: a file saved on Windows reads the same.
            return String(text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? "")
        }
        if let value = ProcessInfo.processInfo.environment[Self.variable] { return value }
        guard let typed = Self.askTerminal(prompt) else {
            throw Unavailable(description: "no passphrase: give --passphrase-file, set \(Self.variable), or run it on a terminal")
        }
        return typed
    }

    /// A new passphrase: from the file or variable, or typed twice on the terminal; at least 12 characters.
    func new() throws -> String {
        let first = try read(prompt: "New passphrase (12 characters at least): ")
        if file == nil, ProcessInfo.processInfo.environment[Self.variable] == nil {
            guard try read(prompt: "The same again: ") == first else { throw Unavailable(description: "the two passphrases differ") }
        }
        guard first.count >= 12 else { throw Unavailable(description: "the passphrase has \(first.count) characters; give 12 at least") }
        return first
    }

    /// A line read from the controlling terminal with echo off (hand-written: no library here
    /// reads a password), nil when there is no terminal.
    static func askTerminal(_ prompt: String) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(terminal, TCSAFLUSH, &quiet)
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        defer {
            _ = tcsetattr(terminal, TCSAFLUSH, &saved)
            handle.write(Data("\n".utf8))
        }
        handle.write(Data(prompt.utf8))
        // The whole line is read (what goes beyond 1 KiB is dropped, not left for the next prompt).
        var bytes: [UInt8] = []
        while let byte = handle.readData(ofLength: 1).first, byte != 0x0A {
            if bytes.count < 1024 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
