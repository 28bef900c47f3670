/* cli_util.c: helpers shared by the domino subcommands (vectors, checks, JSON) */
#include "cli_util.h"
#include "internal.h"
#include "opts.h"

#include <math.h>
#include <string.h>
#include <time.h>

static char command_line[4096];

void cli_set_command_line(int argc, char **argv)
{
    size_t used = 0;
    command_line[0] = '\0';
    for (int i = 0; i < argc && used + 1 < sizeof(command_line); i++) {
        int wrote = snprintf(command_line + used, sizeof(command_line) - used, "%s%s",
                             i ? " " : "", argv[i]);
        if (wrote < 0) break;
        used += (size_t)wrote;
    }
    if (used >= sizeof(command_line)) command_line[sizeof(command_line) - 1] = '\0';
}

const char *cli_command_line(void) { return command_line; }

int cli_fail(domino_handle h, domino_status s, const char *cmd)
{
    const char *msg = domino_last_error(h);
    /* these statuses name a row, counted from 0 by the library, from 1 by a
     * Matrix Market file */
    int names_row = s == DOMINO_ZERO_DIAGONAL || s == DOMINO_ZERO_PIVOT;
    fprintf(stderr, "domino %s: %s%s\n", cmd, msg && *msg ? msg : "failed",
            names_row ? " (rows counted from 0; the Matrix Market file counts from 1)" : "");
    return 1;
}

int cli_no_nvshmem(const char *cmd)
{
    fprintf(stderr, "domino %s: this build has no NVSHMEM (the multi-GPU solvers need it: set "
                    "NVSHMEM_HOME or pip install nvidia-nvshmem-cu13==3.4.5, and rebuild)\n", cmd);
    return 1;
}

double cli_get(domino_type t, const void *v, int64_t i)
{
    return t == DOMINO_FLOAT64 ? ((const double *)v)[i] : (double)((const float *)v)[i];
}

void cli_set(domino_type t, void *v, int64_t i, double value)
{
    if (t == DOMINO_FLOAT64)
        ((double *)v)[i] = value;
    else
        ((float *)v)[i] = (float)value;
}

void *cli_zero_block(domino_type t, int32_t n, int32_t nrhs)
{
    size_t count = (size_t)(n > 0 ? n : 1) * (size_t)(nrhs > 0 ? nrhs : 1);
    return domino_calloc(count, domino_type_size(t));
}

void *cli_true_solution(domino_type t, int32_t n, int32_t nrhs)
{
    void *x = cli_zero_block(t, n, nrhs);
    if (!x) return NULL;
    for (int32_t j = 0; j < nrhs; j++)
        for (int32_t i = 0; i < n; i++)
            cli_set(t, x, (int64_t)j * n + i, (1.0 + (double)(i % 7) / 8.0) * (double)(j + 1));
    return x;
}

domino_status cli_make_rhs(domino_handle h, domino_op op, domino_diag diag, domino_matrix T,
                           int32_t nrhs, const void *X, void *B)
{
    domino_matrix_view v;
    domino_status s = domino_matrix_get_view(h, T, &v);
    if (s) return s;
    size_t es = domino_type_size(v.type);
    int32_t n = v.nrows;
    for (int32_t j = 0; j < nrhs; j++) {
        const char *xj = (const char *)X + (size_t)j * (size_t)n * es;
        char *bj = (char *)B + (size_t)j * (size_t)n * es;
        if (diag == DOMINO_UNIT)
            memcpy(bj, xj, (size_t)n * es);
        else
            memset(bj, 0, (size_t)n * es);
        s = domino_ref_spmv(h, op, 1.0, T, xj, diag == DOMINO_UNIT ? 1.0 : 0.0, bj);
        if (s) return s;
    }
    return DOMINO_SUCCESS;
}

domino_status cli_read_triangle(domino_handle h, const char *path, domino_type t, int upper, int unit,
                                int *is_pattern, domino_matrix *T)
{
    domino_matrix A = NULL;
    domino_matrix_view v;
    domino_status s = domino_mm_read(h, path, t, 0, &A);
    if (!s) s = domino_matrix_get_view(h, A, &v);
    if (!s) {
        domino_diag_policy policy = unit ? DOMINO_DIAG_DROP : v.is_pattern ? DOMINO_DIAG_DOMINANT : DOMINO_DIAG_KEEP;
        *is_pattern = v.is_pattern;
        s = domino_matrix_triangle(h, A, upper ? DOMINO_UPPER : DOMINO_LOWER, policy, T);
    }
    domino_matrix_free(A);
    return s;
}

double cli_max_rel_diff(domino_type t, int64_t count, const void *x, const void *y)
{
    double worst = 0;
    for (int64_t i = 0; i < count; i++) {
        double a = cli_get(t, x, i), b = cli_get(t, y, i);
        double scale = fabs(b) > 1e-300 ? fabs(b) : 1e-300;
        double d = fabs(a - b) / scale;
        if (!(d <= worst)) worst = d; /* NaN propagates */
    }
    return worst;
}

double cli_residual_tol(domino_type t) { return t == DOMINO_FLOAT64 ? 1e-10 : 1e-4; }

double cli_diff_tol(domino_type t) { return t == DOMINO_FLOAT64 ? 1e-8 : 1e-3; }

const char *cli_type_name(domino_type t) { return t == DOMINO_FLOAT64 ? "double" : "float"; }

void cli_print_answer(int json, double residual, double forward_error, int passed)
{
    if (!json) {
        printf("residual:       %.3e (scaled)\n", residual);
        printf("forward error:  %.3e (max relative)\n", forward_error);
        printf("check:          %s\n", passed ? "ok" : "FAILED");
        return;
    }
    printf(",\n  \"residual\": ");
    cli_json_number(stdout, residual);
    printf(",\n  \"forward_error\": ");
    cli_json_number(stdout, forward_error);
    printf(",\n  \"passed\": %s\n}\n", passed ? "true" : "false");
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void cli_json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

void cli_utc_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm_utc;
    struct tm *p = gmtime(&now);
    if (!p) {
        snprintf(buf, len, "unknown");
        return;
    }
    tm_utc = *p;
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm_utc);
}

int cli_parse_grid(const char *text, domino_stencil s, int32_t *nx, int32_t *ny, int32_t *nz)
{
    int64_t dims[3] = {0, 0, 0};
    int ndims = 0;
    char part[32];
    const char *p = text;
    while (p && *p) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        if (ndims == 3 || len == 0 || len >= sizeof(part)) return -1;
        memcpy(part, p, len);
        part[len] = '\0';
        if (opts_parse_int(part, 1, 2147483647, &dims[ndims])) return -1;
        ndims++;
        p = x ? x + 1 : NULL;
        if (x && !*p) return -1;
    }
    if (ndims == 0) return -1;
    int is_2d = s == DOMINO_D2N5 || s == DOMINO_D2N9;
    if (ndims == 1) {
        dims[1] = dims[0];
        dims[2] = is_2d ? 1 : dims[0];
    } else if (ndims == 2) {
        dims[2] = 1;
    }
    if (is_2d && dims[2] != 1) return -1;
    if (dims[0] * dims[1] > 2147483647 || dims[0] * dims[1] * dims[2] > 2147483647) return -1;
    *nx = (int32_t)dims[0];
    *ny = (int32_t)dims[1];
    *nz = (int32_t)dims[2];
    return 0;
}
