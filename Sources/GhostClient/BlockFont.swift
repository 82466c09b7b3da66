/// A small block font: letters A–Z and digits 0–9, five rows high, for the
/// fragment and the join code. Text the font cannot draw, or that does not fit,
/// falls back to spaced capitals.
public enum BlockFont {
    public static let height = 5
    /// Columns between two glyphs.
    public static let gap = 1

    static let glyphs: [Character: [String]] = [
        "A": [" ### ", "#   #", "#####", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#### ", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#### ", "#    ", "#####"],
        "F": ["#####", "#    ", "#### ", "#    ", "#    "],
        "G": [" ####", "#    ", "#  ##", "#   #", " ####"],
        "H": ["#   #", "#   #", "#####", "#   #", "#   #"],
        "I": ["###", " # ", " # ", " # ", "###"],
        "J": ["  ###", "    #", "    #", "#   #", " ### "],
        "K": ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#### ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#### ", "#  # ", "#   #"],
        "S": [" ####", "#    ", " ### ", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", " # # ", "  #  ", " # # ", "#   #"],
        "Y": ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "   # ", "  #  ", " #   ", "#####"],
        "0": [" ### ", "#  ##", "# # #", "##  #", " ### "],
        "1": [" # ", "## ", " # ", " # ", "###"],
        "2": [" ### ", "#   #", "  ## ", " #   ", "#####"],
        "3": ["#### ", "    #", " ### ", "    #", "#### "],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#### ", "    #", "#### "],
        "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": [" ### ", "#   #", " ### ", "#   #", " ### "],
        "9": [" ### ", "#   #", " ####", "    #", " ### "],
        " ": ["  ", "  ", "  ", "  ", "  "],
    ]

    /// The ink character.
    static let ink: Character = "█"

    /// The columns `text` needs in the block font, or nil if a character has no glyph.
    public static func width(of text: String) -> Int? {
        var w = 0
        for c in text.uppercased() {
            guard let g = glyphs[c] else { return nil }
            w += (g.first?.count ?? 0) + gap
        }
        return max(0, w - gap)
    }

    /// Five rows of `text` in large letters, or nil if it cannot be drawn in `maxWidth` columns.
    public static func render(_ text: String, maxWidth: Int) -> [String]? {
        guard !text.isEmpty, let w = width(of: text), w <= maxWidth else { return nil }
        var rows = [String](repeating: "", count: height)
        for (i, c) in text.uppercased().enumerated() {
            guard let g = glyphs[c] else { return nil }
            for r in 0..<height {
                if i > 0 { rows[r] += String(repeating: " ", count: gap) }
                rows[r] += String(g[r].map { $0 == "#" ? ink : " " })
            }
        }
        return rows
    }

    /// Spaced capitals, the fallback: "P E A".
    public static func spaced(_ text: String) -> String {
        text.uppercased().map(String.init).joined(separator: " ")
    }

    /// Large letters if they fit in `maxWidth`, else spaced capitals on one
    /// row, else the capitals cut to the width.
    public static func draw(_ text: String, maxWidth: Int) -> [String] {
        if let rows = render(text, maxWidth: maxWidth) { return rows }
        let spaced = spaced(text)
        if spaced.count <= maxWidth { return [spaced] }
        return [Layout.truncate(text.uppercased(), to: maxWidth)]
    }
}
