import Glibc

/// The daemon's side of the operator's requests (OperatorRequests.swift):
/// at SIGUSR1 the loop takes the requests in `<data>/operator/`, the lobby
/// applies each (`Lobby.applyOperatorRequest`) within the turn, and each
/// reply is written only once the turn's commit is done, and on disk with a
/// syncer: "ok" means stored. Every file there is untrusted input: a
/// request is at most `OperatorRequest.maxBytes`, a regular file, one line
/// of a known form, else it is answered `error:` and the daemon goes on.
final class OperatorInbox {
    let folder: String
    private let log: (String) -> Void
    /// A SIGUSR1 came, or requests were left at the last taking: take them this turn.
    private(set) var due = false
    /// This turn's answers (`stored`: the action wrote, its reply waits for the commit).
    private var turn: [(id: String, text: String, stored: Bool)] = []
    /// Answers waiting for their commit to be on disk.
    private var waiting: [(id: String, text: String, generation: UInt64)] = []

    /// Nothing to do at the end of a turn.
    var isIdle: Bool { turn.isEmpty && waiting.isEmpty }

    init(folder: String, log: @escaping (String) -> Void) {
        self.folder = folder
        self.log = log
    }

    /// At the start, once SIGUSR1 reaches the loop: the mailbox, the
    /// daemon's user's own (0700), and in it `ready` with this PID, which a
    /// command checks against the pidfile before it signals (a ghostd older
    /// than this one would be ended by SIGUSR1, and a command holding the
    /// folder would never answer).
    func prepare() {
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            return log("cannot make \(folder): \(String(cString: strerror(errno))); ghostd accounts cannot reach this daemon")
        }
        if let failure = OperatorRequest.writeAtomically("\(getpid())\n", folder: folder, temporary: ".ready.tmp", final: OperatorRequest.readyName) {
            log("\(failure); ghostd accounts cannot reach this daemon")
        }
    }

    /// SIGUSR1.
    func signalled() { due = true }

    /// Takes the waiting requests, oldest name first, at most
    /// `OperatorRequest.maxPerSignal` (the rest at the next turn), and applies each.
    func take(_ apply: (OperatorAction) -> Result<String, OperatorRefusal>) {
        due = false
        guard let dir = opendir(folder) else {
            log("cannot read \(folder): \(String(cString: strerror(errno)))")
            return
        }
        var ids: [String] = [], leftovers: [String] = []
        var entries = 0
        while let entry = readdir(dir), entries < 10_000 {
            entries += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".request"), OperatorRequest.isValidID(name.dropLast(".request".count)) {
                ids.append(String(name.dropLast(".request".count)))
            } else if name.hasSuffix(".reply") || name.hasSuffix(".taken") || name.hasSuffix(".tmp") || name.hasSuffix(".request") {
                leftovers.append(name)
            }
        }
        closedir(dir)
        removeOld(leftovers.prefix(100))
        ids.sort()
        if ids.count > OperatorRequest.maxPerSignal { due = true }
        for id in ids.prefix(OperatorRequest.maxPerSignal) {
            let taken = folder + "/." + id + ".taken"
            // Taken by renaming: a command that gives up and removes its request then knows it was taken.
            guard rename(folder + "/" + id + ".request", taken) == 0 else { continue }
            var info = stat()
            if lstat(taken, &info) == 0, info.st_mtim.tv_sec < time(nil) - OperatorRequest.maxAge {
                // Its command gave up long ago (killed while it waited): nobody expects it done now.
                turn.append((id, "error: request \(id) refused: it is older than \(OperatorRequest.maxAge) s, and its command gave up", false))
                log("operator request \(id): \(turn.last?.text ?? "")")
                continue
            }
            let action = OperatorRequest.readSmallFile(taken, limit: OperatorRequest.maxBytes)
                .flatMap { OperatorRequest.parse($0) }
            switch action {
            case .failure(let why):
                turn.append((id, "error: request \(id) refused: \(why)", false))
            case .success(let action):
                switch apply(action) {
                case .success(let text): turn.append((id, "ok: " + text, true))
                case .failure(let why): turn.append((id, "error: \(why)", false))
                }
            }
            log("operator request \(id): \(turn.last?.text ?? "")")
        }
    }

    /// The turn is committed (`lost`: rolled back instead) as `generation`;
    /// commits up to `durable` are on disk: the replies they cover are written.
    func committed(lost: Bool, generation: UInt64, durable: UInt64) {
        for answer in turn {
            if answer.stored && lost {
                waiting.append((answer.id, "error: the daemon could not commit it; nothing changed", 0))
            } else {
                waiting.append((answer.id, answer.text, answer.stored ? generation : 0))
            }
        }
        turn.removeAll()
        var kept: [(id: String, text: String, generation: UInt64)] = []
        for answer in waiting {
            if answer.generation > durable {
                kept.append(answer)
                continue
            }
            if let failure = OperatorRequest.writeAtomically(answer.text + "\n", folder: folder,
                                                             temporary: "." + answer.id + ".reply.tmp", final: answer.id + ".reply") {
                log("operator request \(answer.id): \(failure)")
            }
            unlink(folder + "/." + answer.id + ".taken")
        }
        waiting = kept
    }

    /// Leftovers an hour old: replies nobody read (their command gave up),
    /// requests taken by a daemon that stopped before answering, temporary
    /// files, requests under a name no command makes.
    private func removeOld(_ names: ArraySlice<String>) {
        let hourAgo = time(nil) - 3600
        for name in names {
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, info.st_mtim.tv_sec < hourAgo { unlink(path) }
        }
    }
}
