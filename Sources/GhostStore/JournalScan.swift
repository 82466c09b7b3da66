/// The move journal's file read whole, line by line: its header,
/// its intact starts and moves, and where it is damaged, so that a torn tail
/// (the last append of a crash, cut short: safe to drop) is told from damage
/// in the middle (intact lines follow it: acknowledged moves would be lost)
/// and from a journal that is not the database's (missing, emptied or
/// replaced: the header names the journal the database expects).
///
/// The file: a header line `journal <ident> <check>`, `ident` 16 hex digits
/// the database keeps (`move_journal.ident`, schema 15), `check` the FNV-1a
/// hash of `journal <ident>` as 8 hex digits; then one line per start and
/// per move (MoveJournal.swift, JournalStart.swift), each with its check. A
/// file written before schema 15 has no header.
struct JournalScan {
    enum Header: Equatable {
        /// No header: an empty file, or one from before schema 15.
        case none
        /// The journal `ident`.
        case ident(String)
        /// A first line that starts as a header but does not check.
        case damaged
    }

    var header = Header.none
    /// The header line's length with its line end (0 without one).
    var headerBytes = 0
    var starts: [JournalStart] = []
    var moves: [JournalMove] = []
    /// Lines that are not whole and intact (1-based, the header counting).
    var badLines: [Int] = []
    /// What an intact line holds, as the tables key it.
    enum Key: Equatable {
        case start(Int)
        case move(game: Int, round: Int, ply: Int)
    }
    /// The intact lines, in order, with what they hold.
    private var entries: [(line: Int, key: Key)] = []
    /// The intact starts' and moves' lines (1-based).
    private var intact: [Int] = []
    /// Lines read, a last one cut short included.
    var lineCount = 0
    /// Intact starts and moves.
    var intactLines: Int { intact.count }
    /// Intact starts and moves after line `line`.
    func intactLines(after line: Int) -> Int { intact.count - intact.prefix { $0 <= line }.count }
    /// The byte just after the last intact line (or the header).
    var intactEnd = 0
    /// The line just after the last intact one.
    private var lastIntactLine = 0

    /// The first damaged line that an intact line follows: damage in the
    /// middle, not a torn tail. Nil when every bad line comes after the
    /// last intact one.
    var damageInTheMiddle: Int? { badLines.first.flatMap { $0 < lastIntactLine ? $0 : nil } }

    /// The first damaged line that an intact line follows and that may
    /// hold what the tables do not: one whose next intact line `isFolded`
    /// (in the tables already) was folded with it, a fold taking every line
    /// written before it, and loses nothing.
    func damage(isFolded: (Key) throws -> Bool) throws -> Int? {
        var next = 0
        for line in badLines where line < lastIntactLine {
            while next < entries.count, entries[next].line < line { next += 1 }
            guard next < entries.count else { return nil }
            if try !isFolded(entries[next].key) { return line }
        }
        return nil
    }

    /// The bad lines after the last intact one: the end of an append cut short.
    var tornTail: Bool { !badLines.isEmpty && damageInTheMiddle == nil }

    /// The word a header line starts with.
    static let headerTag: [UInt8] = Array("journal ".utf8)

    /// A new journal's name: 64 random bits as 16 hex digits.
    static func newIdent() -> String {
        var n = PooledRandom.seed()
        var digits = [UInt8](repeating: 0x30, count: 16)
        for i in (0..<16).reversed() {
            digits[i] = MoveJournal.hexDigit(UInt8(truncatingIfNeeded: n))
            n >>= 4
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `journal <ident> <check>\n`.
    static func headerLine(ident: String) -> [UInt8] {
        var line = headerTag + Array(ident.utf8)
        let hash = MoveJournal.fnv(line)
        line.append(0x20)
        for i in 0..<8 { line.append(MoveJournal.checkDigit(hash, i)) }
        line.append(0x0A)
        return line
    }

    /// Reads `bytes`, the whole file.
    init(_ bytes: [UInt8]) {
        var start = 0
        var line = 0
        while start < bytes.count {
            line += 1
            lineCount = line
            let end = bytes[start...].firstIndex(of: 0x0A)
            let body = bytes[start..<(end ?? bytes.count)]
            let next = end.map { $0 + 1 } ?? bytes.count
            defer { start = next }
            // A last line without its end is cut short: never intact.
            guard end != nil else { badLines.append(line); continue }
            if line == 1, body.starts(with: JournalScan.headerTag) {
                if let ident = JournalScan.parseHeader(body) {
                    header = .ident(ident)
                    headerBytes = next
                    intactEnd = next
                    lastIntactLine = line
                } else {
                    header = .damaged
                    badLines.append(line)
                }
                continue
            }
            if body.first == JournalStart.tag.first, let begun = JournalStart.parseLine(body) {
                starts.append(begun)
                entries.append((line, .start(begun.id)))
            } else if let move = MoveJournal.parseLine(body) {
                moves.append(move)
                entries.append((line, .move(game: move.game, round: move.round, ply: move.ply)))
            } else {
                badLines.append(line)
                continue
            }
            intactEnd = next
            lastIntactLine = line
            intact.append(line)
        }
    }

    /// The ident of a header line (without its line end), if it checks.
    static func parseHeader(_ line: ArraySlice<UInt8>) -> String? {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count == 16, parts[1].allSatisfy({ MoveJournal.hexValue($0) != nil }),
              let check = MoveJournal.parseCheck(parts[2]) else { return nil }
        let signed = line[line.startIndex..<parts[2].startIndex - 1]
        guard MoveJournal.fnv(signed) == check else { return nil }
        return String(decoding: parts[1], as: UTF8.self)
    }
}
