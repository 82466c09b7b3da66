#define _GNU_SOURCE
#include "CGhostClientSys.h"
#include "CGhostSys.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_termios;
static volatile sig_atomic_t have_saved = 0;
static int saved_fd = -1;

int ghost_tty_raw(int fd) {
    struct termios t;
    if (tcgetattr(fd, &t) != 0) return -1;
    saved_termios = t;
    saved_fd = fd;
    have_saved = 1;
    t.c_iflag &= ~(unsigned)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    t.c_oflag &= ~(unsigned)(OPOST);
    t.c_cflag |= CS8;
    t.c_lflag &= ~(unsigned)(ECHO | ICANON | IEXTEN | ISIG);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSAFLUSH, &t) != 0) {
        have_saved = 0;
        return -1;
    }
    return 0;
}

int ghost_tty_restore(void) {
    if (!have_saved) return 0;
    have_saved = 0;
    return tcsetattr(saved_fd, TCSAFLUSH, &saved_termios);
}

int ghost_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

static char crash_sequence[256];
static size_t crash_sequence_len = 0;
static int crash_fd = -1;

static void crash_handler(int sig) {
    if (crash_fd >= 0 && crash_sequence_len > 0) {
        ssize_t ignored = write(crash_fd, crash_sequence, crash_sequence_len);
        (void)ignored;
    }
    ghost_tty_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

void ghost_install_crash_restore(int tty_fd, const char *sequence) {
    size_t n = strlen(sequence);
    if (n >= sizeof crash_sequence) n = sizeof crash_sequence - 1;
    memcpy(crash_sequence, sequence, n);
    crash_sequence[n] = 0;
    crash_sequence_len = n;
    crash_fd = tty_fd;
    const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = crash_handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(signals[i], &sa, NULL);
    }
}

int ghost_client_signalfd_open(void) { return ghost_signalfd_open_with(SIGWINCH); }

int ghost_client_connect(const char *host, int port, int index, char *error, int error_len) {
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    char portText[16];
    snprintf(portText, sizeof portText, "%d", port);
    int rc = getaddrinfo(host, portText, &hints, &res);
    if (rc != 0) {
        snprintf(error, (size_t)error_len, "cannot resolve %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int count = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) count++;
    if (count == 0) {
        freeaddrinfo(res);
        snprintf(error, (size_t)error_len, "no address for %s", host);
        return -1;
    }
    if (index < 0) index = 0;
    struct addrinfo *ai = res;
    for (int i = 0; i < index % count; i++) ai = ai->ai_next;
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        snprintf(error, (size_t)error_len, "socket: %s", strerror(errno));
        freeaddrinfo(res);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
        snprintf(error, (size_t)error_len, "cannot connect to %s:%d: %s", host, port, strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

int ghost_client_socket_error(int fd) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    return err;
}
