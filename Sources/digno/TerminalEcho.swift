import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's settings to put back if a signal ends the process while echo is off. A signal
/// handler may call only async-signal-safe functions (`tcsetattr`, `write`, `sigaction`, `raise`)
/// and read only what was set before it was installed: hence this memory, allocated once and
/// written before the handlers are installed, never while they are. A signal the process ignores
/// (`nohup`, a background job) is left ignored, and each signal's earlier action is put back
/// after the prompt.
enum TerminalEcho {
    nonisolated(unsafe) static let terminal = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    nonisolated(unsafe) static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) static let newline = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    static let signals = [SIGINT, SIGQUIT, SIGHUP, SIGTERM]
    nonisolated(unsafe) static var earlier: [Int32: sigaction] = [:]

    static func restoreOnSignal(_ terminal: Int32, _ saved: termios) {
        Self.terminal.pointee = terminal
        Self.saved.pointee = saved
        newline.pointee = 0x0A
        earlier = [:]
        for number in signals {
            var before = sigaction()
            guard sigaction(number, nil, &before) == 0, !isIgnored(before) else { continue }
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { number in TerminalEcho.restoreAndRaise(number) }
            #else
            action.__sigaction_handler.sa_handler = { number in TerminalEcho.restoreAndRaise(number) }
            #endif
            sigemptyset(&action.sa_mask)
            if sigaction(number, &action, nil) == 0 { earlier[number] = before }
        }
    }

    /// In the handler: the terminal as it was, a new line, and the signal again with its default
    /// action (ending the process, as it would have).
    static func restoreAndRaise(_ number: Int32) {
        _ = tcsetattr(terminal.pointee, TCSANOW, saved)
        _ = write(terminal.pointee, newline, 1)
        var fallback = sigaction()
        #if canImport(Darwin)
        fallback.__sigaction_u.__sa_handler = SIG_DFL
        #else
        fallback.__sigaction_handler.sa_handler = SIG_DFL
        #endif
        _ = sigaction(number, &fallback, nil)
        _ = raise(number)
    }

    static func stopRestoring() {
        for (number, var before) in earlier { _ = sigaction(number, &before, nil) }
        earlier = [:]
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
