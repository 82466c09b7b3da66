import CGhostSys
import Foundation
import WordLists

/// The attackers of `AttackBench`, on one epoll loop: lookups and floods,
/// or on the web port web floods (floods over a WebSocket) and slowloris.
final class AttackLoop {
    enum Kind { case lookup, flood, wsFlood, slowloris, chatter, inviter, victim, star, fan, lister }

    final class Attacker {
        let index: Int
        let kind: Kind
        let source: String?
        var fd: Int32 = -1
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        var wantsWrite = false
        var byeSeen = false
        /// Got a reply or a BYE during the phase.
        var served = false
        /// When to connect again (after an end) or to ask for a new game (after a refusal).
        var retryAt = Double.infinity
        // lookups
        var step = 0
        // floods
        let name: String
        var guesses = 0
        var letterPending = false
        var restartPending = false
        var inGame = false
        /// Bytes of blank lines it may write now, when they are paced.
        var credit = 0.0
        // web floods: lines wait until the upgrade is answered
        var upgraded = false
        var waiting = ""
        // slowloris: bytes of its endless head sent, and when the next is due
        var headSent = 0
        var nextByteAt = Double.infinity
        // between people (AttackLoop+Social.swift)
        /// A chatter's partner (the attacker index), nil against the computer; the host opens, the other joins.
        var partner: Int?
        var hosts = false
        /// The host's join code, once `OK NEW` gave it.
        var code: String?
        var named = false
        /// A star's commands since it logged in, and the next name it FOLLOWs.
        var commands = 0
        var followNext = 0
        var isWeb: Bool { kind == .wsFlood || kind == .slowloris }
        var floods: Bool { kind == .flood || kind == .wsFlood }
        init(index: Int, kind: Kind, source: String?, name: String) {
            self.index = index
            self.kind = kind
            self.source = source
            self.name = name
        }
    }

    let settings: AttackBench.Settings
    var attackers: [Attacker] = []
    var lookups = AttackBench.ClassResult()
    var floods = AttackBench.ClassResult()
    var wsFloods = AttackBench.ClassResult()
    var slowloris = AttackBench.ClassResult()
    var social: [String: AttackBench.ClassResult] = [:]
    /// The invitation flood's target.
    let victimName: String
    var epfd: Int32 = -1
    var rng = SystemRandomNumberGenerator()
    var masks = SplitMix64(seed: UInt64(getpid()))
    nonisolated(unsafe) static var phases = 0
    static let blanks = [UInt8](repeating: 0x0A, count: 16 * 1024)
    /// Empty text messages (masked, 6 bytes each): a WebSocket's blank lines.
    static let blankFrames: [UInt8] = {
        var out: [UInt8] = []
        var masks = SplitMix64(seed: 46)
        while out.count + 6 <= 16 * 1024 { WebSocket.appendFrame(EmptyCollection<UInt8>(), mask: UInt32(truncatingIfNeeded: masks.next()), to: &out) }
        return out
    }()
    /// Dutch letters by how many words hold them: the guessing order.
    static let guessOrder = Array("enairtoslgdkmuvbhpjwzcfyxq")
    static let newGame = "NEW game=hangman mode=evil length=10\r\n"

    /// `web`: the web port's attackers (settings.wsFloods, settings.slowloris), else the plain port's.
    init(settings: AttackBench.Settings, web: Bool = false) {
        self.settings = settings
        // Names of their own in each phase: the last phase's may still be held
        // while the server lets its connections go (ERR name-taken).
        Self.phases += 1
        let tag = "\(getpid() % 100_000)p\(Self.phases % 1000)"
        victimName = "v\(tag)"
        let counts: [(Kind, Int)] = web
            ? [(.wsFlood, settings.wsFloods), (.slowloris, settings.slowloris)]
            : [(.lookup, settings.lookups), (.flood, settings.floods), (.chatter, settings.chatters), (.inviter, settings.inviters),
               (.victim, settings.inviters > 0 ? 1 : 0), (.star, settings.stars), (.fan, settings.fans), (.lister, settings.listers)]
        let kinds: [Kind] = counts.flatMap { Array(repeating: $0.0, count: $0.1) }
        var chatters = 0, stars = 0, fans = 0, listers = 0
        for (i, kind) in kinds.enumerated() {
            let source = web ? Sockets.webAttackerAddress(i, of: settings.addresses)
                : settings.addresses <= 1 ? nil : Sockets.attackerAddress(i, of: settings.addresses)
            let name: String
            switch kind {
            case .chatter: name = "c\(i)x\(tag)"
            case .inviter: name = "i\(i)x\(tag)"
            case .victim: name = victimName
            case .star: name = Fixture.socialName(stars); stars += 1
            case .fan: name = Fixture.socialName(settings.stars + fans); fans += 1
            case .lister: name = Fixture.socialName(settings.stars + listers); listers += 1
            default: name = (kind == .wsFlood ? "w" : "f") + "\(i)x\(tag)"
            }
            let a = Attacker(index: i, kind: kind, source: source, name: name)
            if kind == .chatter {
                // Pairs: 0 hosts 1, 2 hosts 3 …; the last of an odd number plays the computer.
                let k = chatters
                chatters += 1
                if !settings.chatBot && (k % 2 == 1 || k + 1 < settings.chatters) {
                    a.partner = k % 2 == 0 ? i + 1 : i - 1
                    a.hosts = k % 2 == 0
                }
            }
            if kind == .star { a.followNext = (stars * 997) % max(1, settings.socialNames) }
            attackers.append(a)
        }
    }

    func update(_ a: Attacker, _ change: (inout AttackBench.ClassResult) -> Void) {
        switch a.kind {
        case .lookup: change(&lookups)
        case .flood: change(&floods)
        case .wsFlood: change(&wsFloods)
        case .slowloris: change(&slowloris)
        case .chatter: change(&social["chatters", default: .init()])
        case .inviter: change(&social["inviters", default: .init()])
        case .victim: change(&social["victim", default: .init()])
        case .star: change(&social["stars", default: .init()])
        case .fan: change(&social["fans", default: .init()])
        case .lister: change(&social["listers", default: .init()])
        }
    }

    func run(until end: Double) throws {
        epfd = ghost_epoll_create()
        defer {
            for a in attackers {
                if !a.served && a.kind != .slowloris { update(a) { $0.silent += 1 } }
                guard a.fd >= 0 else { continue }
                update(a) { $0.ends["open", default: 0] += 1 }
                close(a.fd)
            }
            close(epfd)
        }
        for a in attackers { connect(a) }
        var datas = [UInt64](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var lastTick = now()
        while true {
            let t = now()
            if t >= end { break }
            if settings.blankBytesPerSecond > 0 {
                // Paced floods: each earns its share of blank lines, up to a second's worth.
                let rate = settings.blankBytesPerSecond
                for a in attackers where a.floods && a.fd >= 0 {
                    a.credit = min(rate, a.credit + rate * (t - lastTick))
                    flush(a)
                }
                lastTick = t
            }
            for a in attackers where a.retryAt <= t {
                a.retryAt = .infinity
                if a.fd < 0 { connect(a) } else if a.floods { send(a, Self.newGame); flush(a) } else { again(a); flush(a) }
            }
            for a in attackers where a.kind == .slowloris && a.fd >= 0 && a.nextByteAt <= t {
                slowByte(a)
                a.nextByteAt = max(a.nextByteAt + settings.slowlorisInterval, t)
            }
            let n = ghost_epoll_wait(epfd, &datas, &events, 256, Int32(max(1, min(20, (end - t) * 1000))))
            if n < 0 { continue }
            for k in 0..<Int(n) {
                let a = attackers[Int(datas[k])]
                guard a.fd >= 0 else { continue }
                if events[k] & UInt32(GHOST_EPOLLOUT) != 0 { flush(a) }
                guard a.fd >= 0, events[k] & UInt32(GHOST_EPOLLIN | GHOST_EPOLLHUP | GHOST_EPOLLERR) != 0 else { continue }
                let got = buffer.withUnsafeMutableBytes { read(a.fd, $0.baseAddress, $0.count) }
                if got < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if got <= 0 {
                    ended(a)
                    continue
                }
                a.inbox.append(contentsOf: buffer[0..<got])
                if a.isWeb {
                    received(a)
                    continue
                }
                var start = 0
                while let nl = a.inbox[start...].firstIndex(of: 0x0A) {
                    var stop = nl
                    if stop > start && a.inbox[stop - 1] == 0x0D { stop -= 1 }
                    handle(a, a.inbox[start..<stop])
                    start = nl + 1
                }
                a.inbox.removeFirst(start)
                if a.fd >= 0 { flush(a) }
            }
        }
    }

    func connect(_ a: Attacker) {
        let fd = Sockets.connect(host: settings.host, port: a.isWeb ? settings.webPort : settings.port, source: a.source)
        guard fd >= 0 else {
            update(a) { $0.connectFailures += 1 }
            a.retryAt = now() + settings.reconnectDelay
            return
        }
        a.fd = fd
        a.inbox.removeAll()
        a.outbox.removeAll()
        a.wantsWrite = false
        a.byeSeen = false
        a.step = 0
        a.guesses = 0
        a.letterPending = false
        a.restartPending = false
        a.inGame = false
        a.upgraded = false
        a.waiting = ""
        a.headSent = 0
        a.code = nil
        a.named = false
        a.commands = 0
        update(a) { $0.connections += 1 }
        _ = ghost_epoll_add(epfd, fd, UInt32(GHOST_EPOLLIN), UInt64(a.index))
        switch a.kind {
        case .lookup: nextLookup(a)
        case .flood: send(a, "NAME \(a.name)\r\nLANG nl\r\n" + Self.newGame)
        case .wsFlood:
            a.outbox = WebSocket.upgradeRequest(host: settings.host, port: settings.webPort)
            send(a, "NAME \(a.name)\r\nLANG nl\r\n" + Self.newGame)
        case .slowloris:
            a.nextByteAt = now()
        case .chatter, .inviter, .victim:
            send(a, "NAME \(a.name)\r\n")
        case .star, .fan, .lister:
            send(a, "NAME \(a.name) \(Fixture.socialPassword)\r\n")
        }
        flush(a)
    }

    /// What a web attacker read: the upgrade's answer (or a refusal), then frames.
    func received(_ a: Attacker) {
        if !a.upgraded {
            guard let head = WebSocket.responseHead(a.inbox) else { return }
            guard a.kind == .wsFlood, head.status == 101 else {
                // A refusal (or the slowloris's answer): counted as its end; the server closes.
                if !a.byeSeen {
                    a.byeSeen = true
                    a.served = true
                    update(a) { $0.ends["HTTP \(head.status)", default: 0] += 1 }
                }
                a.inbox.removeAll()
                return
            }
            a.upgraded = true
            a.inbox.removeFirst(head.length)
            a.outbox += WebSocket.frames(ofLines: a.waiting, masks: &masks)
            a.waiting = ""
        }
        var box = a.inbox
        a.inbox = []
        WebSocket.takeFrames(&box) { event in
            switch event {
            case .line(let line): handle(a, line)
            case .close(let code):
                if !a.byeSeen {
                    a.byeSeen = true
                    update(a) { $0.ends["close \(code)", default: 0] += 1 }
                }
            case .other: break
            }
        }
        a.inbox = box
        if a.fd >= 0 { flush(a) }
    }

    /// The next byte of a slowloris's head, which never ends: the request
    /// line, a Host field, then one more field after another.
    func slowByte(_ a: Attacker) {
        let start = Array("GET /ws HTTP/1.1\r\nHost: \(settings.host):\(settings.webPort)\r\n".utf8)
        let field = Array("X-Slow: 0123456789abcdef\r\n".utf8)
        let k = a.headSent
        let byte = k < start.count ? start[k] : field[(k - start.count) % field.count]
        var one = byte
        if ghost_send(a.fd, &one, 1) == 1 {
            a.headSent += 1
            slowloris.blankBytes += 1
        }
    }

    /// The connection ended: a BYE was read (and counted) or it was closed.
    func ended(_ a: Attacker) {
        if !a.byeSeen { update(a) { $0.ends["closed", default: 0] += 1 } }
        _ = ghost_epoll_remove(epfd, a.fd)
        close(a.fd)
        a.fd = -1
        a.retryAt = now() + settings.reconnectDelay
    }

    func nextLookup(_ a: Attacker) {
        switch a.step % 3 {
        case 0: send(a, "GAMES 100\r\n")
        case 1: send(a, "NAMES 100\r\n")
        default:
            let hi = rng.next() as UInt64, lo = rng.next() as UInt64
            send(a, "RESUME " + Fixture.hex16(hi) + Fixture.hex16(lo) + "\r\n")
        }
        a.step += 1
    }

    static func firstWords(_ line: ArraySlice<UInt8>, _ count: Int) -> String {
        var words = 0
        let cut = line.prefix { b in
            if b == 0x20 { words += 1 }
            return words < count
        }
        return String(decoding: cut, as: UTF8.self)
    }

    func handle(_ a: Attacker, _ line: ArraySlice<UInt8>) {
        if line.starts(with: "BYE ".utf8) {
            a.byeSeen = true
            a.served = true
            update(a) { $0.ends[Self.firstWords(line, 2), default: 0] += 1 }
            return
        }
        let isReply = line.starts(with: "OK ".utf8) || line.starts(with: "ERR ".utf8)
        if isReply {
            a.served = true
            update(a) { $0.replies[Self.firstWords(line, 2), default: 0] += 1 }
        } else {
            update(a) { $0.lines[Self.firstWords(line, 1), default: 0] += 1 }
        }
        switch a.kind {
        case .lookup:
            if isReply { nextLookup(a) }
        case .flood, .wsFlood:
            flood(a, line, isReply: isReply)
        case .slowloris:
            break
        case .chatter, .inviter, .victim, .star, .fan, .lister:
            if Self.tainted(line) {
                update(a) {
                    $0.tainted += 1
                    if $0.taintedSample.isEmpty { $0.taintedSample = String(decoding: line, as: UTF8.self) }
                }
            }
            between(a, line, isReply: isReply)
        }
    }

    func flood(_ a: Attacker, _ line: ArraySlice<UInt8>, isReply: Bool) {
        if line.starts(with: "OK LETTER".utf8) {
            a.letterPending = false
        } else if line.starts(with: "ERR ".utf8) {
            a.letterPending = false
            if a.restartPending || !a.inGame {
                // RESTART refused, or no game (NEW refused): leave, and a new game in a moment.
                a.restartPending = false
                if a.inGame { send(a, "LEAVE\r\n") }
                a.inGame = false
                a.retryAt = now() + 0.2
            }
        } else if line.starts(with: "GAME ".utf8) {
            a.inGame = true
            a.guesses = 0
            a.restartPending = false
        } else if line.starts(with: "OFFER ".utf8) {
            send(a, "ACCEPT\r\n")
        } else if line.starts(with: "OVER ".utf8) {
            update(a) { $0.gamesOver += 1 }
            a.inGame = false
            a.letterPending = false
            a.restartPending = false
            send(a, Self.newGame)
        } else if line.starts(with: "TURN ".utf8), !a.letterPending, !a.restartPending,
                  Self.player(in: line).elementsEqual(a.name.utf8) {
            if a.guesses >= 5 {
                a.restartPending = true
                send(a, "RESTART\r\n")
            } else {
                let letter = Self.guessOrder[a.guesses % Self.guessOrder.count]
                a.guesses += 1
                a.letterPending = true
                send(a, "LETTER \(letter)\r\n")
            }
        }
    }

    /// The value of ` player=` in a line (empty if none).
    static func player(in line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let key = Array(" player=".utf8)
        var i = line.startIndex
        while i + key.count <= line.endIndex {
            if line[i..<(i + key.count)].elementsEqual(key) {
                let from = i + key.count
                return line[from..<(line[from...].firstIndex(of: 0x20) ?? line.endIndex)]
            }
            i += 1
        }
        return line[line.endIndex...]
    }

    /// Queues lines (each ending in CR LF): as they are, or over a WebSocket
    /// one text message each (held until the upgrade is answered).
    func send(_ a: Attacker, _ text: String) {
        if a.kind == .wsFlood {
            if a.upgraded { a.outbox += WebSocket.frames(ofLines: text, masks: &masks) } else { a.waiting += text }
        } else {
            a.outbox.append(contentsOf: text.utf8)
        }
    }

    /// Writes what waits, and for a flood as many blank lines as the socket takes.
    func flush(_ a: Attacker) {
        guard a.fd >= 0 else { return }
        // A flood writes at most four chunks a turn, so that the others get theirs.
        for _ in 0..<4 {
            let blanks = a.kind == .wsFlood ? Self.blankFrames : Self.blanks
            if a.kind == .chatter && a.inGame && a.outbox.count < 4096 {
                a.outbox += Self.sayChunk
            }
            if a.floods && a.outbox.count < 4096 && (a.kind == .flood || a.upgraded) {
                if settings.blankBytesPerSecond <= 0 {
                    a.outbox += blanks
                } else if a.credit >= 1 {
                    // Whole messages only, over a WebSocket.
                    let n = min(blanks.count, Int(a.credit) / (a.kind == .wsFlood ? 6 : 1) * (a.kind == .wsFlood ? 6 : 1))
                    a.outbox += blanks[..<n]
                    a.credit -= Double(n)
                }
            }
            guard !a.outbox.isEmpty else { break }
            let sent = a.outbox.withUnsafeBytes { ghost_send(a.fd, $0.baseAddress, UInt($0.count)) }
            guard sent > 0 else { break }
            if a.floods || (a.kind == .chatter && a.inGame) { update(a) { $0.blankBytes += sent } }
            a.outbox.removeFirst(sent)
            if !a.floods && a.kind != .chatter { break }
        }
        let wants = !a.outbox.isEmpty
        if wants != a.wantsWrite {
            a.wantsWrite = wants
            _ = ghost_epoll_modify(epfd, a.fd, UInt32(GHOST_EPOLLIN) | (wants ? UInt32(GHOST_EPOLLOUT) : 0), UInt64(a.index))
        }
    }
}
