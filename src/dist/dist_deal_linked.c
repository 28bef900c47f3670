/* dist_deal_linked.c: the LINKED distribution, each component on the PE of
 * its link (a predecessor one level up), level by level in equal shares */
#include "internal.h"

#include <inttypes.h>
#include <string.h>

/* entry (r, c) of the triangle: row r reads x_c; the first c one level
 * above r becomes r's link */
static void link_entry(domino_fill fill, const int32_t *level, int32_t r, int32_t c, int32_t *link)
{
    if (r == c || (fill == DOMINO_LOWER ? c > r : c < r)) return;
    if (link[r] < 0 && level[c] == level[r] - 1) link[r] = c;
}

/* quota[p] = the most components PE p takes of a level of w: w * weight[p]
 * / total rounded up (the quotas sum to w or more: a level narrower than
 * the PEs lets every PE take one, so a chain stays on one PE) */
static void level_quotas(int64_t w, int npes, const int64_t *weight, int64_t total, int64_t *quota)
{
    int64_t given = 0;
    for (int p = 0; p < npes; p++) {
        int64_t share = weight ? weight[p] : 1;
        /* w * share / total in double: w < 2^31, share <= total < 2^61 */
        double exact = (double)w * (double)share / (double)total;
        quota[p] = (int64_t)exact;
        if ((double)quota[p] < exact) quota[p]++;
        given += quota[p];
    }
    for (int p = 0; given < w; p = (p + 1) % npes, given++) quota[p]++; /* rounding's safety */
}

/* P->task_pe (task_size 1, a task per component) from L's triangle `fill`
 * (checked already) and P->row_level (nlevels levels): the components of each level are
 * shared among the PEs by weight (at most one above the exact share), a
 * component going to the PE of its link while that PE's share lasts, the
 * others to the PEs with room left, in index order (level 0, without links:
 * consecutive runs).  Dependencies one level apart then stay on one GPU for
 * most components, and the chain of a deep, narrow-enough DAG crosses
 * NVLink only where a PE's share of a level ran out.  pe_tasks and
 * pe_components are set. */
domino_status dist_deal_linked(domino_handle h, const char *what, domino_matrix L, domino_fill fill,
                               const int64_t *weight, int32_t nlevels, domino_dist_plan *P)
{
    int32_t n = P->n, top = nlevels - 1;
    const int32_t *level = P->row_level; /* each in [0, nlevels) */
    domino_status s = DOMINO_SUCCESS;
    int npes = P->npes;
    int32_t *link = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    int32_t *order = domino_malloc((size_t)n * sizeof(int32_t) + 1);
    int64_t *start = domino_calloc((size_t)top + 3, sizeof(int64_t));
    int64_t *quota = domino_calloc((size_t)npes, sizeof(int64_t));
    if (!link || !order || !start || !quota) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "%s: out of memory linking %d components", what, n);
        goto cleanup;
    }
    for (int32_t i = 0; i < n; i++) link[i] = -1;
    if (L->format == DOMINO_CSR && L->symmetry == DOMINO_GENERAL) {
        /* a row's link from its own entries only: rows on the host threads */
#pragma omp parallel for num_threads(domino_host_threads(npes)) schedule(dynamic, 4096)
        for (int32_t a = 0; a < n; a++)
            for (int64_t k = L->ptr[a]; k < L->ptr[a + 1] && link[a] < 0; k++)
                link_entry(fill, level, a, L->ind[k], link);
    } else {
        for (int32_t a = 0; a < n; a++)
            for (int64_t k = L->ptr[a]; k < L->ptr[a + 1]; k++) {
                int32_t r = L->format == DOMINO_CSR ? a : L->ind[k], c = L->format == DOMINO_CSR ? L->ind[k] : a;
                link_entry(fill, level, r, c, link);
                if (L->symmetry != DOMINO_GENERAL) link_entry(fill, level, c, r, link);
            }
    }
    /* components level by level, index order within a level (counting sort) */
    for (int32_t i = 0; i < n; i++) start[level[i] + 2]++;
    for (int32_t l = 0; l <= top; l++) start[l + 2] += start[l + 1];
    for (int32_t i = 0; i < n; i++) order[start[level[i] + 1]++] = i;
    int64_t total = 0;
    for (int p = 0; p < npes; p++) total += weight ? weight[p] : 1;
    for (int32_t l = 0; l <= top; l++) { /* level l is order[start[l], start[l + 1]) */
        int64_t lo = start[l], hi = start[l + 1];
        level_quotas(hi - lo, npes, weight, total, quota);
        for (int64_t k = lo; k < hi; k++) {
            int32_t i = order[k], q = link[i] >= 0 ? P->task_pe[link[i]] : -1;
            P->task_pe[i] = q >= 0 && quota[q] > 0 ? q : -1;
            if (P->task_pe[i] >= 0) quota[q]--;
        }
        int p = 0;
        for (int64_t k = lo; k < hi; k++) {
            int32_t i = order[k];
            if (P->task_pe[i] >= 0) continue;
            while (quota[p] == 0) p++; /* the quotas sum to the components left */
            P->task_pe[i] = p;
            quota[p]--;
        }
    }
    memset(P->pe_tasks, 0, (size_t)npes * sizeof(int32_t));
    memset(P->pe_components, 0, (size_t)npes * sizeof(int32_t));
    for (int32_t i = 0; i < n; i++) {
        P->pe_tasks[P->task_pe[i]]++;
        P->pe_components[P->task_pe[i]]++;
    }
cleanup:
    domino_free(link);
    domino_free(order);
    domino_free(start);
    domino_free(quota);
    return s;
}
