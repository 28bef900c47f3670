/* stencil_free.c: free a compact stencil matrix */
#include "internal.h"

/* free S and its coefficients; accepts NULL */
void domino_stencil_matrix_free(domino_stencil_matrix *S)
{
    if (!S) return;
    domino_free(S->coef);
    domino_free(S);
}
