// An eventfd for a worker thread to wake the event loop with (the hashing
// pool, Sources/GhostServer/Net/JobPool.swift), as the WAL
// syncer does (ghost_syncer.c). Glibc's Swift module does not export it.
#define _GNU_SOURCE
#include "CGhostSys.h"

#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

int ghost_eventfd_open(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void ghost_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t w;
    do { w = write(fd, &one, sizeof one); } while (w < 0 && errno == EINTR);
}

void ghost_eventfd_drain(int fd) {
    uint64_t count;
    ssize_t r;
    do { r = read(fd, &count, sizeof count); } while (r < 0 && errno == EINTR);
}
