import ChannelPublishing
import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a key file's passphrase comes from, in this order: `--passphrase-file` (its first
/// line), the `DIGNO_PASSPHRASE` environment variable (for scripts and tests; set but empty is
/// refused, not taken as an empty passphrase), or the terminal, asked without echo (three tries
/// at a key). With none of them (no terminal), asking fails with a message saying so.
struct Passphrase {
    var file: String?

    /// The environment variable read when no file is given.
    static let variable = "DIGNO_PASSPHRASE"

    /// How many times a passphrase typed on the terminal is asked for a key.
    static let tries = 3

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether the passphrase is asked on the terminal (no file, no variable).
    var isTyped: Bool { file == nil && ProcessInfo.processInfo.environment[Self.variable] == nil }

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
        if let value = ProcessInfo.processInfo.environment[Self.variable] {
            guard !value.isEmpty else {
                throw Unavailable(description: "\(Self.variable) is set but empty; set it to the passphrase, or unset it to be asked on the terminal")
            }
            return value
        }
        guard let typed = Self.askTerminal(prompt) else {
            throw Unavailable(description: "no passphrase: give --passphrase-file, set \(Self.variable), or run it on a terminal")
        }
        return typed
    }

    /// A new passphrase: from the file or variable, or typed twice on the terminal; at least 12 characters.
    func new() throws -> String {
        let first = try read(prompt: "New passphrase (12 characters at least): ")
        if isTyped {
            guard try read(prompt: "The same again: ") == first else { throw Unavailable(description: "the two passphrases differ") }
        }
        guard first.count >= 12 else { throw Unavailable(description: "the passphrase has \(first.count) characters; give 12 at least") }
        return first
    }

    /// The signing key in the file at `path`, its passphrase asked only if it is encrypted; one
    /// typed on the terminal that does not open it is asked again, `tries` times in all.
    func key(_ path: String) throws -> Curve25519.Signing.PrivateKey {
        var attempt = 1
        while true {
            let result = Result { () throws(SigningKeyFile.Failure) in
                try SigningKeyFile.read(path, passphrase: { try read(prompt: "Passphrase for \(path): ") })
            }
            guard case .failure(.wrongPassphrase) = result, isTyped, attempt < Self.tries else { return try result.get() }
            FileHandle.standardError.write(Data("the passphrase does not open \(path); try again (\(Self.tries - attempt) more)\n".utf8))
            attempt += 1
        }
    }

    /// A line read from the controlling terminal with echo off (hand-written: no library here
    /// reads a password), nil when there is no terminal. Echo is restored however the prompt
    /// ends: a line, the end of input, or a signal that ends the process (Ctrl-C, Ctrl-\, a
    /// hang-up or `kill`), which is then raised again with its default action.
    static func askTerminal(_ prompt: String) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        TerminalEcho.restoreOnSignal(terminal, saved)
        _ = tcsetattr(terminal, TCSAFLUSH, &quiet)
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        defer {
            _ = tcsetattr(terminal, TCSAFLUSH, &saved)
            TerminalEcho.stopRestoring()
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
