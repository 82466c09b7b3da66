/// A table of columns as wide as their widest cell, the header included,
/// measured by display width (so a Dutch header such as `Plaats` lines up
/// with its rows as `Rank` does). One column may be `flex`: it gives up
/// room when the table would be wider than `width`.
struct Table {
    enum Align { case left, right }
    var header: [String]
    var align: [Align]
    /// Each column's most columns (nil: as wide as its cells).
    var most: [Int?]
    /// Each column's fewest columns (the tables' old fixed widths, so English stays as it was).
    var least: [Int] = []
    /// The column that shrinks to fit `width`.
    var flex: Int?
    var gap = "  "

    /// The width of each column for these rows within `width` columns.
    func widths(_ rows: [[String]], width: Int) -> [Int] {
        var w = header.indices.map { max(Layout.visibleWidth(header[$0]), $0 < least.count ? least[$0] : 0) }
        for row in rows {
            for (i, cell) in row.enumerated() where i < w.count { w[i] = max(w[i], Layout.visibleWidth(cell)) }
        }
        for i in w.indices { if i < most.count, let m = most[i] { w[i] = min(w[i], max(m, Layout.visibleWidth(header[i]))) } }
        if let f = flex, f < w.count {
            let total = w.reduce(0, +) + gap.count * max(0, w.count - 1)
            if total > width { w[f] = max(Layout.visibleWidth(header[f]), w[f] - (total - width)) }
        }
        return w
    }

    /// The table and its widths for these rows: with one space between
    /// columns instead of two where that spares the flex column a cut (the
    /// longest names and phrases at 60 columns).
    func fitted(_ rows: [[String]], width: Int) -> (table: Table, widths: [Int]) {
        let w = widths(rows, width: width)
        guard let f = flex, f < w.count, gap.count > 1 else { return (self, w) }
        let natural = rows.map { f < $0.count ? Layout.visibleWidth($0[f]) : 0 }.max() ?? 0
        guard w[f] < min(natural, f < most.count ? most[f] ?? natural : natural) else { return (self, w) }
        var narrow = self
        narrow.gap = " "
        return (narrow, narrow.widths(rows, width: width))
    }

    /// One line of cells laid out in `widths`.
    func line(_ cells: [String], _ widths: [Int]) -> String {
        widths.indices.map { i -> String in
            let cell = Layout.truncate(i < cells.count ? cells[i] : "", to: widths[i])
            let fill = String(repeating: " ", count: max(0, widths[i] - Layout.visibleWidth(cell)))
            return (i < align.count ? align[i] : .left) == .right ? fill + cell : cell + fill
        }.joined(separator: gap)
    }
}
