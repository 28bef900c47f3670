/* internal.h: what every layer of libdomino shares and users never see:
 * the structs behind the opaque handles, error reporting and allocation. */
#ifndef DOMINO_INTERNAL_H
#define DOMINO_INTERNAL_H

#include "domino.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus /* CUDA sources include this too */
extern "C" {
#endif

#define DOMINO_HANDLE_MAGIC 0x646f6d696e6f4831ULL /* "dominoH1" */
#define DOMINO_MATRIX_MAGIC 0x646f6d696e6f4d31ULL /* "dominoM1" */
#define DOMINO_FREED_MAGIC 0xdeadbeefdeadbeefULL
#define DOMINO_ERROR_LEN 1024

struct domino_gpu_context; /* defined in src/cuda, NULL until first GPU call */

struct domino_handle_s {
    uint64_t magic;                   /* DOMINO_HANDLE_MAGIC while alive */
    char last_error[DOMINO_ERROR_LEN]; /* message of the last failed call */
    int progress;                     /* 1: progress on stderr when a terminal */
    struct domino_gpu_context *gpu;   /* device state, owned, may be NULL */
};

struct domino_matrix_s {
    uint64_t magic;           /* DOMINO_MATRIX_MAGIC while alive */
    domino_format format;     /* CSR or CSC */
    domino_type type;         /* type of val */
    int32_t nrows;            /* rows */
    int32_t ncols;            /* columns */
    int64_t nnz;              /* stored entries */
    int64_t *ptr;             /* offsets, size nptr()+1 */
    int32_t *ind;             /* indices, size nnz */
    void *val;                /* values, size nnz, double or float */
    domino_symmetry symmetry; /* how stored entries are to be read */
    int is_pattern;           /* values were assigned (all ones), not read */
};

/* number of compressed dimension entries: rows for CSR, columns for CSC */
static inline int32_t domino_matrix_nptr(const struct domino_matrix_s *A)
{
    return A->format == DOMINO_CSR ? A->nrows : A->ncols;
}
/* number of the other dimension */
static inline int32_t domino_matrix_nind(const struct domino_matrix_s *A)
{
    return A->format == DOMINO_CSR ? A->ncols : A->nrows;
}
/* value k of A as a double */
static inline double domino_matrix_value(const struct domino_matrix_s *A, int64_t k)
{
    return A->type == DOMINO_FLOAT64 ? ((const double *)A->val)[k]
                                     : (double)((const float *)A->val)[k];
}
/* store v as value k of A */
static inline void domino_matrix_set_value(struct domino_matrix_s *A, int64_t k, double v)
{
    if (A->type == DOMINO_FLOAT64)
        ((double *)A->val)[k] = v;
    else
        ((float *)A->val)[k] = (float)v;
}

/* OpenMP threads for one process's host work (parsing, planning): the
 * node's cores, shared among the npes PEs when this process is one of
 * several started together (domino run -n N, or mpirun; npes <= 0: the
 * run's PEs); at least 1 (host_threads.c) */
int domino_host_threads(int npes);

/* ------------------------------------------------------------ errors */

/* Record a message on h (or the thread's slot when h is NULL) and return s.
 * Use as: return domino_error(h, DOMINO_BAD_INPUT, "%s:%d: ...", ...); */
domino_status domino_error(domino_handle h, domino_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* clear the last error of h (called at the start of public calls) */
void domino_clear_error(domino_handle h);
/* 1 if h is NULL or a live handle */
int domino_handle_ok(domino_handle h);
/* DOMINO_SUCCESS if A is a live matrix, else records the error */
domino_status domino_check_matrix(domino_handle h, domino_matrix A, const char *what);

/* an integer from the environment (experiment and tuning switches), dflt
 * when unset or empty */
int domino_env_int(const char *name, int dflt);

/* ------------------------------------------------------------ memory */

/* allocation wrappers: count allocations and fail on demand in tests */
void *domino_malloc(size_t size);
void *domino_calloc(size_t count, size_t size);
void *domino_realloc(void *p, size_t size);
void domino_free(void *p);
/* size*count with overflow check; returns 0 and sets *out on success */
int domino_mul_size(size_t count, size_t size, size_t *out);

/* --------------------------------------------------------- progress */

/* progress reporter on stderr, silent unless enabled and stderr a terminal */
typedef struct domino_progress {
    int active;        /* 1 when it prints */
    double start;      /* wall time at begin */
    double last;       /* wall time of last print */
    const char *label; /* what is progressing */
} domino_progress;
void domino_progress_begin(domino_handle h, domino_progress *p, const char *label);
void domino_progress_update(domino_progress *p, double fraction);
void domino_progress_end(domino_progress *p);

/* wall clock in seconds */
double domino_wtime(void);

/* ---------------------------------------------------------- random */

/* splitmix64 / xoshiro-style generator, reproducible for a seed */
typedef struct domino_rng {
    uint64_t s[4]; /* xoshiro256** state */
} domino_rng;
void domino_rng_seed(domino_rng *r, uint64_t seed);
uint64_t domino_rng_next(domino_rng *r);
/* uniform double in [0,1) */
double domino_rng_uniform(domino_rng *r);
/* uniform integer in [0, bound) for bound > 0 */
uint64_t domino_rng_below(domino_rng *r, uint64_t bound);

/* the argument checks of domino_gen_dense and domino_gpu_gen_dense (fn
 * names the caller): 0, or the status already reported on h */
domino_status domino_gen_dense_check(domino_handle h, const char *fn, int64_t ncols, int64_t row0, int64_t rows,
                                     int64_t col0, int64_t cols, domino_type type, const void *B, int64_t ldb);

/* distributed planning (src/dist): the LINKED scheme's deal of P's
 * components from L and P->row_level, whose levels are 0 .. nlevels - 1
 * (dist_deal_linked.c) */
domino_status dist_deal_linked(domino_handle h, const char *what, domino_matrix L, domino_fill fill,
                               const int64_t *weight, int32_t nlevels, domino_dist_plan *P);

/* The packed walk of the thread engine (src/cuda/trsv_packed.cu): a row of
 * len entries takes DOMINO_PACK_LANES(len) lanes of a warp, at most four
 * of its entries a lane (one lane from 0 to 4 entries, all 32 from 125); a
 * row of more than DOMINO_PACK_MAX_ROW entries is not packed (64 a lane) */
#define DOMINO_PACK_LANES(len) ((len) <= 4 ? 1 : (len) >= 125 ? 32 : (int)(((len) + 3) / 4))
#define DOMINO_PACK_MAX_ROW 2048

/* The packing: consecutive logical rows (row r, or n - 1 - r when upper)
 * fill a warp while their lanes fit 32; a warp never crosses a multiple of
 * 32 rows (so each block of 32 rows packs on its own, in parallel on the
 * GPU: domino_launch_pack_rows, trsv_packed.cu).  Warp w holds rows
 * warp_first[w] .. warp_first[w + 1] - 1.  warp_first has room for n + 1
 * values; *warps is set.  Returns -1 (nothing packed) when a row of ptr
 * holds more than DOMINO_PACK_MAX_ROW entries, else 0 (src/core/pack_rows.c:
 * the CPU reference of the GPU's packing). */
int domino_pack_rows(int32_t n, const int64_t *ptr, int upper, int32_t *warp_first, int32_t *warps);

#ifdef __cplusplus
}
#endif
#endif /* DOMINO_INTERNAL_H */
