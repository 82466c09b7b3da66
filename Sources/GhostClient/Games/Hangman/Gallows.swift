/// The gallows drawing: 26 parts in drawing order, each a few cells of an
/// 8×13 grid. Misses allowed (1–26) decide which parts a miss adds: the
/// `misses` most important parts (by `rank`) each begin a step, every other
/// part comes with the step before it, and the parts before the first step
/// stand from the start. So with 6 misses the gallows stands and the misses
/// draw the head, the body, the arms and the legs; with 26 each miss draws
/// one part; and the last miss always completes the figure.
public enum Gallows {
    public static let rows = 8
    public static let columns = 13

    struct Part {
        var name: String
        /// 0 is the first part to get a step of its own.
        var rank: Int
        var cells: [(row: Int, column: Int, char: Character)]
    }

    static func cells(_ row: Int, _ from: Int, _ text: String) -> [(row: Int, column: Int, char: Character)] {
        text.enumerated().map { (row, from + $0.offset, $0.element) }
    }

    static let parts: [Part] = [
        Part(name: "ground-left", rank: 25, cells: cells(7, 0, "═════")),
        Part(name: "ground-middle", rank: 20, cells: cells(7, 5, "════")),
        Part(name: "ground-right", rank: 24, cells: cells(7, 9, "════")),
        Part(name: "post-1", rank: 7, cells: cells(6, 2, "│") + cells(7, 2, "╧")),
        Part(name: "post-2", rank: 13, cells: cells(5, 2, "│")),
        Part(name: "post-3", rank: 17, cells: cells(4, 2, "│")),
        Part(name: "post-4", rank: 22, cells: cells(3, 2, "│")),
        Part(name: "post-5", rank: 23, cells: cells(2, 2, "│") + cells(1, 2, "│")),
        Part(name: "beam-1", rank: 8, cells: cells(0, 2, "┌──")),
        Part(name: "beam-2", rank: 16, cells: cells(0, 5, "──")),
        Part(name: "beam-3", rank: 21, cells: cells(0, 7, "─┐")),
        Part(name: "brace", rank: 14, cells: cells(1, 3, "/")),
        Part(name: "rope", rank: 6, cells: cells(1, 8, "│")),
        Part(name: "head", rank: 0, cells: cells(2, 8, "O")),
        Part(name: "body", rank: 3, cells: cells(3, 8, "|")),
        Part(name: "body-lower", rank: 15, cells: cells(4, 8, "|")),
        Part(name: "left-arm", rank: 4, cells: cells(3, 7, "/")),
        Part(name: "left-hand", rank: 9, cells: cells(4, 6, "/")),
        Part(name: "right-arm", rank: 1, cells: cells(3, 9, "\\")),
        Part(name: "right-hand", rank: 10, cells: cells(4, 10, "\\")),
        Part(name: "left-leg", rank: 2, cells: cells(5, 7, "/")),
        Part(name: "left-foot", rank: 11, cells: cells(6, 6, "/")),
        Part(name: "left-toe", rank: 18, cells: cells(6, 5, "_")),
        Part(name: "right-leg", rank: 5, cells: cells(5, 9, "\\")),
        Part(name: "right-foot", rank: 12, cells: cells(6, 10, "\\")),
        Part(name: "right-toe", rank: 19, cells: cells(6, 11, "_")),
    ]

    public static var partCount: Int { parts.count }

    /// The names of the parts drawn after `mistakes` of `misses` allowed.
    public static func drawn(mistakes: Int, misses: Int) -> [String] {
        let m = min(max(1, misses), parts.count)
        let k = min(max(0, mistakes), m)
        if k >= m { return parts.map(\.name) }
        // The parts that begin a step, in drawing order; step k+1 has not come yet.
        let starts = parts.indices.filter { parts[$0].rank < m }
        let next = starts.indices.contains(k) ? starts[k] : parts.count
        return parts[..<next].map(\.name)
    }

    /// The drawing, `rows` lines of `columns` characters.
    public static func draw(mistakes: Int, misses: Int) -> [String] {
        let names = Set(drawn(mistakes: mistakes, misses: misses))
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        for part in parts where names.contains(part.name) {
            for cell in part.cells where grid.indices.contains(cell.row) && grid[cell.row].indices.contains(cell.column) {
                grid[cell.row][cell.column] = cell.char
            }
        }
        return grid.map { String($0) }
    }
}
