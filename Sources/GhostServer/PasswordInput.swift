#if canImport(Glibc)
import Glibc
#endif

/// A new password from standard input, for `ghostd accounts reset-password`:
/// a terminal is asked twice with echo off (both must match); anything else
/// (a pipe, a file) gives its first line, so that a script can pipe it in.
/// The bytes read are wiped once the password is made from them; nothing
/// here writes the password anywhere.
public enum PasswordInput {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The input ended before a line.
        case noInput
        /// The terminal's two answers were not the same.
        case differ
        /// The line is longer than any password can be.
        case tooLong
        case notUTF8
        case cannotRead(String)

        public var description: String {
            switch self {
            case .noInput: "no password on standard input"
            case .differ: "the two passwords differ"
            case .tooLong: "password: \(AccountsCommand.passwordRule); the line is longer"
            case .notUTF8: "the password is not UTF-8 text"
            case .cannotRead(let why): "cannot read the password: \(why)"
            }
        }
    }

    /// The longest line read, in bytes: more than 200 characters of 4 bytes.
    static let maxBytes = 1024

    /// The password from `fd`: a terminal gets `prompt`, then a second one,
    /// through `write`, with its echo off while it is typed.
    public static func read(fd: Int32, prompt: String, write: (String) -> Void) -> Result<String, Failure> {
        isatty(fd) == 1 ? fromTerminal(fd: fd, prompt: prompt, write: write) : firstLine(fd: fd)
    }

    /// The first line of `fd`: LF ends it, a CR just before the LF is
    /// dropped (as the server's framer does), and the end of the input ends
    /// a last line without LF. Reads a byte at a time, so nothing after the
    /// line is taken from the input.
    static func firstLine(fd: Int32) -> Result<String, Failure> {
        var line: [UInt8] = []
        line.reserveCapacity(maxBytes + 1)
        defer { wipe(&line) }
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(fd, &byte, 1)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.cannotRead(String(cString: strerror(errno))))
            }
            if n == 0 {
                if line.isEmpty { return .failure(.noInput) }
                break
            }
            if byte == 0x0A { break }
            guard line.count < maxBytes else { return .failure(.tooLong) }
            line.append(byte)
        }
        byte = 0
        if line.last == 0x0D { line.removeLast() }
        guard let text = String(validating: line, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }

    /// Asks twice with the terminal's echo off (the newline still echoes),
    /// restoring it afterwards, and also when a signal ends the process
    /// meanwhile (Ctrl-C must not leave the operator's terminal silent).
    static func fromTerminal(fd: Int32, prompt: String, write: (String) -> Void) -> Result<String, Failure> {
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return .failure(.cannotRead(String(cString: strerror(errno)))) }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        terminalToRestore = (fd, original)
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        let previous = signals.map { signal($0, restoreTerminalAndDie) }
        defer {
            tcsetattr(fd, TCSANOW, &original)
            terminalToRestore = nil
            for (s, handler) in zip(signals, previous) { signal(s, handler) }
        }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return .failure(.cannotRead(String(cString: strerror(errno)))) }
        write(prompt)
        let first = firstLine(fd: fd)
        guard case .success(let a) = first else { return first }
        write("The same again: ")
        let second = firstLine(fd: fd)
        guard case .success(let b) = second else { return second }
        return a == b ? .success(a) : .failure(.differ)
    }

    /// The terminal and its settings while echo is off (for the signal handler).
    nonisolated(unsafe) static var terminalToRestore: (fd: Int32, settings: termios)?

    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { explicit_bzero(base, raw.count) }
        }
    }
}

/// Restores the terminal's echo, then dies of `sig` as it would have.
private func restoreTerminalAndDie(_ sig: Int32) {
    if var saved = PasswordInput.terminalToRestore {
        tcsetattr(saved.fd, TCSANOW, &saved.settings)
    }
    signal(sig, SIG_DFL)
    raise(sig)
}
