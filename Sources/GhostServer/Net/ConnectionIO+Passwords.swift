import GhostProtocol

/// The connections' side of the hashing pool (Net/HashPool.swift): when
/// the pool's eventfd fires (Server.startHashing), the lobby answers the
/// finished jobs, and each connection that waited for one has its waiting
/// lines served (its lines are not served, nor its socket read, while it
/// waits: `serve`, `setInterest`).
extension ConnectionIO {
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
            if !conn.isPlain { noteBuffered(conn) }
        }
    }

    /// Called by `serve` when the connection waits for a password: its
    /// lines wait, and its socket is not read, until the answer.
    func waitForPassword(_ conn: Connection) {
        waitingForPassword[conn.id] = conn
        setInterest(conn)
    }
}
