// Helpers for the terminal client (ghost-client): the terminal (termios raw
// mode, window size, restoring it on a crash), signals and outgoing TCP.
#ifndef CGHOSTCLIENTSYS_H
#define CGHOSTCLIENTSYS_H

/// Puts the terminal on `fd` in raw mode (no echo, no line editing, no
/// signals from keys: Ctrl-C arrives as byte 3), after saving its settings
/// for ghost_tty_restore. 0, or -1 (errno set) if fd is not a terminal.
int ghost_tty_raw(int fd);
/// Puts back the settings saved by ghost_tty_raw (idempotent; async-signal-safe).
int ghost_tty_restore(void);
/// The window size of the terminal on `fd`. 0, or -1.
int ghost_window_size(int fd, int *rows, int *cols);

/// Remembers `sequence` (at most 255 bytes), written to the terminal when the
/// process dies of a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT,
/// SIGFPE), together with restoring the saved settings; the signal is then
/// re-raised with its default action.
void ghost_install_crash_restore(int tty_fd, const char *sequence);

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH for the calling thread and
/// returns a non-blocking signalfd that reports them; ignores SIGPIPE. -1 on error.
int ghost_client_signalfd_open(void);

/// Starts a non-blocking TCP connection to host:port, to the `index`-th
/// address the name resolves to (modulo their count, so a caller can rotate
/// through them on failures). Returns the fd, whose connection may still be in
/// progress (wait for POLLOUT, then check ghost_client_socket_error), or -1 with a
/// message in `error`.
int ghost_client_connect(const char *host, int port, int index, char *error, int error_len);
/// SO_ERROR of a socket: 0 once a non-blocking connect has succeeded.
int ghost_client_socket_error(int fd);

#endif
