/* test_dist_launch.c: domino_launch, the one-process-per-GPU start-up:
 * every PE runs and knows its rank, the shared page carries a handshake,
 * NVSHMEM_DISABLE_NVLS is set, a failing or killed PE stops the others at
 * once and names itself, bad PE counts are refused.  (Checks inside a PE
 * travel back as its exit code.) */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "domino.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* 0 when the PE sees itself, the environment and PE 0's word in the page */
static int pe_handshake(const domino_launch_info *info, void *arg)
{
    int npes = *(int *)arg;
    const domino_launch_info *self = domino_launch_self();
    if (!self || self->rank != info->rank || self->npes != npes) return 3;
    const char *nvls = getenv("NVSHMEM_DISABLE_NVLS");
    if (!nvls || strcmp(nvls, "1") != 0) return 4;
    volatile uint64_t *page = info->shared;
    if (info->rank == 0) page[0] = 0xd011d011d011ULL;
    __atomic_fetch_add((uint64_t *)&page[1], 1, __ATOMIC_SEQ_CST);
    for (double t0 = now(); page[0] != 0xd011d011d011ULL || page[1] != (uint64_t)npes;) {
        if (now() - t0 > 20) return 5;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return 0;
}

/* PE 1 fails at once with code 7, the others would sleep a minute */
static int pe_one_fails(const domino_launch_info *info, void *arg)
{
    (void)arg;
    if (info->rank == 1) return 7;
    sleep(60);
    return 0;
}

/* PE 2 dies of a signal */
static int pe_killed(const domino_launch_info *info, void *arg)
{
    (void)arg;
    if (info->rank == 2) raise(SIGKILL);
    sleep(60);
    return 0;
}

int main(void)
{
    CHECK(domino_launch_self() == NULL);
    for (int npes = 1; npes <= 4; npes++) CHECK(domino_launch(npes, pe_handshake, &npes) == 0);
    int many = 16;
    CHECK(domino_launch(many, pe_handshake, &many) == 0);
    double t0 = now();
    CHECK(domino_launch(3, pe_one_fails, NULL) == 7);
    CHECK(now() - t0 < 10);
    t0 = now();
    CHECK(domino_launch(4, pe_killed, NULL) == 128 + SIGKILL);
    CHECK(now() - t0 < 10);
    CHECK(domino_launch(0, pe_handshake, NULL) == -1);
    CHECK(domino_launch(DOMINO_LAUNCH_MAX_PES + 1, pe_handshake, NULL) == -1);
    CHECK(domino_launch(2, NULL, NULL) == -1);
    CHECK(domino_launch_self() == NULL);
    return check_summary("test_dist_launch");
}
