/* cmd_solve_krylov.h: the Krylov mode of "domino solve" (--krylov cg|bicgstab) */
#ifndef DOMINO_CLI_CMD_SOLVE_KRYLOV_H
#define DOMINO_CLI_CMD_SOLVE_KRYLOV_H

#include "domino.h"

/* what "domino solve FILE --krylov ..." was asked */
typedef struct krylov_request {
    const char *path;                /* matrix file */
    const char *method;              /* "cg" or "bicgstab" */
    const char *precond_name;        /* "ilu0", "ic0", "jacobi" or "none" */
    const char *rhs;                 /* "ones", "random" or a Matrix Market n x 1 file */
    domino_krylov_options options;   /* preconditioner, rtol, maxit, pivot_shift */
    int json;                        /* print a JSON document */
    int gpu;                         /* 1: domino_gpu_cg / domino_gpu_bicgstab (--gpu) */
    int gpu_baseline;                /* 1 with gpu: cuSPARSE csrilu02/csric02 + SpSV loop */
} krylov_request;

/* seed of "--rhs random" (the vector is the same on every run) */
#define KRYLOV_RHS_SEED 20260101u

/* pattern files get values: domino_matrix_laplacian with this shift */
#define KRYLOV_LAPLACIAN_SHIFT 0.01

/* Run the request on the CPU reference (or the GPU with rq->gpu) and print
 * the outcome; returns the exit code: 0 converged, 1 not converged or an
 * error (message on stderr). */
int krylov_solve_run(const krylov_request *rq);

#endif /* DOMINO_CLI_CMD_SOLVE_KRYLOV_H */
