/* summa_nccl.h: what the SUMMA baselines on NCCL (SpMM: summa_nccl.c,
 * SpGEMM: summa_spgemm_nccl.c) share (internal). */
#ifndef DOMINO_SUMMA_NCCL_H
#define DOMINO_SUMMA_NCCL_H

#include "internal.h"

#include <cuda_runtime.h>

#include <nccl.h>

#define ID_OFFSET 2048                 /* NCCL's ID in the launch page, after NVSHMEM's */
#define ID_READY 0x6e63636c00000000ULL /* "nccl" and the generation in the low bits */
#define ID_WAIT_S 60

/* the launch page's second half during start-up */
typedef struct nccl_page {
    uint64_t ready;    /* ID_READY + generation once that generation's id is written */
    ncclUniqueId id;   /* PE 0's unique ID */
} nccl_page;

/* r as a status naming what and the PE */
domino_status summa_nccl_status(domino_handle h, ncclResult_t r, const char *what, int rank);
/* PE 0's unique ID to every PE, and this PE's rank and size.  Every PE
 * makes the same communicators in the same order, so the count of them
 * (the generation) tells a new ID from the last one. */
domino_status summa_nccl_share_id(domino_handle h, ncclUniqueId *id, int *rank, int *size);

/* the process grid both SUMMAs run on: pr x pc PEs, K = lcm(pr, pc)
 * inner blocks, the world cut into row and column communicators */
typedef struct summa_grid {
    int rank, size;             /* this PE, PEs */
    int pr, pc, K, myr, myc;    /* grid, inner blocks, this PE's grid row and column */
    int64_t *rb, *kb, *cb;      /* boundaries of C's rows, the inner blocks, C's columns */
    ncclComm_t world, row, col; /* all PEs, this grid row, this grid column */
    int *flag;                  /* device word of summa_nccl_agree */
    cudaStream_t stream;        /* the handle's */
} summa_grid;

/* Collective: the grid for C = A B (A m x k, B k x n) on pr x pc PEs,
 * communicators split from a world started through summa_nccl_share_id.
 * Returns a failure before the world exists (nothing collective left to
 * do: *joined 0), else the first failure of this PE, the grid still made
 * so that every PE can go on to summa_grid_agree (*joined 1). */
domino_status summa_grid_start(domino_handle h, summa_grid *g, int64_t m, int64_t k, int64_t n, int pr, int pc,
                               cudaStream_t stream, const char *what, int *joined);
/* Collective: what summa_nccl_agree says over g's world */
domino_status summa_grid_agree(domino_handle h, summa_grid *g, domino_status s, const char *what);
void summa_grid_free(summa_grid *g);

/* Collective over world: every PE learns whether one failed.  Returns s,
 * or a failure when another PE failed (what names the caller; flag: a
 * device int allocated before the collectives began). */
domino_status summa_nccl_agree(domino_handle h, ncclComm_t world, cudaStream_t stream, int rank, int *flag,
                               domino_status s, const char *what);

#endif
