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

/* Collective over world: every PE learns whether one failed.  Returns s,
 * or a failure when another PE failed (what names the caller; flag: a
 * device int allocated before the collectives began). */
domino_status summa_nccl_agree(domino_handle h, ncclComm_t world, cudaStream_t stream, int rank, int *flag,
                               domino_status s, const char *what);

#endif
