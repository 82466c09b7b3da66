import GameKit

/// The lines between people, apart from the games' (Protocol.md §3 and §4,
/// "Friends, invitations, chat and blocking"): FOLLOWING's and BLOCKS'
/// data lines, presence, invitations and chat.
public enum SocialLine: Sendable, Hashable {
    /// A data line of FOLLOWING: `FRIEND name=<n> online=yes|no
    /// [playing=<game id>] [seen=<unix seconds>]`.
    case friend(name: String, online: Bool, playing: Int?, seen: Int?)
    /// A data line of BLOCKS: `BLOCKED name=<n>`.
    case blocked(name: String)
    /// A followed name came online (`ONLINE name=`) or left (`OFFLINE name=`).
    case online(name: String)
    case offline(name: String)
    /// To an invitee: `INVITE from=<n> code=<c>` and the game as it will
    /// be (`game= lang=`, the kind's setup fields, `rounds=ghost`,
    /// `clock=`, `rated=`), JOIN's or DECLINE's to answer.
    case invite(from: String, code: String, fields: [Field])
    /// To an invitee: the invitation no longer stands (`WITHDRAWN from= code=`).
    case withdrawn(from: String, code: String)
    /// To an inviter: `DECLINED name=<invitee> code=<c>`; they are no longer hosting.
    case declined(name: String, code: String)
    /// Chat: `SAID id=<game> player=<n> [watcher=yes] - <text>`.
    case said(id: Int, player: String, watcher: Bool, text: String)

    func write<S: WireSink>(to out: inout S) {
        switch self {
        case let .friend(name, online, playing, seen):
            W.keyword("FRIEND", &out)
            W.field("name", name, &out)
            W.field("online", online ? "yes" : "no", &out)
            if let playing { W.field("playing", playing, &out) }
            if let seen { W.field("seen", seen, &out) }
        case let .blocked(name):
            W.keyword("BLOCKED", &out)
            W.field("name", name, &out)
        case let .online(name):
            W.keyword("ONLINE", &out)
            W.field("name", name, &out)
        case let .offline(name):
            W.keyword("OFFLINE", &out)
            W.field("name", name, &out)
        case let .invite(from, code, fields):
            W.keyword("INVITE", &out)
            W.field("from", from, &out)
            W.field("code", code, &out)
            W.fields(fields, &out)
        case let .withdrawn(from, code):
            W.keyword("WITHDRAWN", &out)
            W.field("from", from, &out)
            W.field("code", code, &out)
        case let .declined(name, code):
            W.keyword("DECLINED", &out)
            W.field("name", name, &out)
            W.field("code", code, &out)
        case let .said(id, player, watcher, text):
            W.keyword("SAID", &out)
            W.field("id", id, &out)
            W.field("player", player, &out)
            if watcher { W.field("watcher", "yes", &out) }
            W.text("- " + text, &out)
        }
    }

    /// The keywords read here (`DECLINED` only with `code=`: the offer's has `id=`).
    static let keywords: Set<Substring> = ["FRIEND", "BLOCKED", "ONLINE", "OFFLINE", "INVITE", "WITHDRAWN", "SAID"]

    /// A line back, from its keyword and the (control-free) line; nil when
    /// a field it needs is missing.
    init?(keyword: Substring, line: String) {
        if keyword == "SAID" {
            let parts = line.firstRange(of: " - ").map { (line[..<$0.lowerBound], String(line[$0.upperBound...])) } ?? (line[...], "")
            let f = Decode.fields(parts.0.split(separator: " ").dropFirst())
            guard let id = Decode.int(f["id"]), let player = f["player"] else { return nil }
            self = .said(id: id, player: player, watcher: f["watcher"] == "yes", text: Decode.text(parts.1.split(separator: " ")[...]))
            return
        }
        let f = Decode.fields(line.split(separator: " ").dropFirst())
        switch keyword {
        case "FRIEND":
            guard let name = f["name"], let online = f["online"] else { return nil }
            self = .friend(name: name, online: online == "yes", playing: Decode.int(f["playing"]), seen: Decode.int(f["seen"]))
        case "BLOCKED":
            guard let name = f["name"] else { return nil }
            self = .blocked(name: name)
        case "ONLINE", "OFFLINE":
            guard let name = f["name"] else { return nil }
            self = keyword == "ONLINE" ? .online(name: name) : .offline(name: name)
        case "INVITE":
            guard let from = f["from"], let code = f["code"] else { return nil }
            self = .invite(from: from, code: code, fields: f.filter { $0.key != "from" && $0.key != "code" })
        case "WITHDRAWN":
            guard let from = f["from"], let code = f["code"] else { return nil }
            self = .withdrawn(from: from, code: code)
        case "DECLINED":
            guard let name = f["name"], let code = f["code"] else { return nil }
            self = .declined(name: name, code: code)
        default:
            return nil
        }
    }
}
