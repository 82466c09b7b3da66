import GhostWire
import GhostProtocol

/// Everything that happens to the client: the core's input.
public enum ClientEvent: Equatable, Sendable {
    /// A line from the server, decoded (lines the client does not know never get here).
    case server(ServerLine)
    case key(Key)
    /// Several characters that arrived in one read: a paste (a person types
    /// one key at a time).
    case paste([Key])
    /// The TCP connection is up (the greeting is still to come).
    case connected
    /// The connection failed or dropped.
    case disconnected
    /// The connection cannot be made safely (TLS: the certificate did not
    /// verify): shown, and not retried.
    case refused(String)
    /// The clock, in monotonic seconds; sent whenever the loop wakes up.
    case tick(Double)
    /// The terminal's size changed.
    case resize(width: Int, height: Int)
    /// Saving the config failed (the app reports it; the core shows it).
    case configSaveFailed(String)
}

/// What the core asks the outside world to do: its output.
public enum ClientEffect: Equatable, Sendable {
    /// Send one command (the connection writes `command.rendered` and a line end).
    case send(Command)
    /// Send a command that carries a password (the connection writes `line`
    /// and a line end). Nothing else ever sees the password.
    case sendAccount(AccountCommand)
    /// Write `state.config` to the config file.
    case saveConfig
    /// Close the connection if open, and connect again after this many seconds.
    case reconnect(after: Double)
    /// Restore the terminal and exit.
    case quit
    /// Repaint the whole screen, not only what changed (Ctrl-L: the
    /// terminal may show what another program wrote over it).
    case redraw
}
