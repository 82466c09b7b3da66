import CGhostSys
import GhostProtocol

/// The loop's side of the hashing pool (Net/HashPool.swift): the
/// pool's eventfd is in the epoll set; when it fires, the lobby answers the
/// finished jobs, and each connection that waited for one has its waiting
/// lines served (its lines are not served, nor its socket read, while it
/// waits: `serve`, `setInterest`).
extension Server {
    /// The epoll data of the pool's eventfd (connections count up from 3).
    static let hashEventData = UInt64.max - 1

    /// Starts the pool and puts its eventfd in the epoll set.
    func startHashing() throws {
        guard let pool = HashPool(threads: config.hashThreads, capacity: config.hashQueue) else {
            throw StartError.system("cannot start the password hashing threads: \(errnoText())")
        }
        guard ghost_epoll_add(epfd, pool.eventFD, UInt32(GHOST_EPOLLIN), Server.hashEventData) == 0 else {
            pool.stop()
            throw StartError.system("epoll_ctl: \(errnoText())")
        }
        hashPool = pool
        lobby.passwordChecker = pool
    }

    /// The pool woke the loop: answer its finished jobs, then serve the
    /// lines of each connection that no longer waits.
    func passwordsChecked() {
        lobby.passwordsChecked()
        guard !waitingForPassword.isEmpty else { return }
        for (id, conn) in waitingForPassword where !lobby.isWaitingForPassword(id) {
            waitingForPassword[id] = nil
            guard table[id] === conn, conn.dropReason == nil else { continue }
            // The answer is its command's reply: a lost turn answers it ERR store-failed.
            table.countCommand(conn)
            if !conn.identified, lobby.isIdentified(id) { identified(conn) }
            if conn.heldUntil == nil { serve(conn) }
            if conn.heldUntil == nil { setInterest(conn) }
            // TLS input OpenSSL read ahead while the connection waited.
            if conn.tls != nil { noteBuffered(conn) }
        }
    }

    /// Called by `serve` when the connection waits for a password: its
    /// lines wait, and its socket is not read, until the answer.
    func waitForPassword(_ conn: Connection) {
        waitingForPassword[conn.id] = conn
        setInterest(conn)
    }
}
