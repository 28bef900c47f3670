/* dist_launch.c: one process per GPU on one node, forked from this one: a
 * shared page for the start-up handshake, exit codes collected, and a
 * failing PE stops the whole run (never a hang on a dead PE) */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GRACE_MS 3000 /* from SIGTERM to SIGKILL for the PEs left */

static domino_launch_info launch_self; /* this process's PE, when launched */
static int launched;                   /* 1 in a launched PE */

const domino_launch_info *domino_launch_self(void) { return launched ? &launch_self : NULL; }

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* exit code of a wait status: the code, or 128 + the signal */
static int exit_code_of(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

/* stop the PEs still running: SIGTERM, then SIGKILL after the grace period */
static void stop_others(pid_t *pids, int *alive, int npes)
{
    for (int r = 0; r < npes; r++)
        if (alive[r]) kill(pids[r], SIGTERM);
    for (long waited = 0; waited < GRACE_MS; waited += 10) {
        int left = 0;
        for (int r = 0; r < npes; r++) {
            int status;
            if (alive[r] && waitpid(pids[r], &status, WNOHANG) == pids[r]) alive[r] = 0;
            left += alive[r];
        }
        if (!left) return;
        sleep_ms(10);
    }
    for (int r = 0; r < npes; r++)
        if (alive[r]) {
            kill(pids[r], SIGKILL);
            waitpid(pids[r], NULL, 0);
            alive[r] = 0;
        }
}

/* the body of PE rank: never returns */
static void run_pe(int rank, int npes, void *shared,
                   int (*pe_main)(const domino_launch_info *, void *), void *arg)
{
    launch_self.rank = rank;
    launch_self.npes = npes;
    launch_self.shared = shared;
    launched = 1;
    int code = pe_main(&launch_self, arg);
    fflush(stdout);
    fflush(stderr);
    _exit(code & 255);
}

int domino_launch_gpu_count(void)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) { /* the child alone touches CUDA */
        int count = domino_gpu_count();
        _exit(count > 250 ? 250 : count);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

int domino_launch(int npes, int (*pe_main)(const domino_launch_info *info, void *arg), void *arg)
{
    pid_t pids[DOMINO_LAUNCH_MAX_PES];
    int alive[DOMINO_LAUNCH_MAX_PES] = {0};
    if (npes < 1 || npes > DOMINO_LAUNCH_MAX_PES || !pe_main) {
        if (!pe_main) fprintf(stderr, "domino launch: no function for the PEs to run\n");
        else fprintf(stderr, "domino launch: %d PEs asked (1 to %d)\n", npes, DOMINO_LAUNCH_MAX_PES);
        return -1;
    }
    void *shared = mmap(NULL, DOMINO_LAUNCH_SHARED_BYTES, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        fprintf(stderr, "domino launch: no shared memory page: %s\n", strerror(errno));
        return -1;
    }
    setenv("NVSHMEM_DISABLE_NVLS", "1", 1); /* never NVLink multicast objects */
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    fflush(stdout);
    fflush(stderr);
    int started = 0, code = 0;
    for (; started < npes; started++) {
        pids[started] = fork();
        if (pids[started] < 0) {
            fprintf(stderr, "domino launch: cannot start PE %d: %s\n", started, strerror(errno));
            stop_others(pids, alive, started);
            munmap(shared, DOMINO_LAUNCH_SHARED_BYTES);
            return -1;
        }
        if (pids[started] == 0) run_pe(started, npes, shared, pe_main, arg);
        alive[started] = 1;
    }
    for (int left = npes; left > 0; left--) {
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) {
                left++;
                continue;
            }
            break;
        }
        int rank = 0;
        while (rank < npes && pids[rank] != pid) rank++;
        if (rank == npes) {
            left++; /* not one of ours */
            continue;
        }
        alive[rank] = 0;
        int c = exit_code_of(status);
        if (c != 0 && code == 0) {
            code = c;
            if (WIFSIGNALED(status))
                fprintf(stderr, "domino launch: PE %d of %d was killed by signal %d; stopping "
                                "the other PEs\n", rank, npes, WTERMSIG(status));
            else
                fprintf(stderr, "domino launch: PE %d of %d failed (exit code %d); stopping the "
                                "other PEs\n", rank, npes, c);
            stop_others(pids, alive, npes);
            break;
        }
    }
    munmap(shared, DOMINO_LAUNCH_SHARED_BYTES);
    return code;
}
