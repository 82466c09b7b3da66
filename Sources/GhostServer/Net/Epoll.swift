/// The loop's epoll set, shared by every type that puts a descriptor in it
/// (the acceptor, the connections' I/O, the TLS port, the syncer, the
/// password threads). Opened by `Server.start` and closed when the loop
/// stops, after the types have been built: they hold this, not the number.
final class Epoll {
    var fd: Int32 = -1
}
