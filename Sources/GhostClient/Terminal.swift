import CGhostSys
#if canImport(Glibc)
import Glibc
#endif

/// The thin terminal layer: raw mode, the alternate screen, the cursor,
/// the window size and drawing. `restore()` puts everything back and is safe
/// to call more than once; a fatal signal restores the terminal too.
final class Terminal {
    let input: Int32
    let output: Int32
    private(set) var active = false
    /// The lines on screen, for redrawing only what changed.
    private var shown: [String] = []

    /// Alternate screen, hidden cursor, no auto-wrap, cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
    /// Attributes off, auto-wrap and cursor back, main screen back.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Raw mode and the alternate screen. False if the terminal refused.
    func enter() -> Bool {
        guard !active else { return true }
        guard ghost_tty_raw(input) == 0 else { return false }
        active = true
        ghost_install_crash_restore(output, Terminal.restoreSequence)
        _ = Sys.writeAll(output, Array(Terminal.enterSequence.utf8))
        shown = []
        return true
    }

    /// Leaves the alternate screen and restores the saved settings.
    func restore() {
        guard active else { return }
        active = false
        _ = Sys.writeAll(output, Array(Terminal.restoreSequence.utf8))
        _ = ghost_tty_restore()
    }

    /// (width, height), or nil if the size is unknown.
    func size() -> (width: Int, height: Int)? {
        var rows: Int32 = 0, cols: Int32 = 0
        guard ghost_window_size(output, &rows, &cols) == 0 || ghost_window_size(input, &rows, &cols) == 0 else { return nil }
        return (Int(cols), Int(rows))
    }

    /// Forgets what is on screen, so the next draw repaints everything.
    func invalidate() { shown = [] }

    /// Draws the lines, rewriting only those that changed.
    func draw(_ lines: [String]) {
        guard active else { return }
        var out = ""
        let full = lines.count != shown.count
        if full { out += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        for (i, line) in lines.enumerated() where full || shown[i] != line {
            // Erase first: erasing after a line that fills the last column would
            // erase that column too (the cursor stays on it).
            out += "\u{1B}[\(i + 1);1H\u{1B}[0m\u{1B}[2K" + line + "\u{1B}[0m"
        }
        guard !out.isEmpty else { return }
        shown = lines
        _ = Sys.writeAll(output, Array(out.utf8))
    }
}
