import CGhostSys
#if canImport(Glibc)
import Glibc
#endif

/// One move on its way to the `moves` table.
struct JournalMove: Sendable, Equatable {
    var game: Int
    var round: Int
    var ply: Int
    var seat: Int
    var move: String
    var at: Int
}

/// The moves not yet in SQLite, and the file that makes them
/// durable meanwhile: `ghostd.sqlite3-moves`, beside the database. Games'
/// starts wait here too (JournalStart.swift), each as one line.
///
/// A turn whose only writes are moves (almost every letter) does not open
/// a transaction: its moves are appended to this file in one `write`, which
/// is its commit (with `--durability full` the syncer fdatasyncs the file
/// with the WAL before the turn's replies go). A SQLite transaction for
/// every letter is an INSERT, a BEGIN and a COMMIT with its WAL frames;
/// the append is one line in one `write`. Every turn that commits a
/// transaction anyway (a game's start or end, a name, a setting) takes
/// every move waiting here into it (`fold`), as does a turn after which more
/// than `foldLimit` would wait: SQLite then holds every move again, in the
/// order played. So the table is behind by at most `foldLimit` moves, and
/// whoever reads moves adds the ones waiting here (`moves(game:round:)`).
///
/// The file is a header line naming the journal (JournalScan.swift), then
/// a log of lines, one per move:
/// `<game> <round> <ply> <seat> <at> <check> <move>\n`, `check` being the
/// FNV-1a hash of the rest as 8 hex digits, so that a line cut short by a
/// crash, or any other damage, is known; and one per game's start
/// (`start <check> …`, JournalStart.swift). When the database opens, the
/// file is checked against what the database expects (JournalRecovery.swift:
/// damage that would lose an acknowledged line refuses the start), the
/// starts and moves in it are inserted (`INSERT OR IGNORE`: what was folded
/// already is skipped), committed, and the file is emptied down to its
/// header. It is emptied too after a fold once it passes `truncateAt` bytes.
final class MoveJournal {
    /// The moves not in SQLite, in the order played: first those in the
    /// file (`written` of them), then those of the turn in progress.
    private(set) var moves: [JournalMove] = []
    /// How many of `moves` are in the file.
    private(set) var written = 0
    /// The games' starts not in SQLite (JournalStart.swift), in the order
    /// made: first those in the file (`startsWritten` of them).
    private(set) var starts: [JournalStart] = []
    private(set) var startsWritten = 0
    /// The file, open for appending (-1 while it is missing: `reset` makes it).
    private var fd: Int32 = -1
    let path: String
    let folder: String
    /// There was no file when the store opened.
    private(set) var missing = false
    /// The file's length: where the next append starts, and what a failed
    /// one is cut back to.
    private(set) var size = 0
    /// Its header line's length (JournalScan.swift): what emptying it keeps.
    private(set) var headerBytes = 0
    /// The lines of an append, reused.
    private var buffer: [UInt8] = []
    /// For tests: when not 0, every append writes half its bytes and then
    /// fails with this errno, as a full disk does.
    var failWrites: Int32 = 0

    /// Past this many moves and starts waiting, a turn folds them into SQLite.
    static let foldLimit = 1_000
    /// Past this many bytes, a fold empties the file.
    static let truncateAt = 256 * 1024
    /// The space kept allocated past the file's end (fallocate, its size
    /// unchanged), renewed before an append that would pass it: once the
    /// disk fills up, about this much more of moves (some 1,400 letters)
    /// still go in, and an append into it cannot fail for want of space
    ///. Where the file system cannot allocate ahead, appends go
    /// on without (a failed one is undone whole, `writeTurn`).
    static let reserveBytes = 64 * 1024
    /// Where the allocated space ends (0: unknown, none asked for yet).
    private(set) var reservedEnd = 0
    /// The file system cannot allocate ahead (EOPNOTSUPP): no more asking.
    private var cannotReserve = false

    enum Failure: Error, CustomStringConvertible {
        case io(String, path: String, errno: Int32)
        case duplicate(game: Int, round: Int, ply: Int)
        var description: String {
            switch self {
            case .io(let what, let path, let code): return "cannot \(what) \(path): \(String(cString: strerror(code)))"
            case .duplicate(let game, let round, let ply): return "game \(game) has a move at round \(round), ply \(ply)"
            }
        }
    }

    /// Opens the log at `path`, in `folder`, as it is: a missing file is
    /// noted, not made (the store first checks what it finds, `Store.recoverJournal`,
    /// then `reset` makes the file).
    init(path: String, folder: String) throws {
        self.path = path
        self.folder = folder
        fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else {
            guard errno == ENOENT else { throw Failure.io("open", path: path, errno: errno) }
            missing = true
            return
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw Failure.io("read the size of", path: path, errno: code)
        }
        size = Int(info.st_size)
    }

    /// A journal with no file (the PostgreSQL store's): moves and starts
    /// wait in memory for their turn's commit, which inserts them.
    init(memoryOnly: ()) {
        path = ""
        folder = ""
    }

    deinit { if fd >= 0 { close(fd) } }

    // MARK: The turn

    /// A move of the turn in progress; refused if one waits at its place
    /// (as the table's primary key refuses one stored there).
    func record(_ move: JournalMove) throws {
        for m in moves.reversed() where m.game == move.game && m.ply == move.ply && m.round == move.round {
            throw Failure.duplicate(game: move.game, round: move.round, ply: move.ply)
        }
        moves.append(move)
    }

    /// A game's start of the turn in progress (its id is new: no check).
    func record(_ start: JournalStart) {
        starts.append(start)
    }

    /// The waiting start of game `id`, if any (a few wait at a time: the
    /// starts since the last transaction, at most `foldLimit`).
    func start(game id: Int) -> JournalStart? {
        guard let last = starts.last, id <= last.id else { return nil }
        return starts.last(where: { $0.id == id })
    }

    /// Where the moves and starts of the command in progress start.
    struct Mark: Equatable { var moves: Int, starts: Int }
    var mark: Mark { Mark(moves: moves.count, starts: starts.count) }

    /// Drops the moves and starts recorded since `mark` (a command undone).
    func undo(to mark: Mark) {
        let keep = max(written, mark.moves)
        if keep < moves.count { moves.removeSubrange(keep...) }
        let keepStarts = max(startsWritten, mark.starts)
        if keepStarts < starts.count { starts.removeSubrange(keepStarts...) }
    }

    /// Whether the turn in progress recorded moves or starts.
    var hasTurnWrites: Bool { moves.count > written || starts.count > startsWritten }

    /// How many moves and starts wait.
    var waiting: Int { moves.count + starts.count }

    /// Drops the turn's moves and starts (the turn rolled back).
    func rollbackTurn() { undo(to: Mark(moves: written, starts: startsWritten)) }

    /// Appends the turn's starts and moves to the file: the turn's commit.
    /// On failure the file is cut back to what it held, the turn's moves
    /// and starts are dropped, and the error is thrown.
    func writeTurn() throws {
        guard hasTurnWrites else { return }
        guard fd >= 0 else { throw Failure.io("append to", path: path, errno: ENOENT) }
        buffer.removeAll(keepingCapacity: true)
        for i in startsWritten..<starts.count { starts[i].appendLine(to: &buffer) }
        for i in written..<moves.count { MoveJournal.appendLine(moves[i], to: &buffer) }
        let total = buffer.count
        reserve(through: size + total)
        var done = 0
        var failure: Int32 = 0
        buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            if failWrites != 0 {
                _ = write(fd, base, total / 2)
                failure = failWrites
                return
            }
            while done < total {
                let n = write(fd, base + done, total - done)
                if n > 0 { done += n; continue }
                if n < 0 && errno == EINTR { continue }
                failure = n < 0 ? errno : ENOSPC
                return
            }
        }
        guard failure == 0 else {
            _ = ftruncate(fd, off_t(size))
            reservedEnd = 0
            rollbackTurn()
            throw Failure.io("append to", path: path, errno: failure)
        }
        size += total
        written = moves.count
        startsWritten = starts.count
    }

    /// Makes sure the file's blocks are allocated through `end`, and
    /// `reserveBytes` past it, before an append that would pass what is
    /// allocated. A failure (a full disk, a file system that cannot) is not
    /// one: the append itself tells.
    private func reserve(through end: Int) {
        guard end > reservedEnd, !cannotReserve else { return }
        if ghost_reserve(fd, size, end - size + MoveJournal.reserveBytes) == 0 {
            reservedEnd = end + MoveJournal.reserveBytes
        } else if errno == EOPNOTSUPP {
            cannotReserve = true
        }
    }

    /// When a fold empties the file.
    enum Emptying { case never, whenLarge, always }

    /// Every move and start is in SQLite now (committed): none waits, and
    /// the file is emptied if it has grown past `truncateAt` (`whenLarge`).
    /// The caller makes sure that commit is on disk first where it must be.
    func folded(emptying: Emptying = .whenLarge) {
        moves.removeAll(keepingCapacity: true)
        written = 0
        starts.removeAll(keepingCapacity: true)
        startsWritten = 0
        let empty = switch emptying {
        case .never: false
        case .whenLarge: size > MoveJournal.truncateAt
        case .always: size > headerBytes
        }
        // Emptied, it keeps its header: a file ghostd runs with always names its journal.
        if empty, fd >= 0, ftruncate(fd, off_t(headerBytes)) == 0 {
            size = headerBytes
            reservedEnd = 0   // the blocks past the end went with it
        }
    }

    /// Whether a fold empties the file (the caller syncs the WAL first).
    var wouldTruncate: Bool { size > MoveJournal.truncateAt }

    // MARK: Reading

    /// The moves waiting for game `game`'s round `round`, in ply order.
    func moves(game: Int, round: Int) -> [StoredMove] {
        moves.filter { $0.game == game && $0.round == round }.sorted { $0.ply < $1.ply }
            .map { StoredMove(seat: $0.seat, move: $0.move) }
    }

    /// The moves waiting for game `game`, in the order of the table's key.
    func moves(game: Int) -> [JournalMove] {
        moves.filter { $0.game == game }.sorted { ($0.round, $0.ply) < ($1.round, $1.ply) }
    }

    /// The time of the last move waiting for game `game`, if any.
    func lastMoveTime(game: Int) -> Int? {
        moves.last(where: { $0.game == game })?.at
    }

    /// The whole file, read line by line (JournalScan.swift); nil if it is
    /// missing. At most `limit` bytes are read: a longer file is refused.
    func read(limit: Int = 64 * 1024 * 1024) throws -> JournalScan? {
        guard fd >= 0 else { return nil }
        return JournalScan(try readBytes(limit: limit))
    }

    /// The file's bytes (at most `limit`: a longer file is refused).
    private func readBytes(limit: Int = 64 * 1024 * 1024) throws -> [UInt8] {
        guard size <= limit else { throw Failure.io("read (too long)", path: path, errno: EFBIG) }
        var bytes = [UInt8](repeating: 0, count: size)
        var got = 0
        while got < size {
            let n = bytes.withUnsafeMutableBytes { raw in pread(fd, raw.baseAddress.map { $0 + got }, size - got, off_t(got)) }
            if n > 0 { got += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { break }
            throw Failure.io("read", path: path, errno: errno)
        }
        return Array(bytes[0..<got])
    }

    /// A copy of the file as it is, under another name, synced (never
    /// over an existing file).
    func keepCopy(as copy: String) throws {
        let bytes = try readBytes()
        let out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw Failure.io("create", path: copy, errno: errno) }
        defer { close(out) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in write(out, raw.baseAddress.map { $0 + done }, bytes.count - done) }
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            throw Failure.io("write", path: copy, errno: n < 0 ? errno : ENOSPC)
        }
        guard fsync(out) == 0 else { throw Failure.io("sync", path: copy, errno: errno) }
    }

    /// The file's header, as read (`JournalScan.headerBytes`): what emptying it keeps.
    func adopt(headerBytes bytes: Int) {
        headerBytes = bytes
    }

    /// After the store has inserted what the file held: a file of journal
    /// `ident` that holds only its header. One that already has that header
    /// and no damage before its end is cut back to it; any other (missing,
    /// without a header, another journal's, or damaged and salvaged) is
    /// replaced by a new one, made whole under another name, synced, then
    /// renamed into place.
    func reset(ident: String, current: JournalScan?) throws {
        let header = JournalScan.headerLine(ident: ident)
        if fd >= 0, current?.header == .ident(ident), current?.headerBytes == header.count, current?.damageInTheMiddle == nil {
            guard ftruncate(fd, off_t(header.count)) == 0 else { throw Failure.io("empty", path: path, errno: errno) }
            size = header.count
            headerBytes = header.count
            reservedEnd = 0
            return
        }
        let temporary = path + ".new"
        let made = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard made >= 0 else { throw Failure.io("create", path: temporary, errno: errno) }
        var failure: Int32 = 0
        header.withUnsafeBytes { raw in
            if write(made, raw.baseAddress, raw.count) != raw.count { failure = errno == 0 ? ENOSPC : errno }
        }
        if failure == 0 && fsync(made) != 0 { failure = errno }
        close(made)
        guard failure == 0 else {
            unlink(temporary)
            throw Failure.io("write", path: temporary, errno: failure)
        }
        guard rename(temporary, path) == 0 else { throw Failure.io("put in place", path: path, errno: errno) }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { _ = fsync(dir); close(dir) }
        if fd >= 0 { close(fd) }
        fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw Failure.io("open", path: path, errno: errno) }
        missing = false
        size = header.count
        headerBytes = header.count
        reservedEnd = 0
    }

    // MARK: The line format

    /// Appends `m`'s line to `out`, written in place (no strings or arrays: every move).
    static func appendLine(_ m: JournalMove, to out: inout [UInt8]) {
        var move = m.move
        move.withUTF8 { body in
            let capacity = 5 * 21 + 9 + body.count + 1
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { line in
                guard let base = line.baseAddress else { return }
                var p = base
                p = writeDecimal(m.game, at: p); p.pointee = 0x20; p += 1
                p = writeDecimal(m.round, at: p); p.pointee = 0x20; p += 1
                p = writeDecimal(m.ply, at: p); p.pointee = 0x20; p += 1
                p = writeDecimal(m.seat, at: p); p.pointee = 0x20; p += 1
                p = writeDecimal(m.at, at: p); p.pointee = 0x20; p += 1
                var hash = fnv(UnsafeBufferPointer(start: base, count: p - base))
                hash = fnv(body, from: hash)
                for i in 0..<8 { p[i] = checkDigit(hash, i) }
                p[8] = 0x20
                p += 9
                if let from = body.baseAddress, body.count > 0 { p.update(from: from, count: body.count) }
                p += body.count
                p.pointee = 0x0A
                p += 1
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: p - base))
            }
        }
    }

    /// Digit `i` (0 first) of a line's check: its hash as 8 hex digits, most significant first.
    @inline(__always)
    static func checkDigit(_ hash: UInt32, _ i: Int) -> UInt8 {
        hexDigit(UInt8(truncatingIfNeeded: hash >> (28 - 4 * UInt32(i))))
    }

    /// The hash 8 hex digits spell (`checkDigit`), nil if they are not that.
    static func parseCheck<C: Collection>(_ digits: C) -> UInt32? where C.Element == UInt8 {
        guard digits.count == 8 else { return nil }
        var check: UInt32 = 0
        for c in digits {
            guard let v = hexValue(c) else { return nil }
            check = check << 4 | UInt32(v)
        }
        return check
    }

    @inline(__always)
    static func hexDigit(_ v: UInt8) -> UInt8 {
        let d = v & 0xF
        return d < 10 ? 0x30 + d : 0x61 - 10 + d
    }

    /// Writes `value` (never negative for a stored move; 0 if it were) in decimal at `p`.
    @inline(__always)
    private static func writeDecimal(_ value: Int, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        writeDecimal(UInt(max(0, value)), at: p)
    }

    /// Writes `value` in decimal at `p` (at most 20 digits); returns the end.
    @inline(__always)
    static func writeDecimal(_ value: UInt, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var v = value
        var digits = 1
        var bound: UInt = 10
        while v >= bound && digits < 20 {
            digits += 1
            let (next, over) = bound.multipliedReportingOverflow(by: 10)
            if over { break }
            bound = next
        }
        var i = digits
        repeat { i -= 1; p[i] = UInt8(truncatingIfNeeded: v % 10) + 0x30; v /= 10 } while i > 0
        return p + digits
    }

    static func parseLine(_ line: ArraySlice<UInt8>) -> JournalMove? {
        var numbers: [Int] = []
        var i = line.startIndex
        while numbers.count < 6 {
            var value = 0, digits = 0
            while i < line.endIndex, line[i] != 0x20 {
                let c = line[i]
                if numbers.count == 5 {
                    guard let v = hexValue(c) else { return nil }
                    value = value << 4 | v
                } else {
                    guard c >= 0x30, c <= 0x39, value < Int.max / 10 - 9 else { return nil }
                    value = value * 10 + Int(c - 0x30)
                }
                digits += 1
                i += 1
            }
            guard i < line.endIndex, digits > 0, digits <= (numbers.count == 5 ? 8 : 19) else { return nil }
            numbers.append(value)
            i += 1   // the space
        }
        let checkStart = i - 9   // the 8 hex digits and their space
        guard checkStart >= line.startIndex, numbers[5] >= 0 else { return nil }
        var hash = fnv(line[line.startIndex..<checkStart])
        hash = fnv(line[i...], from: hash)
        guard Int(hash) == numbers[5], let move = String(validating: line[i...], as: UTF8.self) else { return nil }
        return JournalMove(game: numbers[0], round: numbers[1], ply: numbers[2], seat: numbers[3], move: move, at: numbers[4])
    }

    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }

    /// FNV-1a (32 bits): a check against damage, not a secret.
    static func fnv<C: Collection>(_ bytes: C, from start: UInt32 = 2_166_136_261) -> UInt32 where C.Element == UInt8 {
        var hash = start
        for b in bytes { hash = (hash ^ UInt32(b)) &* 16_777_619 }
        return hash
    }
}
