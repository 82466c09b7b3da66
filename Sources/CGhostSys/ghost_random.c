#define _GNU_SOURCE
#include "CGhostSys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

// The kernel's random bytes (getrandom, the generator Swift's
// SystemRandomNumberGenerator reads), fetched 256 at a time into a buffer of
// the calling thread's own: one system call per 32 draws of 8 bytes instead
// of one per draw (a game's start drew 7 times: its seed, its join code and
// 4 for its two resume tokens). No transformation: each byte is the
// kernel's, handed out once and wiped from the buffer as it goes.
static _Thread_local unsigned char pool[256];
static _Thread_local size_t pool_left = 0;

uint64_t ghost_random_u64(void) {
    if (pool_left < sizeof(uint64_t)) {
        size_t got = 0;
        while (got < sizeof pool) {
            ssize_t n = getrandom(pool + got, sizeof pool - got, 0);
            if (n > 0) { got += (size_t)n; continue; }
            if (n < 0 && errno == EINTR) continue;
            abort();   // as Swift's SystemRandomNumberGenerator traps: no secret without randomness
        }
        pool_left = sizeof pool;
    }
    unsigned char *at = pool + sizeof pool - pool_left;
    uint64_t value;
    memcpy(&value, at, sizeof value);
    memset(at, 0, sizeof value);
    pool_left -= sizeof value;
    return value;
}
