/// Text layout for screens: display widths, ANSI attributes (only when colour
/// is on), truncation that keeps escape sequences intact, wrapping, framing.
public struct Style: Sendable {
    public let colour: Bool

    public init(colour: Bool) { self.colour = colour }

    static let reset = "\u{1B}[0m"

    func sgr(_ codes: String, _ s: String) -> String {
        colour && !s.isEmpty ? "\u{1B}[\(codes)m" + s + Style.reset : s
    }
    public func bold(_ s: String) -> String { sgr("1", s) }
    public func dim(_ s: String) -> String { sgr("2", s) }
    public func reverse(_ s: String) -> String { sgr("7", s) }
    /// The player to move, the selected entry: bold reverse video.
    public func highlight(_ s: String) -> String { sgr("1;7", s) }
    public func title(_ s: String) -> String { sgr("1;37;44", s) }
    public func accent(_ s: String) -> String { sgr("1;36", s) }
    public func good(_ s: String) -> String { sgr("1;32", s) }
    public func warn(_ s: String) -> String { sgr("1;33", s) }
    public func bad(_ s: String) -> String { sgr("1;31", s) }
    public func flash(_ s: String) -> String { sgr("1;30;43", s) }
}

/// What a screen drew, for the layout test (Tests/GhostClientTests/LayoutTests):
/// set as a task-local around a render, it collects every cut (text that did
/// not fit and was dropped), every menu entry and key hint the screen meant to
/// draw, so the test can check each is whole on screen. Nil (never set) in
/// the app: then nothing is collected.
public final class LayoutAudit: @unchecked Sendable {
    /// Text dropped because it did not fit, in words (one per cut).
    public var cuts: [String] = []
    /// Menus drawn: each entry's label ("k  Entry") and the selected index.
    public var menus: [(labels: [String], selected: Int)] = []
    /// Each menu's keys, as shown before its entries (letters in every menu).
    public var menuKeys: [[String]] = []
    /// Key hints the screen's help line names (each must be drawn whole).
    public var hints: [String] = []

    /// Draw every player's name at the longest a name may be (16
    /// characters): the layout test's pass for the names a real game has,
    /// which its reducer tests' short names never reach.
    public var longNames = false

    public init(longNames: Bool = false) { self.longNames = longNames }

    @TaskLocal public static var current: LayoutAudit?

    /// `name` as the layout test's long-name pass draws it: padded with W
    /// (the widest letter) to 16 characters; as it is otherwise.
    static func shown(_ name: String) -> String {
        guard current?.longNames == true, name.count < 16 else { return name }
        return name + String(repeating: "W", count: 16 - name.count)
    }

    static func cut(_ what: String) { current?.cuts.append(what) }
}

public enum Layout {
    /// Columns a character takes: 2 for East Asian wide and emoji, 0 for
    /// combining marks, else 1.
    static func width(of c: Character) -> Int {
        guard let u = c.unicodeScalars.first?.value else { return 0 }
        if u < 0x300 { return 1 }
        if (0x300...0x36F).contains(u) || (0x200B...0x200F).contains(u) { return 0 }
        let wide: [ClosedRange<UInt32>] = [0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
                                           0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
                                           0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
                                           0x1F900...0x1F9FF, 0x20000...0x3FFFD]
        return wide.contains(where: { $0.contains(u) }) ? 2 : 1
    }

    /// Columns a string takes on screen, escape sequences excluded.
    public static func visibleWidth(_ s: String) -> Int {
        var w = 0
        var inEscape = false
        for c in s {
            if inEscape {
                if let a = c.asciiValue, (0x40...0x7E).contains(a), c != "[" { inEscape = false }
                continue
            }
            if c == "\u{1B}" { inEscape = true; continue }
            w += width(of: c)
        }
        return w
    }

    /// The string cut to at most `width` columns. Escape sequences are kept
    /// whole; if any were cut short, attributes are reset at the end.
    public static func truncate(_ s: String, to width: Int) -> String {
        guard visibleWidth(s) > width else { return s }
        let kept = cutShort(s, to: width)
        // Only spaces may be dropped: anything else is text the reader loses.
        let lost = plain(s).dropFirst(plain(kept).count)
        if lost.contains(where: { $0 != " " }) { LayoutAudit.cut("cut at \(width) columns: “\(plain(s))”") }
        return kept
    }

    /// Text shortened by rule to `width` columns: cut at a word where it can
    /// be, ending in "…". (Not a cut: the reader sees it was shortened.)
    public static func abbreviate(_ s: String, to width: Int) -> String {
        guard visibleWidth(s) > width else { return s }
        guard width > 1 else { return cutShort("…", to: max(0, width)) }
        var head = plain(cutShort(s, to: width - 1))
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) >= width / 2 {
            head = String(head[..<space])
        }
        while head.hasSuffix(" ") { head.removeLast() }
        return head + "…"
    }

    static func cutShort(_ s: String, to width: Int) -> String {
        guard visibleWidth(s) > width else { return s }
        var out = ""
        var w = 0
        var inEscape = false
        var sawEscape = false
        for c in s {
            if inEscape {
                out.append(c)
                if let a = c.asciiValue, (0x40...0x7E).contains(a), c != "[" { inEscape = false }
                continue
            }
            if c == "\u{1B}" {
                inEscape = true
                sawEscape = true
                out.append(c)
                continue
            }
            let cw = Layout.width(of: c)
            if w + cw > width { break }
            out.append(c)
            w += cw
        }
        return sawEscape ? out + Style.reset : out
    }

    /// Pads with spaces on the right to `width` columns (or truncates).
    public static func pad(_ s: String, to width: Int) -> String {
        let t = truncate(s, to: width)
        return t + String(repeating: " ", count: max(0, width - visibleWidth(t)))
    }

    /// Centres within `width` columns (left padding only).
    public static func center(_ s: String, in width: Int) -> String {
        let w = visibleWidth(s)
        guard w < width else { return truncate(s, to: width) }
        return String(repeating: " ", count: (width - w) / 2) + s
    }

    /// Plain text wrapped at word boundaries to `width` columns; a word longer
    /// than a line is cut. A leading "• " indents the continuation lines.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 4 else { return [truncate(text, to: max(0, width))] }
        let hanging = text.hasPrefix("• ") ? "  " : ""
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            if line.isEmpty {
                line = (lines.isEmpty ? "" : hanging) + word
            } else if visibleWidth(line) + 1 + visibleWidth(word) <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = hanging + word
            }
            while visibleWidth(line) > width {
                let head = cutShort(line, to: width)
                lines.append(head)
                word = String(line.dropFirst(head.count))
                line = hanging + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The first `count` rows of wrapped text; rows dropped are cuts (the
    /// layout test finds them).
    public static func keep(_ rows: [String], _ count: Int) -> [String] {
        for row in rows.dropFirst(max(0, count)) { LayoutAudit.cut("row past \(count): “\(plain(row))”") }
        return Array(rows.prefix(max(0, count)))
    }

    /// The final screen: exactly `height` lines, none wider than `width`.
    public static func fit(_ lines: [String], width: Int, height: Int) -> [String] {
        for line in lines.dropFirst(max(0, height)) where !plain(line).allSatisfy({ $0 == " " }) {
            LayoutAudit.cut("row below the bottom: “\(plain(line))”")
        }
        var out = lines.prefix(max(0, height)).map { truncate($0, to: max(0, width)) }
        while out.count < height { out.append("") }
        return out
    }

    /// Text with its escape sequences removed (for tests and plain output).
    public static func plain(_ s: String) -> String {
        var out = ""
        var inEscape = false
        for c in s {
            if inEscape {
                if let a = c.asciiValue, (0x40...0x7E).contains(a), c != "[" { inEscape = false }
                continue
            }
            if c == "\u{1B}" { inEscape = true; continue }
            out.append(c)
        }
        return out
    }
}
