/* spmm_algorithm.c: the cusparseSpMM algorithm every SpMM of domino asks
 * for (the single-GPU product, the one-sided products, SUMMA's), so that a
 * comparison always runs the same one on both sides.  The default lets
 * cuSPARSE choose; the environment's DOMINO_SPMM_ALG (1, 2 or 3: CSR_ALG1,
 * _ALG2, _ALG3; an experiment switch of the benchmarks) forces one. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

cusparseSpMMAlg_t domino_spmm_algorithm(void)
{
    const char *v = getenv("DOMINO_SPMM_ALG");
    if (v && v[0] == '1' && !v[1]) return CUSPARSE_SPMM_CSR_ALG1;
    if (v && v[0] == '2' && !v[1]) return CUSPARSE_SPMM_CSR_ALG2;
    if (v && v[0] == '3' && !v[1]) return CUSPARSE_SPMM_CSR_ALG3;
    return CUSPARSE_SPMM_ALG_DEFAULT;
}

int domino_spmm_local_chunks(int64_t cols, int row_blocks)
{
    const char *v = getenv("DOMINO_SPMM_LOCAL");
    if (cols > DOMINO_SPMM_CHUNKS_MAX_COLS) return 0;
    if (v && !strcmp(v, "chunks")) return 1;
    if (v && !strcmp(v, "cusparse")) return 0;
    /* 4xH200, R-MAT 22, width 128: row blocks 3.58 ms with chunks, 3.90 with
     * cuSPARSE; 4 x 4 tiles (short rows, products added up) stationary-C
     * 18.36 ms with chunks, 8.83 with cuSPARSE (h200x4-drive-check,
     * h200x4-slabs1).  One H200, R-MAT 24: chunks 1.15x cuSPARSE at 128
     * columns, 1.39x at 32 (h200x4-spmm-chunks2). */
    return row_blocks;
}
