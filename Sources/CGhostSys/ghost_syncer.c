// The WAL syncer: a thread that makes committed transactions durable while
// the event loop goes on (pipelined group commit). The loop commits with
// SQLite's synchronous=NORMAL, so COMMIT writes the WAL frames without
// waiting for the disk, or appends a turn's moves to the move journal (the
// store's MoveJournal); it then asks for the generation it just committed.
// The thread fdatasyncs the WAL file and the journal, once for every
// generation asked for since its last sync, records the highest one now on
// disk, and wakes the loop through an eventfd. The loop sends a turn's
// replies only when that turn's generation is on disk.
#define _GNU_SOURCE
#include "CGhostSys.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

struct ghost_syncer {
    pthread_mutex_t lock;
    pthread_cond_t wake;     // the thread waits here for work
    pthread_cond_t done;     // ghost_syncer_wait waits here
    pthread_t thread;
    int wal_fd;
    int journal_fd;
    int event_fd;
    // Tests only: with GHOSTD_TEST_SYNC_GATE=<file>, each sync first takes a
    // shared flock on that file, so a test holding an exclusive one holds
    // every sync (and the replies waiting for it) until it lets go
    // (EndToEndSyncWaitTests). -1 without it.
    int gate_fd;
    uint64_t requested;      // the highest generation asked for
    int files;               // GHOST_SYNC_* written since the last sync began
    uint64_t synced;         // the highest generation on disk
    int error;               // errno of a failed fdatasync; sticky
    int stopping;
    uint64_t syncs;          // fdatasync calls made
};

static void *run(void *arg) {
    struct ghost_syncer *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->stopping && (s->requested <= s->synced || s->error))
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->stopping) break;
        uint64_t target = s->requested;
        int files = s->files;
        s->files = 0;
        pthread_mutex_unlock(&s->lock);
        // Every generation up to `target` was committed (its frames written
        // to the WAL, or its moves to the journal) before it was asked for,
        // so one sync covers them all. Only the files written are synced: a
        // sync of an unchanged file can still cost the disk a cache flush.
        int rc = 0;
        if (s->gate_fd >= 0) {
            while (flock(s->gate_fd, LOCK_SH) != 0 && errno == EINTR) {}
            flock(s->gate_fd, LOCK_UN);
        }
        if (files & GHOST_SYNC_WAL) rc = fdatasync(s->wal_fd);
        if (rc == 0 && (files & GHOST_SYNC_JOURNAL)) rc = fdatasync(s->journal_fd);
        int err = rc == 0 ? 0 : errno;
        pthread_mutex_lock(&s->lock);
        s->syncs++;
        if (err) s->error = err; else s->synced = target;
        pthread_cond_broadcast(&s->done);
        uint64_t one = 1;
        ssize_t w;
        do { w = write(s->event_fd, &one, sizeof one); } while (w < 0 && errno == EINTR);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static void fail(char *error, int error_len, const char *what, const char *path, int err) {
    if (error && error_len > 0) snprintf(error, (size_t)error_len, "%s %s: %s", what, path, strerror(err));
}

struct ghost_syncer *ghost_syncer_start(const char *wal_path, const char *journal_path, const char *directory,
                                        char *error, int error_len) {
    int wal = open(wal_path, O_RDWR | O_CLOEXEC);
    if (wal < 0) { fail(error, error_len, "cannot open", wal_path, errno); return NULL; }
    int journal = open(journal_path, O_RDWR | O_CLOEXEC);
    if (journal < 0) { fail(error, error_len, "cannot open", journal_path, errno); close(wal); return NULL; }
    // The WAL and the journal may be new: their names in the folder must be on disk too.
    int dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) { fail(error, error_len, "cannot open", directory, errno); close(journal); close(wal); return NULL; }
    if (fsync(dir) != 0 || fdatasync(wal) != 0 || fdatasync(journal) != 0) {
        fail(error, error_len, "cannot sync", directory, errno);
        close(dir); close(journal); close(wal); return NULL;
    }
    close(dir);
    int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (efd < 0) { fail(error, error_len, "cannot create", "an eventfd", errno); close(journal); close(wal); return NULL; }
    struct ghost_syncer *s = calloc(1, sizeof *s);
    if (!s) {
        fail(error, error_len, "cannot allocate", "the syncer", ENOMEM);
        close(efd); close(journal); close(wal); return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    pthread_cond_init(&s->done, NULL);
    s->wal_fd = wal;
    s->journal_fd = journal;
    s->event_fd = efd;
    const char *gate = getenv("GHOSTD_TEST_SYNC_GATE");
    s->gate_fd = gate && *gate ? open(gate, O_RDONLY | O_CLOEXEC) : -1;
    int rc = pthread_create(&s->thread, NULL, run, s);
    if (rc != 0) {
        fail(error, error_len, "cannot start", "the sync thread", rc);
        close(efd); close(journal); close(wal); free(s); return NULL;
    }
    return s;
}

int ghost_syncer_eventfd(struct ghost_syncer *s) { return s->event_fd; }

void ghost_syncer_request(struct ghost_syncer *s, uint64_t generation, int files) {
    pthread_mutex_lock(&s->lock);
    s->files |= files;
    if (generation > s->requested) {
        s->requested = generation;
        pthread_cond_signal(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
}

uint64_t ghost_syncer_synced(struct ghost_syncer *s, int *error) {
    uint64_t counter;
    while (read(s->event_fd, &counter, sizeof counter) > 0) {}   // nonblocking: drain the wake-ups
    pthread_mutex_lock(&s->lock);
    uint64_t synced = s->synced;
    if (error) *error = s->error;
    pthread_mutex_unlock(&s->lock);
    return synced;
}

uint64_t ghost_syncer_wait(struct ghost_syncer *s, uint64_t generation, int *error) {
    pthread_mutex_lock(&s->lock);
    if (generation > s->requested) {
        s->requested = generation;
        s->files = GHOST_SYNC_WAL | GHOST_SYNC_JOURNAL;   // not asked for: sync both
        pthread_cond_signal(&s->wake);
    }
    while (s->synced < generation && !s->error) pthread_cond_wait(&s->done, &s->lock);
    uint64_t synced = s->synced;
    if (error) *error = s->error;
    pthread_mutex_unlock(&s->lock);
    return synced;
}

uint64_t ghost_syncer_count(struct ghost_syncer *s) {
    pthread_mutex_lock(&s->lock);
    uint64_t n = s->syncs;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void ghost_syncer_stop(struct ghost_syncer *s) {
    if (!s) return;
    pthread_mutex_lock(&s->lock);
    s->stopping = 1;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    close(s->event_fd);
    if (s->gate_fd >= 0) close(s->gate_fd);
    close(s->journal_fd);
    close(s->wal_fd);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    pthread_cond_destroy(&s->done);
    free(s);
}
