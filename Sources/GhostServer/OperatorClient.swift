#if canImport(Glibc)
import Glibc
#endif
import GhostStore

/// The command's side of a request to a running ghostd (OperatorRequests.swift).
enum OperatorClient {
    /// Why a running daemon did not do it.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The daemon answered `error: …`.
        case refused(String)
        /// The request could not be written or the daemon signalled.
        case cannotAsk(String)
        /// The folder's holder did not say it takes requests (`ready`).
        case notTaking(pid: Int)
        /// No reply in time; `taken`: the daemon had taken the request.
        case noAnswer(pid: Int, seconds: Int, taken: Bool)

        var description: String {
            switch self {
            case .refused(let why): return why
            case .cannotAsk(let why): return "\(why); nothing changed"
            case .notTaking(let pid):
                return "the data folder is in use by pid \(pid), which does not take requests (another ghostd accounts or journal command, a ghostd still starting, or an older ghostd): try again, or restart ghostd; nothing changed"
            case let .noAnswer(pid, seconds, false):
                return "the daemon (pid \(pid)) did not answer within \(seconds) s; the request was withdrawn, nothing changed"
            case let .noAnswer(pid, seconds, true):
                return "the daemon (pid \(pid)) took the request but did not answer within \(seconds) s: see `ghostd accounts list`"
            }
        }
    }

    /// Asks the daemon `pid` serving `data` to do `action`; returns its
    /// `ok:` line (without `ok: `), or throws.
    static func send(_ action: OperatorAction, data: String, pid: Int, timeout: Double = OperatorRequest.replyTimeout) throws -> String {
        // Never signal ourselves (a test holding the folder in this process)
        // or what cannot be a daemon's PID.
        guard pid > 1, pid != Int(getpid()), let target = pid_t(exactly: pid) else {
            throw DataFolderLock.Failure.inUse(folder: data.isEmpty ? "." : data, pid: pid)
        }
        let folder = OperatorRequest.folder(in: data)
        // Only a daemon that said it takes requests is signalled: SIGUSR1 ends a ghostd older than this one.
        guard takesRequests(data: data, pid: pid) else { throw Failure.notTaking(pid: pid) }
        let requestOwner = try owner(of: folder)
        let id = OperatorRequest.newID()
        let request = id + ".request", reply = folder + "/" + id + ".reply"
        if let failure = OperatorRequest.writeAtomically(OperatorRequest.line(action) + "\n", folder: folder,
                                                         temporary: "." + id + ".tmp", final: request, owner: requestOwner) {
            throw Failure.cannotAsk(failure)
        }
        guard kill(target, SIGUSR1) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(folder + "/" + request)
            throw Failure.cannotAsk("cannot signal the daemon (pid \(pid)): \(why) (run this as the daemon's user)")
        }
        let deadline = monotonicSeconds() + timeout
        while true {
            if access(reply, F_OK) == 0 {
                let text = OperatorRequest.readSmallFile(reply, limit: 4096)
                unlink(reply)
                switch text {
                case .failure(let why): throw Failure.cannotAsk("cannot read the daemon's reply \(reply): \(why)")
                case .success(let line):
                    let answer = line.hasSuffix("\n") ? String(line.dropLast()) : line
                    if answer.hasPrefix("ok: ") { return String(answer.dropFirst(4)) }
                    if answer.hasPrefix("error: ") { throw Failure.refused(String(answer.dropFirst(7))) }
                    throw Failure.refused("the daemon answered \(answer.debugDescription)")
                }
            }
            if monotonicSeconds() >= deadline { break }
            usleep(20_000)
        }
        // Withdrawn if it is still there; if the daemon renamed it, it was taken.
        let withdrawn = unlink(folder + "/" + request) == 0
        throw Failure.noAnswer(pid: pid, seconds: Int(timeout.rounded()), taken: !withdrawn)
    }

    /// Whether the daemon `pid` said it takes requests (it wrote its PID in `operator/ready`).
    static func takesRequests(data: String, pid: Int) -> Bool {
        let ready = OperatorRequest.readSmallFile(OperatorRequest.folder(in: data) + "/" + OperatorRequest.readyName, limit: 32)
        guard case .success(let text) = ready else { return false }
        return text.split(separator: "\n").first.flatMap { Int($0) } == pid
    }

    /// The PID of the ghostd that holds `data`'s lock (`DataFolderLock`), if
    /// it takes requests; nil if none holds it (or it takes none). Makes
    /// nothing and takes no lock that a daemon could find held: a shared one
    /// for an instant, only if the pidfile is there.
    static func daemonTakingRequests(data: String) -> Int? {
        let folder = data.isEmpty ? "." : data
        let path = (folder.hasSuffix("/") ? folder : folder + "/") + DataFolderLock.fileName
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil   // nobody holds it
        }
        guard errno == EWOULDBLOCK || errno == EAGAIN,
              case .success(let text) = OperatorRequest.readSmallFile(path, limit: 32),
              let pid = text.split(separator: "\n").first.flatMap({ Int($0) }),
              takesRequests(data: data, pid: pid) else { return nil }
        return pid
    }

    /// When root writes into a daemon's mailbox (the daemon made it), its
    /// request must be the daemon's user's: that owner for root, else nil.
    private static func owner(of folder: String) throws -> (uid: uid_t, gid: gid_t)? {
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure.cannotAsk("\(folder) is not a folder")
        }
        return geteuid() == 0 ? (info.st_uid, info.st_gid) : nil
    }
}
