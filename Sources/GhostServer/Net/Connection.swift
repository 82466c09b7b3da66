import CGhostSys
import Glibc
import GhostProtocol

/// One client socket and its buffers.
final class Connection {
    let id: ConnectionID
    let fd: Int32
    let peer: String
    /// Its address, and its network (`NetworkKey`): the key of every
    /// per-address limit. (A web client behind a `--trusted-proxy` gets
    /// those of its `X-Forwarded-For` before it is a session: WebPort.swift.)
    var ip: String
    var network: String
    var framer = LineFramer()
    let openedAt: Double
    var lastInput: Double
    /// Its budget's penalty clock (`Budgets`).
    var penalty = PenaltyClock()
    /// Lines framed but not yet served (it went over a budget mid-read);
    /// served from `pendingHead`. Nothing more is read while any wait.
    var pending: [LineFramer.Frame] = []
    var pendingHead = 0
    /// Set while its input waits for a budget: when to try again.
    var heldUntil: Double?
    /// Since when it has been over its own budget with lines waiting (nil:
    /// it caught up); `BYE flood` past `--flood-seconds`.
    var overSince: Double?
    /// It has sent NAME or RESUME (counted among the unnamed until then).
    var identified = false
    /// Its next line may be a PROXY line (`ProxyLine`): a plain-port
    /// connection from a `--trusted-proxy`, until its first line is served;
    /// a relayed one whose RELAY line named a trusted proxy, until its second.
    var mayNameItsClient = false
    /// It came to the relay port and its first line, which must be a RELAY line, is not served yet.
    var isRelay = false
    /// The node it came in through, from its RELAY line (nil: it connected
    /// to this node directly); counted in `ServerStats.entered` (STATS).
    var entryNode: String?
    var isDirty = false
    /// The loop turn in which it was last put in `ConnectionIO.ready`, and
    /// whether epoll said it is readable this turn (ConnectionIO+Fairness.swift).
    var readyTurn = -1
    var readable = false
    /// Replies queued, sent from `written` on (OutputBytes.swift).
    var output = OutputBytes()
    var written = 0              // bytes of `output` already sent
    var registered = UInt32(GHOST_EPOLLIN | GHOST_EPOLLRDHUP)   // epoll events asked for
    var closeAfterFlush = false  // BYE sent, or the client shut its side: close once output is written
    /// The client has shut its sending side (a read returned 0, or epoll
    /// said so while closing): it is not asked about its input again.
    var halfClosed = false
    var closeReason = "quit"
    /// Why the server closed it, for STATS; nil: the client went.
    var closedFor: ByeCode?
    var closeDeadline = 0.0      // by then it goes, written or not
    var dropReason: String?      // set when it must go at the end of the turn
    /// The BYE line to write, best effort, when it is dropped (output overflow).
    var byeOnDrop: ServerLine?
    /// The BYE line queued by `close`, to queue again if the turn's output is withdrawn.
    var bye: ServerLine?
    /// Its TLS session, on the TLS port (nil: plain TCP).
    var tls: TLSSession?
    /// On a web port: its HTTP request, then, upgraded, its WebSocket (WebSession.swift).
    var web: WebSession?
    /// Not a session yet: on a TLS port before the handshake is done
    /// (nothing is read or sent in clear), on a web port until the
    /// WebSocket upgrade (only HTTP). The lobby has not heard of it.
    var handshaking: Bool {
        if let tls, !tls.established { return true }
        if let web, web.phase != .socket { return true }
        return false
    }
    /// Served by the I/O threads: read and written straight on its socket (no TLS, no WebSocket).
    var isPlain: Bool { tls == nil && web == nil }
    /// Input waits in OpenSSL (decrypted) or in its WebSocket (decoded), which epoll cannot report.
    var hasBufferedInput: Bool {
        if let tls, tls.established, tls.hasPending { return true }
        // (And the end of a WebSocket's input, a close frame or a broken
        // frame, decoded with the lines before it: read again, it ends the connection.)
        if let web, web.phase == .socket, web.hasDecoded || !web.carried.isEmpty || web.inputEnded { return true }
        return false
    }

    // What was queued before the turn (since the last commit) and before the
    // command in progress, so that unconfirmed replies can be withdrawn.
    // Recorded when the connection is first written to in each, counted
    // from the connection's first byte (as `releasedUpTo`), so that sent
    // bytes trimmed from the front of `output` meanwhile do not shift them
    // (a shifted mark left the head of a withdrawn reply).
    var turnEpoch = 0
    var turnMark = 0
    var closingAtTurnMark = false
    /// Commands the lobby got from this connection since the last commit.
    var turnCommands = 0
    var commandEpoch = 0
    var commandMark = 0
    var closingAtCommandMark = false

    // Left by an I/O thread (IOThreads.swift) for the loop: what its read
    // returned (bytes, 0 at the end, -1 on an error), the errno of a failed
    // read or send, and whether a thread has already sent this turn's output.
    var ioRead = 0
    var ioError: Int32 = 0
    var sentByThread = false

    init(id: ConnectionID, fd: Int32, peer: String, now: Double) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.ip = Connection.address(of: peer)
        self.network = NetworkKey.of(ip)
        self.openedAt = now
        self.lastInput = now
    }

    /// "1.2.3.4:5678" or "[::1]:5678" → the address part.
    static func address(of peer: String) -> String {
        var host = peer
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    var hasPending: Bool { pendingHead < pending.count }

    func clearPending() {
        if pending.count <= 8 && pending.capacity <= 256 {
            // The usual case, a line or a few: `removeLast` is Array's own
            // fast path; `removeAll(keepingCapacity:)` goes through the
            // generic `replaceSubrange`, and this runs after every line.
            while !pending.isEmpty { pending.removeLast() }
        } else {
            pending.removeAll(keepingCapacity: pending.capacity <= 256)
        }
        pendingHead = 0
    }

    /// Bytes of `output` not yet sent, held ones included.
    var pendingOutput: Int { output.count - written }

    // Replies wait for the disk: bytes queued before a commit may be sent
    // only once that commit is synced (see `CommitSync.seal`). Offsets below
    // are counted from the connection's first byte, so they survive the
    // trimming of sent bytes from the front of `output`.
    /// Bytes trimmed from the front of `output` so far.
    var trimmed = 0
    /// Bytes up to here may be sent.
    var releasedUpTo = 0
    /// The end of what is queued, counted from the first byte.
    var queuedEnd: Int { trimmed + output.count }
    /// Bytes that may be sent now.
    var sendableOutput: Int { max(0, min(output.count, releasedUpTo - trimmed) - written) }
    /// Bytes queued that wait for a sync.
    var heldOutput: Int { max(0, queuedEnd - max(releasedUpTo, trimmed + written)) }
    /// Something queued since the last seal may show what a commit changed
    /// (anything but the replies of a command that reveals nothing, and an
    /// `ERR` to its sender): it waits for the newest sync.
    var revealing = false
    /// Where `output` ended at the last seal, counted from the first byte.
    var sealedEnd = 0

    /// Whether, after a flush that left `pendingOutput` > 0, the replies it
    /// has unread could be over `limit` bytes, so that the kernel's share
    /// must be asked for (a system call, SIOCOUTQ). Not when the socket took
    /// every byte that may be sent, and what is left waits for a sync
    /// (`--durability full`, the turn's replies at most, bounded by
    /// `ConnectionTable.turnAllowance`): the socket is not full, and the
    /// flush that sends those bytes checks the limit. That was one ioctl
    /// per connection and letter, 4% of the loop thread's time under load.
    /// Nor when the kernel cannot hold enough to matter: it holds no more
    /// than was ever sent.
    func mayBeOverLimit(_ limit: Int) -> Bool {
        sendableOutput > 0 && pendingOutput + trimmed + written > limit
    }

    /// Everything queued may be sent.
    func releaseAll() { releasedUpTo = queuedEnd }
    /// Lines that wait for a sync that will not come are dropped.
    func dropHeld() {
        let keep = max(written, releasedUpTo - trimmed)
        if keep < output.count { output.removeLast(output.count - keep) }
    }
    /// Takes back what was queued after `mark` (counted from the first
    /// byte). Never a byte already sent: a mark is never released before
    /// its commit, so none of those bytes can have been.
    func withdraw(to mark: Int) {
        let keep = max(mark - trimmed, written)
        if output.count > keep { output.removeLast(output.count - keep) }
    }

    /// Sent bytes leave the buffer.
    func trimSent(all: Bool) {
        if all {
            trimmed += output.count
            output.removeAll(keepingCapacity: output.capacity <= 4096)
        } else {
            trimmed += written
            output.removeFirst(written)
        }
        written = 0
    }
}

/// The open connections, as the lobby's outbox: replies are rendered once and
/// appended straight to each connection's output; the event loop writes them
/// out once per turn, after the commit. The lobby writes here and the loop
/// reads from here, so neither needs the other.
final class ConnectionTable: Outbox {
    var connections: [ConnectionID: Connection] = [:] {
        // Any change forgets the connections found (`connection(_:)`).
        didSet { found = nil; alsoFound = nil }
    }
    /// The connections the last `connection(_:)` misses found: a command's
    /// replies go to one connection several times in a row (its sender),
    /// and a game's lines alternate between its two players, each a
    /// dictionary look-up, with its hashing, before.
    /// A hit changes nothing (moving the one found to the front was two
    /// retains and two releases a look-up, the game's alternation a swap
    /// each time); a miss replaces the two in turn (`replaceAlso`).
    private var found: Connection?
    private var alsoFound: Connection?
    private var replaceAlso = false
    /// Connections with output to write or a drop to carry out this turn.
    var dirty: [Connection] = []
    /// Bytes of replies a connection may leave unread.
    let maxOutputBytes: Int
    /// Time of this loop turn (monotonic), set by the loop.
    var now: Double = 0
    /// Counts commits: output queued since the last one is unconfirmed.
    private var turnEpoch = 1
    /// Counts commands: output queued since the start of the current one may be withdrawn.
    private var commandEpoch = 1
    /// The connection whose line the lobby is serving (set by the loop), and
    /// whether that line's replies reveal nothing a commit changed (PING,
    /// HELP, STATS, a line that is no command: `ServerCommands.LineFacts`).
    /// Its replies then, and an `ERR` to it after any line, do not make it
    /// `revealing`: with `--durability full` they go out without waiting
    /// for a sync (`CommitSync.seal`).
    /// (An id, not the connection: setting and clearing a reference retained
    /// and released it, at every line.)
    var serving: ConnectionID = -1
    var servingRevealsNothing = false

    /// Replies one turn may add beyond --max-output-bytes before the flush.
    static let turnAllowance = 64 * 1024
    /// How long a closing connection may take to read its last replies.
    static let closeGrace = 2.0

    init(maxOutputBytes: Int) {
        self.maxOutputBytes = maxOutputBytes
    }

    subscript(id: ConnectionID) -> Connection? { connection(id) }

    /// The open connection `id`, if any: one of the two remembered if it is one of them.
    @inline(__always)
    func connection(_ id: ConnectionID) -> Connection? {
        if let one = found, one.id == id { return one }
        if let other = alsoFound, other.id == id { return other }
        let looked = connections[id]
        if looked != nil {
            if replaceAlso { alsoFound = looked } else { found = looked }
            replaceAlso.toggle()
        }
        return looked
    }
    var count: Int { connections.count }

    // MARK: Outbox

    /// Nothing is sent after a connection's BYE, nor to one being dropped.
    func send(_ line: ServerLine, to id: ConnectionID) {
        guard let conn = connection(id), conn.dropReason == nil, !conn.closeAfterFlush else { return }
        track(conn)
        if !conn.revealing, id != serving || !(servingRevealsNothing || line.isError) { conn.revealing = true }
        conn.output.append(line)
        queued(conn)
    }

    /// Renders the line once, on the stack (`ServerLine.withWire`), and
    /// appends those bytes to each connection (a broadcast: both players'
    /// MOVE and TURN). Rendering into the first connection's output and
    /// copying from there held a reference to it and read its array back,
    /// about 4 retains and 5 releases a broadcast; a scratch array in
    /// between was one more copy and its reset a generic `replaceSubrange`.
    func send(_ line: ServerLine, toEach ids: [ConnectionID?]) {
        line.withWire { bytes in
            for case let id? in ids {
                guard let conn = connection(id), conn.dropReason == nil, !conn.closeAfterFlush else { continue }
                track(conn)
                conn.revealing = true
                conn.output.append(bytes)
                queued(conn)
            }
        }
    }

    /// Renders the lines once, into the first connection's output, and
    /// copies those bytes to the others (a watchers' batch: one append per
    /// watcher, however many lines).
    func send(_ lines: [ServerLine], toEach ids: [ConnectionID]) {
        var first: Connection?
        var start = 0
        for id in ids {
            guard let conn = connection(id), conn.dropReason == nil, !conn.closeAfterFlush else { continue }
            track(conn)
            conn.revealing = true
            if let first, first !== conn {
                copy(from: first, start, to: conn)
            } else {
                start = conn.output.count
                for line in lines { conn.output.append(line) }
                first = conn
            }
            queued(conn)
        }
    }

    /// Appends `source`'s output from `start` to its end (what was just
    /// rendered into it) to `conn`'s output; two different connections.
    @inline(__always)
    private func copy(from source: Connection, _ start: Int, to conn: Connection) {
        source.output.withUnsafeBufferPointer { bytes in
            conn.output.append(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// Queues `BYE <code> <text>` as the connection's last line; it closes
    /// once that is written, or after `closeGrace` seconds. The log gives the
    /// code (and the text) as the reason.
    func close(_ id: ConnectionID, _ code: ByeCode, _ text: String) {
        guard let conn = connection(id), conn.dropReason == nil, !conn.closeAfterFlush else { return }
        track(conn)
        conn.revealing = true
        let bye = ServerLine.bye(code, text)
        conn.output.append(bye)
        conn.bye = bye
        conn.closeAfterFlush = true
        conn.closeReason = ConnectionTable.reason(code, text)
        conn.closedFor = code
        conn.closeDeadline = now + ConnectionTable.closeGrace
        markDirty(conn)
    }

    /// The client shut its sending side (`shutdown(SHUT_WR)`, as `nc -N`
    /// does, or closed its socket): it sends nothing more, but it is owed
    /// every reply queued for it, those that wait for a sync too
    /// (they were lost when it was dropped at once). It closes as
    /// after a BYE, without one: once all that is written (`ConnectionIO.flush`,
    /// lingering), or after `closeGrace` seconds if it does not read them
    /// (`Server.sweep`); nothing more is queued for it meanwhile, and the
    /// lobby hears of it at that close (`Server.disconnect`), as of any.
    func peerClosed(_ conn: Connection) {
        conn.halfClosed = true
        guard conn.dropReason == nil, !conn.closeAfterFlush else { return }
        conn.closeAfterFlush = true
        // Never reopened by an undone command (`discardCommand`): it was no command's doing.
        conn.closingAtCommandMark = true
        conn.closeReason = "closed by peer"
        conn.closeDeadline = now + ConnectionTable.closeGrace
        markDirty(conn)
    }

    /// How a close reads in the log: `flood (more than 5 commands a second)`.
    static func reason(_ code: ByeCode, _ text: String) -> String {
        "\(code.rawValue) (\(text))"
    }

    /// The client left too much unread: it is dropped at the end of the turn,
    /// its BYE written past the limit, best effort.
    func overflowed(_ conn: Connection) {
        guard conn.dropReason == nil else { return }
        let text = "more than \(maxOutputBytes) bytes of replies unread"
        // A connection that already has its BYE queued gets no second one.
        conn.byeOnDrop = conn.closeAfterFlush ? nil : .bye(.outputOverflow, text)
        conn.dropReason = ConnectionTable.reason(.outputOverflow, text)
        conn.closedFor = .outputOverflow
        markDirty(conn)
    }

    private func queued(_ conn: Connection) {
        // The limit is on replies left unread, checked after each flush; this
        // hard stop only bounds what one turn can pile up.
        if conn.pendingOutput > maxOutputBytes + ConnectionTable.turnAllowance {
            overflowed(conn)
        }
        markDirty(conn)
    }

    func markDirty(_ conn: Connection) {
        guard !conn.isDirty else { return }
        conn.isDirty = true
        dirty.append(conn)
    }

    // MARK: Withdrawing unconfirmed replies

    /// Records where the turn's and the command's output start on this
    /// connection, the first time each writes to it. Two compares per line.
    @inline(__always)
    private func track(_ conn: Connection) {
        if conn.turnEpoch != turnEpoch { startTurn(conn) }
        if conn.commandEpoch != commandEpoch {
            conn.commandEpoch = commandEpoch
            conn.commandMark = conn.queuedEnd
            conn.closingAtCommandMark = conn.closeAfterFlush
        }
    }

    private func startTurn(_ conn: Connection) {
        conn.turnEpoch = turnEpoch
        conn.turnMark = conn.queuedEnd
        conn.closingAtTurnMark = conn.closeAfterFlush
        conn.turnCommands = 0
    }

    /// A command from this connection goes to the lobby: it will get one
    /// final reply, which a lost turn replaces with `ERR store-failed`.
    func countCommand(_ conn: Connection) {
        if conn.turnEpoch != turnEpoch { startTurn(conn) }
        conn.turnCommands += 1
    }

    /// What is queued for the connection so far (its HELLO) is confirmed.
    func settle(_ conn: Connection) {
        startTurn(conn)
    }

    func beginCommand() {
        commandEpoch &+= 1
    }

    /// The command's writes were rolled back: what it queued is withdrawn,
    /// and a connection it closed stays open. (Every connection written to
    /// this turn is in `dirty`.)
    func discardCommand() {
        for conn in dirty where conn.commandEpoch == commandEpoch {
            conn.withdraw(to: conn.commandMark)
            if conn.closeAfterFlush && !conn.closingAtCommandMark {
                conn.closeAfterFlush = false
                conn.bye = nil
            }
        }
        commandEpoch &+= 1
    }

    /// The turn's changes are stored: its output is confirmed.
    func committed() {
        turnEpoch &+= 1
        commandEpoch &+= 1
    }

    /// Withdraws every line queued since the last commit; returns the
    /// connections that had some.
    @discardableResult
    func withdrawTurn() -> [Connection] {
        let written = connections.values.filter { $0.turnEpoch == turnEpoch }
        for conn in written { conn.withdraw(to: conn.turnMark) }
        return written
    }

    /// Whether the connection's BYE is queued (and not withdrawn); a
    /// connection closing because the client shut its side has none.
    func hasQueuedBye(_ conn: Connection) -> Bool {
        conn.closeAfterFlush && conn.bye != nil && (conn.turnEpoch != turnEpoch || conn.closingAtTurnMark)
    }

    /// The turn could not be committed (its changes were rolled back):
    /// every line queued since the last commit is withdrawn, each command of
    /// the turn is answered `ERR store-failed` instead, and a connection
    /// closed during the turn gets its BYE again after them. Returns the
    /// connections whose lines were withdrawn.
    func discardTurn() -> Set<ConnectionID> {
        var failed: [UInt8] = []
        ServerLine.error(.storeFailed, Lobby.storeFailedText).appendWire(to: &failed)
        var withdrawn: Set<ConnectionID> = []
        for conn in withdrawTurn() {
            withdrawn.insert(conn.id)
            guard conn.dropReason == nil else { continue }
            for _ in 0..<conn.turnCommands { conn.output.append(contentsOf: failed) }
            if conn.closeAfterFlush && !conn.closingAtTurnMark, let bye = conn.bye { conn.output.append(bye) }
            markDirty(conn)
        }
        committed()
        return withdrawn
    }
}

extension Connection {
    /// `read(2)` of the protocol's bytes: through its WebSocket once upgraded, and its TLS session if it has one.
    func receive(_ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        if let web, web.phase == .socket { return web.receive(buffer, count, raw: rawReceive) }
        return rawReceive(buffer, count)
    }

    /// `send(2)` of the protocol's bytes: through its WebSocket once upgraded, and its TLS session if it has one.
    func transmit(_ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        if let web, web.phase == .socket { return web.transmit(buffer, count, raw: rawTransmit) }
        return rawTransmit(buffer, count)
    }

    /// `read(2)` of the socket's bytes, through its TLS session if it has one.
    func rawReceive(_ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        guard let tls else { return Glibc.read(fd, buffer, count) }
        return tls.read(buffer, count)
    }

    /// `send(2)` of the socket's bytes, through its TLS session if it has one.
    func rawTransmit(_ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        guard let tls else { return ghost_send(fd, buffer, UInt(count)) }
        return tls.write(buffer, count)
    }
}
