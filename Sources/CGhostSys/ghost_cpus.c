#define _GNU_SOURCE
#include "CGhostSys.h"

#include <sched.h>
#include <stdlib.h>

int ghost_usable_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}

void *ghost_affinity_save(void) {
    cpu_set_t *set = malloc(sizeof *set);
    if (set == NULL) return NULL;
    if (sched_getaffinity(0, sizeof *set, set) != 0) { free(set); return NULL; }
    return set;
}

int ghost_affinity_restore(void *saved) {
    if (saved == NULL) return -1;
    int rc = sched_setaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)saved);
    free(saved);
    return rc;
}

int ghost_pin_to_one_cpu(void) {
    cpu_set_t set, one;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    CPU_ZERO(&one);
    for (int i = 0; i < CPU_SETSIZE; i++) {
        if (CPU_ISSET(i, &set)) {
            CPU_SET(i, &one);
            return sched_setaffinity(0, sizeof one, &one);
        }
    }
    return -1;
}
