/* cmd_info.c: "domino info FILE.mtx": size, symmetry, diagonal and level structure */
#include "cli_util.h"
#include "commands.h"
#include "domino.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

static const char info_usage[] =
    "usage: domino info FILE.mtx [--json]\n"
    "\n"
    "Reads a Matrix Market file (.mtx or .mtx.gz) and prints its rows, columns,\n"
    "entries (as stored and after symmetric expansion), symmetry, whether it is a\n"
    "pattern, its diagonal (present, zero, missing), and for the lower and upper\n"
    "triangles (diagonal ensured) the levels, parallelism (rows/levels),\n"
    "dependency (entries/row) of a triangular solve, the longest row and the share\n"
    "of rows that read the row solved just before them (what decides the GPU\n"
    "thread engine's paths: rows of more than 512 entries go to a whole warp,\n"
    "warps of such chained short rows sweep).\n"
    "\n"
    "  --json    print a JSON document instead of text\n";

/* what info reports about one triangle */
typedef struct triangle_info {
    int present;        /* 1 if computed (square matrix) */
    int32_t nlevels;    /* levels of the solve */
    double parallelism; /* rows / levels */
    double dependency;  /* entries / row */
    int64_t nnz;        /* entries of the triangle */
    int64_t longest;    /* entries of its longest row (the GPU thread engine hands rows of
                           more than 512 to a whole warp) */
    double chained;     /* share of rows that read the row solved just before them (the
                           thread engine's warp sweep serves warps of such rows) */
} triangle_info;

/* what info reports about a file */
typedef struct matrix_info {
    int32_t nrows, ncols;       /* size */
    int64_t nnz_stored;         /* entries as stored in the file */
    int64_t nnz_expanded;       /* entries after symmetric expansion */
    domino_symmetry symmetry;   /* of the file */
    int is_pattern;             /* pattern file */
    int64_t diag_present;       /* diagonal entries stored */
    int64_t diag_zero;          /* of which numerically zero */
    int64_t diag_missing;       /* diagonal positions with no entry */
    triangle_info lower, upper; /* level structure */
} matrix_info;

static const char *symmetry_name(domino_symmetry s)
{
    return s == DOMINO_SYMMETRIC ? "symmetric" : s == DOMINO_SKEW_SYMMETRIC ? "skew-symmetric"
                                                                            : "general";
}

/* count the diagonal of the expanded CSR matrix A */
static void count_diagonal(const domino_matrix_view *v, matrix_info *info)
{
    int32_t ndiag = v->nrows < v->ncols ? v->nrows : v->ncols;
    for (int32_t i = 0; i < ndiag; i++) {
        int found = 0;
        for (int64_t k = v->ptr[i]; k < v->ptr[i + 1]; k++) {
            if (v->ind[k] != i) continue;
            found = 1;
            if (cli_get(v->type, v->val, k) == 0.0) info->diag_zero++;
        }
        if (found)
            info->diag_present++;
        else
            info->diag_missing++;
    }
}

/* the longest row of the fill triangle T (CSR) and the share of rows
 * holding the entry of the row solved just before them */
static void row_shape(const domino_matrix_view *v, domino_fill fill, triangle_info *t)
{
    int64_t chained = 0;
    t->longest = 0;
    for (int32_t i = 0; i < v->nrows; i++) {
        int64_t len = v->ptr[i + 1] - v->ptr[i];
        int32_t before = fill == DOMINO_LOWER ? i - 1 : i + 1;
        if (len > t->longest) t->longest = len;
        for (int64_t k = v->ptr[i]; k < v->ptr[i + 1]; k++)
            if (v->ind[k] == before) {
                chained++;
                break;
            }
    }
    t->chained = v->nrows > 1 ? (double)chained / (v->nrows - 1) : 0;
}

/* levels of the fill triangle of A (diagonal ensured) */
static domino_status triangle_levels(domino_handle h, domino_matrix A, domino_fill fill,
                                     triangle_info *t)
{
    domino_matrix T = NULL;
    domino_levels *levels = NULL;
    domino_matrix_view v;
    domino_status s = domino_matrix_triangle(h, A, fill, DOMINO_DIAG_ENSURE, &T);
    if (!s) s = domino_ref_levels(h, DOMINO_OP_N, fill, T, &levels);
    if (!s) s = domino_matrix_get_view(h, T, &v);
    if (!s) {
        t->present = 1;
        t->nlevels = levels->nlevels;
        t->parallelism = levels->parallelism;
        t->dependency = levels->dependency;
        t->nnz = v.nnz;
        row_shape(&v, fill, t);
    }
    domino_levels_free(levels);
    domino_matrix_free(T);
    return s;
}

/* read path and fill info */
static domino_status gather_info(domino_handle h, const char *path, matrix_info *info)
{
    domino_matrix stored = NULL, expanded = NULL;
    domino_matrix_view v;
    domino_status s = domino_mm_read(h, path, DOMINO_FLOAT64, DOMINO_MM_KEEP_STORED, &stored);
    if (s) goto cleanup;
    if ((s = domino_matrix_get_view(h, stored, &v))) goto cleanup;
    info->nrows = v.nrows;
    info->ncols = v.ncols;
    info->nnz_stored = v.nnz;
    info->symmetry = v.symmetry;
    info->is_pattern = v.is_pattern;
    if (v.symmetry != DOMINO_GENERAL) {
        if ((s = domino_matrix_symmetric_expand(h, stored, &expanded))) goto cleanup;
        if ((s = domino_matrix_get_view(h, expanded, &v))) goto cleanup;
    }
    info->nnz_expanded = v.nnz;
    count_diagonal(&v, info);
    if (v.nrows == v.ncols) {
        domino_matrix A = expanded ? expanded : stored;
        if ((s = triangle_levels(h, A, DOMINO_LOWER, &info->lower))) goto cleanup;
        if ((s = triangle_levels(h, A, DOMINO_UPPER, &info->upper))) goto cleanup;
    }
cleanup:
    domino_matrix_free(expanded);
    domino_matrix_free(stored);
    return s;
}

static void print_triangle_text(const char *name, const triangle_info *t)
{
    if (!t->present) {
        printf("%s triangle:  not square, no triangular solve\n", name);
        return;
    }
    printf("%s triangle:  nnz %lld, levels %d, parallelism %.1f rows/level, dependency %.2f nnz/row,\n"
           "                 longest row %lld, %.1f%% of rows read the row before\n",
           name, (long long)t->nnz, t->nlevels, t->parallelism, t->dependency,
           (long long)t->longest, 100.0 * t->chained);
}

static void print_text(const char *path, const matrix_info *m)
{
    printf("file:            %s\n", path);
    printf("size:            %d x %d\n", m->nrows, m->ncols);
    printf("nnz stored:      %lld\n", (long long)m->nnz_stored);
    printf("nnz expanded:    %lld\n", (long long)m->nnz_expanded);
    printf("symmetry:        %s\n", symmetry_name(m->symmetry));
    printf("values:          %s\n", m->is_pattern ? "pattern (no values)" : "real");
    printf("diagonal:        %lld present, %lld zero, %lld missing\n", (long long)m->diag_present,
           (long long)m->diag_zero, (long long)m->diag_missing);
    print_triangle_text("lower", &m->lower);
    print_triangle_text("upper", &m->upper);
}

static void print_triangle_json(const char *name, const triangle_info *t, int last)
{
    printf("  \"%s\": ", name);
    if (!t->present) {
        printf("null%s\n", last ? "" : ",");
        return;
    }
    printf("{\"nnz\": %lld, \"levels\": %d, \"parallelism\": ", (long long)t->nnz, t->nlevels);
    cli_json_number(stdout, t->parallelism);
    printf(", \"dependency\": ");
    cli_json_number(stdout, t->dependency);
    printf(", \"longest_row\": %lld, \"chained\": ", (long long)t->longest);
    cli_json_number(stdout, t->chained);
    printf("}%s\n", last ? "" : ",");
}

static void print_json(const char *path, const matrix_info *m)
{
    printf("{\n  \"file\": ");
    cli_json_string(stdout, path);
    printf(",\n  \"rows\": %d,\n  \"cols\": %d,\n", m->nrows, m->ncols);
    printf("  \"nnz_stored\": %lld,\n  \"nnz_expanded\": %lld,\n", (long long)m->nnz_stored,
           (long long)m->nnz_expanded);
    printf("  \"symmetry\": \"%s\",\n  \"pattern\": %s,\n", symmetry_name(m->symmetry),
           m->is_pattern ? "true" : "false");
    printf("  \"diagonal\": {\"present\": %lld, \"zero\": %lld, \"missing\": %lld},\n",
           (long long)m->diag_present, (long long)m->diag_zero, (long long)m->diag_missing);
    print_triangle_json("lower", &m->lower, 0);
    print_triangle_json("upper", &m->upper, 1);
    printf("}\n");
}

int cmd_info(int argc, char **argv)
{
    int json = 0;
    const opt_spec specs[] = {{"json", 0, OPT_FLAG, 0, 0, &json}, OPT_END};
    const char *pos[1];
    int npos = 0;
    int rc = opts_parse("info", info_usage, specs, argc, argv, 1, pos, 1, &npos);
    if (rc == OPTS_HELP) return 0;
    if (rc != OPTS_OK) return 2;
    if (npos != 1) return opts_usage_error("info", info_usage, "expected one FILE.mtx");

    domino_handle h = NULL;
    matrix_info info;
    memset(&info, 0, sizeof(info));
    if (domino_create(&h)) {
        fprintf(stderr, "domino info: cannot create a handle\n");
        return 1;
    }
    domino_set_progress(h, 1);
    domino_status s = gather_info(h, pos[0], &info);
    if (s) {
        rc = cli_fail(h, s, "info");
    } else {
        if (json)
            print_json(pos[0], &info);
        else
            print_text(pos[0], &info);
        rc = 0;
    }
    domino_destroy(h);
    return rc;
}
