// Thin wrappers over Linux calls that Glibc's Swift overlay does not export
// (epoll, signalfd) or that are awkward from Swift (packed epoll_event).
#ifndef CGHOSTSYS_H
#define CGHOSTSYS_H

#include <stdint.h>

// The terminal client's helpers.
#include "CGhostClientSys.h"

enum {
    GHOST_EPOLLIN = 0x001,
    GHOST_EPOLLOUT = 0x004,
    GHOST_EPOLLERR = 0x008,
    GHOST_EPOLLHUP = 0x010,
    GHOST_EPOLLRDHUP = 0x2000,
};

/// epoll_create1(EPOLL_CLOEXEC).
int ghost_epoll_create(void);
/// Adds fd with `events`, remembering `data`. Returns 0 or -1 (errno set).
int ghost_epoll_add(int epfd, int fd, uint32_t events, uint64_t data);
/// Changes the events of a registered fd.
int ghost_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data);
/// Removes fd. Call before close().
int ghost_epoll_remove(int epfd, int fd);
/// Waits; unpacks up to `max` ready events into `datas` and `events`.
/// Returns the count, or -1 (errno set; EINTR is not an error to the caller).
int ghost_epoll_wait(int epfd, uint64_t *datas, uint32_t *events, int max, int timeout_ms);

/// Blocks SIGINT, SIGTERM and SIGHUP for the calling thread and returns a
/// non-blocking signalfd that reports them; ignores SIGPIPE. -1 on error.
int ghost_signalfd_open(void);
/// The same, also taking `extra_signal` (e.g. SIGWINCH) when it is > 0.
int ghost_signalfd_open_with(int extra_signal);
/// Reads one pending signal number from the signalfd, or 0 if none.
int ghost_signalfd_read(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC; writes the peer's address as
/// text ("1.2.3.4:5678" or "[::1]:5678") into `peer` (size `peer_len`).
int ghost_accept(int listen_fd, char *peer, int peer_len);

/// Opens a non-blocking listening TCP socket on host:port (host may be a
/// name, an IPv4 or an IPv6 address). Returns the fd, or -1 with a message
/// in `error` (size `error_len`).
int ghost_listen(const char *host, int port, int backlog, char *error, int error_len);
/// The first half of `ghost_listen`: a non-blocking TCP socket bound to
/// host:port, not listening yet (a client's connect is refused until
/// `ghost_start_listening`). Returns the fd, or -1 with a message in `error`.
int ghost_bind(const char *host, int port, char *error, int error_len);
/// listen(2) on a socket from `ghost_bind`: 0, or -1 with a message in `error`.
int ghost_start_listening(int fd, int backlog, char *error, int error_len);
/// shutdown(fd, SHUT_WR): the peer reads the end of the stream after what
/// was sent (a lingering close). 0 or -1 (errno set).
int ghost_shutdown_write(int fd);
/// Allocates the file's blocks from `offset` for `length` bytes without
/// changing its size (fallocate FALLOC_FL_KEEP_SIZE), so that appends into
/// them cannot fail for want of space. 0, or -1 (errno set: ENOSPC, or
/// EOPNOTSUPP where the file system cannot).
int ghost_reserve(int fd, long offset, long length);
/// Tells the service manager `state` ("READY=1", "STOPPING=1", …) through
/// the datagram socket $NOTIFY_SOCKET names (systemd's sd_notify protocol:
/// a path, or an abstract name after '@'). Returns 1 when sent, 0 without
/// $NOTIFY_SOCKET, -1 on an error (errno set).
int ghost_notify(const char *state);
/// The local port a socket is bound to, or -1.
int ghost_local_port(int fd);

/// Sets TCP keepalive and TCP_NODELAY on an accepted socket.
void ghost_tune_socket(int fd);

/// Caps the kernel's send buffer of a socket (SO_SNDBUF; the kernel
/// doubles it for its bookkeeping); `bytes` <= 0 leaves the kernel's
/// autotuning alone. Returns 0 or -1 (errno set).
int ghost_set_send_buffer(int fd, int bytes);
/// Bytes the kernel holds in the socket's send queue, not yet acknowledged
/// by the peer (ioctl SIOCOUTQ); 0 if it cannot tell.
long ghost_unsent_bytes(int fd);

/* The CPUs the calling thread may run on (sched_getaffinity), -1 on error
   (ghost_cpus.c). The others are for tests: save the affinity, pin the
   calling thread to its lowest allowed CPU, restore (and free) the saved one. */
int ghost_usable_cpus(void);
void *ghost_affinity_save(void);
int ghost_pin_to_one_cpu(void);
int ghost_affinity_restore(void *saved);

/// send() with MSG_NOSIGNAL.
long ghost_send(int fd, const void *buf, unsigned long len);



/// A blocking connect to host:port, then non-blocking with TCP_NODELAY.
/// Returns the fd or -1 (errno set).
int ghost_connect(const char *host, int port);

/// The WAL syncer (ghost_syncer.c): a thread that fdatasyncs the WAL file
/// for each generation of commits asked for, and wakes the loop through an
/// eventfd when they are on disk.
typedef struct ghost_syncer ghost_syncer;
/// Opens the WAL and the move journal, syncs them and their folder, and
/// starts the thread, which syncs both at each round; NULL (and the reason
/// in `error`) on failure.
ghost_syncer *ghost_syncer_start(const char *wal_path, const char *journal_path, const char *directory,
                                 char *error, int error_len);
/// Readable when a sync has completed (or failed).
int ghost_syncer_eventfd(ghost_syncer *s);
/// The files a commit wrote, for `ghost_syncer_request`.
enum { GHOST_SYNC_WAL = 1, GHOST_SYNC_JOURNAL = 2 };
/// Asks for every generation up to `generation` to reach the disk; `files`
/// (GHOST_SYNC_*) are those this generation wrote.
void ghost_syncer_request(ghost_syncer *s, uint64_t generation, int files);
/// The highest generation on disk; drains the eventfd. `*error`: errno of a failed sync, or 0.
uint64_t ghost_syncer_synced(ghost_syncer *s, int *error);
/// Blocks until `generation` is on disk or a sync has failed.
uint64_t ghost_syncer_wait(ghost_syncer *s, uint64_t generation, int *error);
/// fdatasync calls made so far.
uint64_t ghost_syncer_count(ghost_syncer *s);
/// Stops the thread and closes its descriptors.
void ghost_syncer_stop(ghost_syncer *s);

/// 8 random bytes from the kernel's generator (getrandom), drawn from a
/// buffer of the calling thread's own refilled 256 bytes at a time
/// (ghost_random.c). Aborts if the kernel gives none, as Swift's
/// SystemRandomNumberGenerator does.
uint64_t ghost_random_u64(void);

/// An eventfd a worker thread wakes the event loop with (ghost_eventfd.c):
/// non-blocking, close-on-exec; -1 on failure.
int ghost_eventfd_open(void);
/// Adds one to it (wakes an epoll_wait on it).
void ghost_eventfd_signal(int fd);
/// Reads it back to zero (non-blocking).
void ghost_eventfd_drain(int fd);

#endif
