import Foundation

/// Issue #47's attackers, between people:
/// - chatters: players in games (pairs by `NEW` / `JOIN <code>`, or against
///   `NEW bot=easy`) that write `SAY` lines flat out, as much as the socket
///   takes: the same text three times running (a repeat costs 10×), text
///   full of format characters (bidi overrides, zero-width characters),
///   200-character lines, one too long, and plain lines;
/// - inviters: `INVITE <victim>`, `LEAVE`, again, one in flight each, at one
///   connected name, the victim, which DECLINEs every invitation it hears of;
/// - stars: registered names (`Fixture.buildSocial`) with thousands of
///   followers that log in, FOLLOW one name after another (past
///   `--max-follows`: `ERR too-many-follows`), ask `FOLLOWING` every fourth
///   command, and after `starSession` commands QUIT and log in again: their
///   followers online hear `ONLINE` and `OFFLINE`;
/// - fans: followers of the stars, logged in, reading what comes;
/// - listers: registered names that follow 400 names (the fixture's heavy
///   followers, `s<stars>` …) looping `FOLLOWING`, one in flight each.
extension AttackBench.Settings {
    public var socialAttackers: Int { chatters + inviters + stars + fans + listers }
}

extension AttackLoop {
    /// What a chatter writes, over and over (16 KiB of it): a repeat three
    /// times running, format characters, plain lines, 200 characters, 201.
    static let sayChunk: [UInt8] = {
        let long = String(repeating: "abcdefghij", count: 20)
        let lines = [
            "SAY the same words again",
            "SAY the same words again",
            "SAY the same words again",
            "SAY \u{202E}desrever\u{202C} zero\u{200B}width \u{2066}isolate\u{2069} \u{FEFF}bom \u{200D}joiner \u{00AD}soft",
            "SAY hello there, how are you?",
            "SAY " + long,
            "SAY " + long + "k",
            "SAY \u{200B}\u{200B}\u{202E}",
            "SAY good game, well played",
        ]
        var out: [UInt8] = []
        var k = 0
        while out.count < 16 * 1024 {
            out += Array((lines[k % lines.count] + "\r\n").utf8)
            k += 1
        }
        return out
    }()

    /// Whether a line holds a control character (C0, DEL, C1) or a format
    /// character chat drops (GhostProtocol's `ChatText.isDropped`).
    static func tainted(_ line: ArraySlice<UInt8>) -> Bool {
        if line.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return true }
        guard line.contains(where: { $0 >= 0x80 }) else { return false }
        for s in String(decoding: line, as: UTF8.self).unicodeScalars {
            let v = s.value
            if (0x80...0x9F).contains(v) || v == 0xAD || (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2060...0x206F).contains(v) || v == 0xFEFF || (0xFFF9...0xFFFB).contains(v) || v == 0x061C || v == 0x180E {
                return true
            }
        }
        return false
    }

    /// The value of `key=` in a line (nil if none).
    static func field(_ key: String, in line: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: line, as: UTF8.self)
        for word in text.split(separator: " ") where word.hasPrefix(key + "=") {
            return String(word.dropFirst(key.count + 1))
        }
        return nil
    }

    /// After a pause (`retryAt`): what an attacker between people does again.
    func again(_ a: Attacker) {
        switch a.kind {
        case .chatter where !a.named, .inviter where !a.named, .victim where !a.named: send(a, "NAME \(a.name)\r\n")
        case .chatter: if !a.inGame { send(a, "NEW bot=easy\r\n") }
        case .inviter: send(a, "INVITE \(victimName)\r\n")
        case .star, .fan, .lister: if !a.named { send(a, "NAME \(a.name) \(Fixture.socialPassword)\r\n") }
        default: break
        }
    }

    func between(_ a: Attacker, _ line: ArraySlice<UInt8>, isReply: Bool) {
        let named = line.starts(with: "OK NAME ".utf8)
        if named { a.named = true }
        if !a.named && line.starts(with: "ERR ".utf8) && (a.kind == .chatter || a.kind == .inviter || a.kind == .victim) {
            // The name refused (taken, too many new names): again in a moment.
            a.retryAt = now() + 0.2
            return
        }
        switch a.kind {
        case .chatter:
            if named {
                if let p = a.partner, !a.hosts {
                    // The guest: the host's code if it has one (else the host sends it).
                    if let code = attackers[p].code, attackers[p].fd >= 0 { send(a, "JOIN \(code)\r\n") }
                } else {
                    send(a, a.partner == nil ? "NEW bot=easy\r\n" : "NEW\r\n")
                }
            } else if line.starts(with: "OK NEW code=".utf8), let code = Self.field("code", in: line) {
                a.code = code
                if let p = a.partner {
                    let guest = attackers[p]
                    if guest.fd >= 0 && guest.named && !guest.inGame {
                        send(guest, "JOIN \(code)\r\n")
                        flush(guest)
                    }
                }
            } else if line.starts(with: "GAME ".utf8) {
                a.inGame = true
            } else if line.starts(with: "OVER ".utf8) {
                update(a) { $0.gamesOver += 1 }
                a.inGame = false
                a.partner = nil
                a.retryAt = now() + 0.2
            } else if line.starts(with: "ERR ".utf8) && !a.inGame {
                // A JOIN or NEW refused (the host went): play the computer in a moment.
                a.partner = nil
                a.retryAt = now() + 0.2
            }
        case .inviter:
            if named || line.starts(with: "OK LEAVE".utf8) {
                send(a, "INVITE \(victimName)\r\n")
            } else if line.starts(with: "OK INVITE".utf8) {
                send(a, "LEAVE\r\n")
            } else if line.starts(with: "ERR ".utf8) {
                // Refused (too-many-invites, unavailable) or a LEAVE after a DECLINE: again at once.
                send(a, "INVITE \(victimName)\r\n")
            }
        case .victim:
            if line.starts(with: "INVITE from=".utf8), let code = Self.field("code", in: line) {
                send(a, "DECLINE \(code)\r\n")
            }
        case .star where !a.named && line.starts(with: "ERR ".utf8), .fan where !a.named && line.starts(with: "ERR ".utf8),
             .lister where !a.named && line.starts(with: "ERR ".utf8):
            // A login refused (ERR server-busy: the hashing threads' queue is
            // full while hundreds log in at once): again in a moment, as a client would.
            a.retryAt = now() + 0.2
        case .star:
            guard isReply, a.named else { break }
            a.commands += 1
            if a.commands > settings.starSession {
                send(a, "QUIT\r\n")
            } else if a.commands % 4 == 0 {
                send(a, "FOLLOWING\r\n")
            } else {
                if Fixture.socialName(a.followNext) == a.name { a.followNext += 1 }
                send(a, "FOLLOW \(Fixture.socialName(a.followNext % max(1, settings.socialNames)))\r\n")
                a.followNext = (a.followNext + 1) % max(1, settings.socialNames)
            }
        case .lister:
            if isReply && a.named { send(a, "FOLLOWING\r\n") }
        case .fan:
            break
        default:
            break
        }
    }
}
