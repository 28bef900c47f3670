/* bench_problems.c: parse, build and list the problems of "domino bench" */
#define _POSIX_C_SOURCE 200809L
#include "bench_problems.h"
#include "cli_util.h"
#include "internal.h"
#include "opts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* split text at ':' into at most max fields (copied into buf); returns the count */
static int split_fields(const char *text, char *buf, size_t buf_len, char **fields, int max)
{
    int count = 0;
    if (strlen(text) >= buf_len) return -1;
    strcpy(buf, text);
    char *cur = buf;
    while (cur && count < max) {
        fields[count++] = cur;
        char *colon = strchr(cur, ':');
        if (colon) *colon = '\0';
        cur = colon ? colon + 1 : NULL;
    }
    return cur ? -1 : count;
}

/* field as an int32 in [min, max]; 0 on success */
static int field_int(const char *field, int64_t min, int64_t max, int32_t *value)
{
    int64_t v;
    if (opts_parse_int(field, min, max, &v)) return -1;
    *value = (int32_t)v;
    return 0;
}

static int parse_dag(char **f, int nf, problem_spec *spec, char *why, size_t why_len)
{
    spec->band = 0;
    if ((nf != 4 && nf != 5) || field_int(f[1], 1, 2147483647, &spec->rows) ||
        field_int(f[2], 1, 100000, &spec->per_row) ||
        field_int(f[3], 1, spec->rows, &spec->levels) ||
        (nf == 5 && field_int(f[4], 0, 2147483647, &spec->band))) {
        snprintf(why, why_len, "dag problems are dag:ROWS:PERROW:LEVELS[:BAND] with LEVELS <= ROWS");
        return -1;
    }
    spec->kind = PROBLEM_DAG;
    if (spec->band)
        snprintf(spec->name, sizeof(spec->name), "dag:%d:%d:%d:%d", spec->rows, spec->per_row,
                 spec->levels, spec->band);
    else
        snprintf(spec->name, sizeof(spec->name), "dag:%d:%d:%d", spec->rows, spec->per_row,
                 spec->levels);
    return 0;
}

static int parse_rmat(char **f, int nf, problem_spec *spec, char *why, size_t why_len)
{
    int32_t scale, edge_factor = 8;
    if ((nf != 2 && nf != 3) || field_int(f[1], 1, 30, &scale) ||
        (nf == 3 && field_int(f[2], 1, 4096, &edge_factor))) {
        snprintf(why, why_len, "rmat problems are rmat:SCALE[:EDGEFACTOR] with SCALE in 1..30");
        return -1;
    }
    spec->kind = PROBLEM_RMAT;
    spec->scale = scale;
    spec->edge_factor = edge_factor;
    snprintf(spec->name, sizeof(spec->name), "rmat:%d", scale);
    if (edge_factor != 8)
        snprintf(spec->name, sizeof(spec->name), "rmat:%d:%d", scale, edge_factor);
    return 0;
}

static int parse_stencil(const char *name, const char *grid, const char *side, problem_spec *spec,
                         char *why, size_t why_len)
{
    if (domino_stencil_parse(name, &spec->stencil) ||
        cli_parse_grid(grid, spec->stencil, &spec->nx, &spec->ny, &spec->nz) ||
        (side && strcmp(side, "upper") != 0 && strcmp(side, "lower") != 0)) {
        snprintf(why, why_len, "bad stencil problem '%s:%s%s%s' (NAME:N or NAME:NXxNY[xNZ], then "
                 "optionally :lower or :upper)", name, grid, side ? ":" : "", side ? side : "");
        return -1;
    }
    spec->kind = PROBLEM_STENCIL;
    spec->fill = side && strcmp(side, "upper") == 0 ? DOMINO_UPPER : DOMINO_LOWER;
    const char *suffix = spec->fill == DOMINO_UPPER ? ":upper" : "";
    if (spec->nz > 1)
        snprintf(spec->name, sizeof(spec->name), "%s:%dx%dx%d%s", domino_stencil_name(spec->stencil),
                 spec->nx, spec->ny, spec->nz, suffix);
    else
        snprintf(spec->name, sizeof(spec->name), "%s:%dx%d%s", domino_stencil_name(spec->stencil),
                 spec->nx, spec->ny, suffix);
    return 0;
}

static int parse_file(const char *text, problem_spec *spec, char *why, size_t why_len)
{
    if (strlen(text) >= sizeof(spec->path)) {
        snprintf(why, why_len, "path too long");
        return -1;
    }
    spec->kind = PROBLEM_FILE;
    strcpy(spec->path, text);
    const char *slash = strrchr(text, '/');
    snprintf(spec->name, sizeof(spec->name), "%s", slash ? slash + 1 : text);
    return 0;
}

int problem_spec_parse(const char *text, problem_spec *spec, char *why, size_t why_len)
{
    char buf[1024];
    char *f[6];
    domino_stencil st;
    memset(spec, 0, sizeof(*spec));
    int nf = split_fields(text, buf, sizeof(buf), f, 6);
    if (nf >= 2 && strcmp(f[0], "dag") == 0) return parse_dag(f, nf, spec, why, why_len);
    if (nf >= 2 && strcmp(f[0], "rmat") == 0) return parse_rmat(f, nf, spec, why, why_len);
    if ((nf == 3 || nf == 4) && strcmp(f[0], "stencil") == 0)
        return parse_stencil(f[1], f[2], nf == 4 ? f[3] : NULL, spec, why, why_len);
    if ((nf == 2 || nf == 3) && domino_stencil_parse(f[0], &st) == DOMINO_SUCCESS)
        return parse_stencil(f[0], f[1], nf == 3 ? f[2] : NULL, spec, why, why_len);
    if (nf == 1 || strstr(text, ".mtx") || strchr(text, '/')) return parse_file(text, spec, why, why_len);
    snprintf(why, why_len,
             "unknown problem '%s' (STENCIL:GRID, dag:ROWS:PERROW:LEVELS[:BAND], rmat:SCALE, or a .mtx file)",
             text);
    return -1;
}

/* the triangle of the problem, before any solve */
static domino_status build_triangle(domino_handle h, const problem_spec *spec, domino_type type,
                                    domino_matrix *T)
{
    domino_matrix A = NULL;
    domino_status s;
    switch (spec->kind) {
    case PROBLEM_STENCIL:
        return domino_gen_stencil(h, spec->stencil, spec->nx, spec->ny, spec->nz,
                                  spec->fill == DOMINO_UPPER ? DOMINO_PART_UPPER : DOMINO_PART_LOWER,
                                  type, T);
    case PROBLEM_DAG:
        return domino_gen_dag(h, spec->rows, spec->per_row, spec->levels, spec->band, 1, type, T);
    case PROBLEM_RMAT:
        /* Graph500 parameters */
        s = domino_gen_rmat(h, spec->scale, spec->edge_factor, 0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3, 1, type, &A);
        break;
    default:
        s = domino_mm_read(h, spec->path, type, 0, &A);
        break;
    }
    if (!s) s = domino_matrix_triangle(h, A, spec->fill, DOMINO_DIAG_DOMINANT, T);
    domino_matrix_free(A);
    return s;
}

domino_status bench_problem_build(domino_handle h, const problem_spec *spec, domino_type type,
                                  bench_problem *p)
{
    domino_matrix_view v;
    double start = domino_wtime();
    memset(p, 0, sizeof(*p));
    p->type = type;
    domino_status s = build_triangle(h, spec, type, &p->T);
    if (s || (s = domino_matrix_get_view(h, p->T, &v))) goto cleanup;
    p->n = v.nrows;
    p->nnz = v.nnz;
    p->x_true = cli_true_solution(type, p->n, 1);
    p->b = cli_zero_block(type, p->n, 1);
    p->x_ref = cli_zero_block(type, p->n, 1);
    if (!p->x_true || !p->b || !p->x_ref) {
        s = domino_error(h, DOMINO_OUT_OF_MEMORY, "bench: out of memory for vectors of %d rows", p->n);
        goto cleanup;
    }
    if ((s = cli_make_rhs(h, DOMINO_OP_N, DOMINO_NON_UNIT, p->T, 1, p->x_true, p->b))) goto cleanup;
    s = domino_ref_trsv(h, DOMINO_OP_N, spec->fill, DOMINO_NON_UNIT, p->T, 1, p->b, p->n, p->x_ref,
                        p->n);
    if (s || (s = domino_ref_levels(h, DOMINO_OP_N, spec->fill, p->T, &p->levels))) goto cleanup;
    p->solve.T = p->T;
    p->solve.op = DOMINO_OP_N;
    p->solve.fill = spec->fill;
    p->solve.is_stencil = spec->kind == PROBLEM_STENCIL;
    p->solve.stencil = spec->stencil;
    p->solve.nx = spec->nx;
    p->solve.ny = spec->ny;
    p->solve.nz = spec->nz;
    p->solve.diag = DOMINO_NON_UNIT;
    p->solve.n = p->n;
    p->solve.nrhs = 1;
    p->solve.B = p->b;
    p->build_seconds = domino_wtime() - start;
cleanup:
    if (s) bench_problem_free(p);
    return s;
}

void bench_problem_free(bench_problem *p)
{
    if (!p) return;
    solve_problem_release(&p->solve);
    domino_matrix_free(p->T);
    domino_levels_free(p->levels);
    domino_free(p->x_true);
    domino_free(p->b);
    domino_free(p->x_ref);
    memset(p, 0, sizeof(*p));
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_matrix_file(const char *name)
{
    size_t len = strlen(name);
    return (len > 4 && strcmp(name + len - 4, ".mtx") == 0) ||
           (len > 7 && strcmp(name + len - 7, ".mtx.gz") == 0);
}

/* append the matrix files of dir (sorted) to specs; returns the new count */
static int add_matrix_files(const char *dir, problem_spec *specs, int count, int max)
{
    char *names[512];
    int nnames = 0;
    char why[256];
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "domino bench: warning: no matrices folder '%s' (set DOMINO_MATRICES)\n", dir);
        return count;
    }
    for (struct dirent *e = readdir(d); e && nnames < 512; e = readdir(d))
        if (is_matrix_file(e->d_name)) names[nnames++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)nnames, sizeof(char *), compare_strings);
    for (int i = 0; i < nnames; i++) {
        char path[1024];
        if (names[i] && count < max) {
            snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
            if (problem_spec_parse(path, &specs[count], why, sizeof(why)) == 0) count++;
        }
        free(names[i]);
    }
    return count;
}

/* the generated problems of the suite: sizes of the GPU suite or (quick) about 1/8 */
static const char *const suite_full[] = {
    "d2n5:1024x1024", "d2n5:2048x2048", "d3n7:128", "d3n7:192", "d3n27:128", "d3n27:192",
    "dag:1000000:8:1", "dag:1000000:8:10", "dag:1000000:8:100", "dag:1000000:8:1000",
    "dag:1000000:8:10000", "dag:1000000:8:100000", "dag:10000000:8:1", "dag:10000000:8:10",
    "dag:10000000:8:100", "dag:10000000:8:1000", "dag:10000000:8:10000",
    "dag:10000000:8:100000", "dag:1000000:2:1000000", "dag:1000000:8:100000:100", "rmat:20",
    "rmat:21", "rmat:22", NULL};
static const char *const suite_quick[] = {
    "d2n5:128x128", "d2n5:256x256", "d3n7:16", "d3n7:24", "d3n27:16", "d3n27:24",
    "dag:125000:8:1", "dag:125000:8:10", "dag:125000:8:100", "dag:125000:8:1000",
    "dag:125000:8:10000", "dag:125000:8:100000", "dag:250000:8:1", "dag:250000:8:10",
    "dag:250000:8:100", "dag:125000:2:125000", "dag:125000:8:12500:100", "rmat:14",
    "rmat:15", NULL};

int bench_suite_trsv(int quick, const char *matrices_dir, problem_spec **specs, int *count)
{
    const int max = 512 + 32;
    const char *const *generated = quick ? suite_quick : suite_full;
    char why[256];
    *count = 0;
    *specs = calloc((size_t)max, sizeof(problem_spec));
    if (!*specs) return -1;
    int n = add_matrix_files(matrices_dir, *specs, 0, max);
    for (int i = 0; generated[i] && n < max; i++)
        if (problem_spec_parse(generated[i], &(*specs)[n], why, sizeof(why)) == 0) n++;
    *count = n;
    return 0;
}

int bench_suite_stencil(int quick, problem_spec **specs, int *count)
{
    static const char *const stencils[] = {"d3n7", "d3n13", "d3n27", "d3n33"};
    static const int full_sizes[] = {64, 128, 192, 256}, quick_sizes[] = {16, 24};
    const int *sizes = quick ? quick_sizes : full_sizes;
    int nsizes = quick ? 2 : 4, n = 0;
    char name[64], why[256];
    *count = 0;
    *specs = calloc((size_t)(4 * nsizes * 2), sizeof(problem_spec));
    if (!*specs) return -1;
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < nsizes; k++)
            for (int side = 0; side < 2; side++) {
                snprintf(name, sizeof(name), "%s:%d:%s", stencils[s], sizes[k], side ? "upper" : "lower");
                if (problem_spec_parse(name, &(*specs)[n], why, sizeof(why)) == 0) n++;
            }
    *count = n;
    return 0;
}

domino_status bench_problem_product_matrix(domino_handle h, const problem_spec *spec, int use_float, domino_matrix *A)
{
    domino_matrix M = NULL, T = NULL;
    domino_status s = DOMINO_INVALID_VALUE;
    *A = NULL;
    if (spec->kind == PROBLEM_RMAT)
        s = domino_gen_rmat(h, spec->scale, spec->edge_factor > 0 ? spec->edge_factor : 8, 0.6, 0.4 / 3, 0.4 / 3,
                            0.4 / 3, 1, DOMINO_FLOAT64, &M);
    else if (spec->kind == PROBLEM_STENCIL && spec->fill == DOMINO_LOWER) /* no ":upper" */
        s = domino_gen_stencil(h, spec->stencil, spec->nx, spec->ny, spec->nz, DOMINO_PART_FULL, DOMINO_FLOAT64, &M);
    else if (spec->kind == PROBLEM_FILE)
        s = domino_mm_read(h, spec->path, DOMINO_FLOAT64, 0, &M);
    if (!s && use_float) {
        s = domino_matrix_cast(h, M, DOMINO_FLOAT32, &T);
        domino_matrix_free(M);
        M = T;
    }
    if (s) domino_matrix_free(M);
    else *A = M;
    return s;
}
