#define _GNU_SOURCE
#include "CGhostSys.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

int ghost_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int ghost_epoll_add(int epfd, int fd, uint32_t events, uint64_t data) {
    return ctl(epfd, EPOLL_CTL_ADD, fd, events, data);
}

int ghost_epoll_modify(int epfd, int fd, uint32_t events, uint64_t data) {
    return ctl(epfd, EPOLL_CTL_MOD, fd, events, data);
}

int ghost_epoll_remove(int epfd, int fd) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
}

int ghost_epoll_wait(int epfd, uint64_t *datas, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        datas[i] = evs[i].data.u64;
        events[i] = evs[i].events;
    }
    return n;
}

int ghost_signalfd_open_with(int extra_signal) {
    signal(SIGPIPE, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (extra_signal > 0) sigaddset(&set, extra_signal);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int ghost_signalfd_open(void) { return ghost_signalfd_open_with(0); }

int ghost_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n != (ssize_t)sizeof info) return 0;
    return (int)info.ssi_signo;
}

static void format_peer(const struct sockaddr_storage *ss, char *peer, int peer_len) {
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (ss->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        port = ntohs(a->sin_port);
        snprintf(peer, (size_t)peer_len, "%s:%d", host, port);
    } else if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        port = ntohs(a->sin6_port);
        snprintf(peer, (size_t)peer_len, "[%s]:%d", host, port);
    } else {
        snprintf(peer, (size_t)peer_len, "unknown");
    }
}

int ghost_accept(int listen_fd, char *peer, int peer_len) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    int fd = accept4(listen_fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0 && peer && peer_len > 0) format_peer(&ss, peer, peer_len);
    return fd;
}

int ghost_listen(const char *host, int port, int backlog, char *error, int error_len) {
    int fd = ghost_bind(host, port, error, error_len);
    if (fd < 0) return -1;
    if (ghost_start_listening(fd, backlog, error, error_len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int ghost_start_listening(int fd, int backlog, char *error, int error_len) {
    if (listen(fd, backlog) == 0) return 0;
    int saved = errno;
    int port = ghost_local_port(fd);
    snprintf(error, (size_t)error_len, "cannot listen on port %d: %s", port, strerror(saved));
    errno = saved;
    return -1;
}

int ghost_shutdown_write(int fd) { return shutdown(fd, SHUT_WR); }

int ghost_reserve(int fd, long offset, long length) {
    int rc;
    do { rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length); } while (rc != 0 && errno == EINTR);
    return rc;
}

int ghost_notify(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || path[0] == '\0') return 0;
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    size_t len = strlen(path);
    if ((path[0] != '/' && path[0] != '@') || len >= sizeof addr.sun_path) { errno = EINVAL; return -1; }
    memcpy(addr.sun_path, path, len);
    if (path[0] == '@') addr.sun_path[0] = '\0';   // an abstract socket
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    ssize_t sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&addr, alen);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent < 0 ? -1 : 1;
}

int ghost_bind(const char *host, int port, char *error, int error_len) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char portText[16];
    snprintf(portText, sizeof portText, "%d", port);
    int rc = getaddrinfo(host, portText, &hints, &res);
    if (rc != 0) {
        snprintf(error, (size_t)error_len, "cannot resolve %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    int lastErrno = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) { lastErrno = errno; continue; }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        lastErrno = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) snprintf(error, (size_t)error_len, "cannot listen on %s:%d: %s", host, port, strerror(lastErrno));
    return fd;
}

int ghost_local_port(int fd) {
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0) return -1;
    if (ss.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return -1;
}

void ghost_tune_socket(int fd) {
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int ghost_set_send_buffer(int fd, int bytes) {
    if (bytes <= 0) return 0;
    return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

long ghost_unsent_bytes(int fd) {
    int n = 0;
    if (ioctl(fd, SIOCOUTQ, &n) != 0) return 0;
    return n < 0 ? 0 : (long)n;
}

long ghost_send(int fd, const void *buf, unsigned long len) {
    return (long)send(fd, buf, len, MSG_NOSIGNAL);
}

int ghost_connect(const char *host, int port) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    char portText[16];
    snprintf(portText, sizeof portText, "%d", port);
    if (getaddrinfo(host, portText, &hints, &res) != 0) { errno = EINVAL; return -1; }
    int fd = -1;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        int saved = errno;
        close(fd);
        errno = saved;
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}
