/* dmatrix_borrow.c: a device matrix over arrays another object owns */
#include "gpu_internal.h"

#include <string.h>

void domino_dmatrix_borrow(struct domino_dmatrix_s *v, domino_type type, int32_t rows, int32_t cols, int64_t nnz,
                           int64_t *ptr, int32_t *ind, void *val)
{
    memset(v, 0, sizeof(*v));
    v->magic = DOMINO_DMATRIX_MAGIC;
    v->format = DOMINO_CSR;
    v->type = type;
    v->nrows = rows;
    v->ncols = cols;
    v->nnz = nnz;
    v->ptr = ptr;
    v->ind = ind;
    v->val = val;
    v->borrowed = 1;
}
