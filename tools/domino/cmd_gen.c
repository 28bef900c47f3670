/* cmd_gen.c: "domino gen": write a generated matrix (stencil, R-MAT, random DAG) */
#include "cli_util.h"
#include "commands.h"
#include "domino.h"
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char gen_usage[] =
    "usage: domino gen stencil --type NAME --grid NX[xNY[xNZ]] [--part full|lower|upper] -o FILE\n"
    "       domino gen rmat --scale S [--edge-factor 8] [--abcd 0.6,0.1333,0.1333,0.1334]\n"
    "                       [--seed N] -o FILE\n"
    "       domino gen dag --rows N --per-row K --levels L [--band B] [--seed N] -o FILE\n"
    "\n"
    "Writes a Matrix Market file (compressed when FILE ends in .gz).\n"
    "  stencil  d2n5, d2n9, d3n7, d3n13, d3n19, d3n27, d3n33 on a grid (one N: square\n"
    "           for 2D, cube for 3D); off-diagonals -1, diagonal = points\n"
    "  rmat     R-MAT graph of 2^S vertices, edge-factor*2^S edges, values 1\n"
    "  dag      random lower-triangular matrix with exactly L levels, about K entries\n"
    "           per row, diagonally dominant; --band B keeps dependencies within B rows\n"
    "  -o, --output FILE   where to write (required)\n";

/* write A to path and report it; exit code */
static int write_matrix(domino_handle h, domino_matrix A, const char *path)
{
    domino_matrix_view v;
    domino_status s;
    if ((s = domino_mm_write(h, path, A)) || (s = domino_matrix_get_view(h, A, &v)))
        return cli_fail(h, s, "gen");
    fprintf(stderr, "domino gen: wrote %s: %d x %d, nnz %lld\n", path, v.nrows, v.ncols,
            (long long)v.nnz);
    return 0;
}

/* parse "a,b,c,d" into four probabilities summing to 1; 0 on success */
static int parse_abcd(const char *text, double p[4])
{
    char buf[128];
    if (strlen(text) >= sizeof(buf)) return -1;
    strcpy(buf, text);
    char *cur = buf;
    double sum = 0;
    for (int k = 0; k < 4; k++) {
        char *comma = strchr(cur, ',');
        if ((k < 3) != (comma != NULL)) return -1;
        if (comma) *comma = '\0';
        if (opts_parse_double(cur, 0.0, 1.0, &p[k])) return -1;
        sum += p[k];
        cur = comma ? comma + 1 : cur;
    }
    if (fabs(sum - 1.0) > 1e-3) return -1;
    for (int k = 0; k < 4; k++) p[k] /= sum;
    p[3] = 1.0 - p[0] - p[1] - p[2];
    return 0;
}

static int gen_stencil(domino_handle h, int argc, char **argv)
{
    const char *type = NULL, *grid = NULL, *part = "full", *out = NULL;
    const opt_spec specs[] = {{"type", 0, OPT_STRING, 0, 0, &type},
                              {"grid", 0, OPT_STRING, 0, 0, &grid},
                              {"part", 0, OPT_STRING, 0, 0, &part},
                              {"output", 'o', OPT_STRING, 0, 0, &out},
                              OPT_END};
    const char *pos[1];
    int npos, rc = opts_parse("gen", gen_usage, specs, argc, argv, 2, pos, 0, &npos);
    if (rc) return rc == OPTS_HELP ? 0 : 2;
    domino_stencil s;
    domino_part p;
    int32_t nx, ny, nz;
    if (!type || !grid || !out)
        return opts_usage_error("gen", gen_usage, "stencil needs --type, --grid and -o");
    if (domino_stencil_parse(type, &s))
        return opts_usage_error("gen", gen_usage, "--type: unknown stencil '%s'", type);
    if (cli_parse_grid(grid, s, &nx, &ny, &nz))
        return opts_usage_error("gen", gen_usage, "--grid: bad grid '%s' for %s", grid, type);
    if (strcmp(part, "full") == 0)
        p = DOMINO_PART_FULL;
    else if (strcmp(part, "lower") == 0)
        p = DOMINO_PART_LOWER;
    else if (strcmp(part, "upper") == 0)
        p = DOMINO_PART_UPPER;
    else
        return opts_usage_error("gen", gen_usage, "--part: '%s' is not full, lower or upper", part);
    domino_matrix A = NULL;
    domino_status st = domino_gen_stencil(h, s, nx, ny, nz, p, DOMINO_FLOAT64, &A);
    if (st) return cli_fail(h, st, "gen");
    rc = write_matrix(h, A, out);
    domino_matrix_free(A);
    return rc;
}

static int gen_rmat(domino_handle h, int argc, char **argv)
{
    int64_t scale = -1, edge_factor = 8, seed = 1;
    const char *abcd = "0.6,0.1333,0.1333,0.1334", *out = NULL;
    const opt_spec specs[] = {{"scale", 0, OPT_INT, 1, 30, &scale},
                              {"edge-factor", 0, OPT_INT, 1, 4096, &edge_factor},
                              {"abcd", 0, OPT_STRING, 0, 0, &abcd},
                              {"seed", 0, OPT_INT, 0, 9e18, &seed},
                              {"output", 'o', OPT_STRING, 0, 0, &out},
                              OPT_END};
    const char *pos[1];
    int npos, rc = opts_parse("gen", gen_usage, specs, argc, argv, 2, pos, 0, &npos);
    if (rc) return rc == OPTS_HELP ? 0 : 2;
    double p[4];
    if (scale < 0 || !out) return opts_usage_error("gen", gen_usage, "rmat needs --scale and -o");
    if (parse_abcd(abcd, p))
        return opts_usage_error("gen", gen_usage,
                                "--abcd: '%s' is not four probabilities a,b,c,d summing to 1", abcd);
    domino_matrix A = NULL;
    domino_status s = domino_gen_rmat(h, (int)scale, (int)edge_factor, p[0], p[1], p[2], p[3],
                                      (uint64_t)seed, DOMINO_FLOAT64, &A);
    if (s) return cli_fail(h, s, "gen");
    rc = write_matrix(h, A, out);
    domino_matrix_free(A);
    return rc;
}

static int gen_dag(domino_handle h, int argc, char **argv)
{
    int64_t rows = -1, per_row = -1, levels = -1, band = 0, seed = 1;
    const char *out = NULL;
    const opt_spec specs[] = {{"rows", 0, OPT_INT, 1, 2147483647, &rows},
                              {"per-row", 0, OPT_INT, 1, 100000, &per_row},
                              {"levels", 0, OPT_INT, 1, 2147483647, &levels},
                              {"band", 0, OPT_INT, 0, 2147483647, &band},
                              {"seed", 0, OPT_INT, 0, 9e18, &seed},
                              {"output", 'o', OPT_STRING, 0, 0, &out},
                              OPT_END};
    const char *pos[1];
    int npos, rc = opts_parse("gen", gen_usage, specs, argc, argv, 2, pos, 0, &npos);
    if (rc) return rc == OPTS_HELP ? 0 : 2;
    if (rows < 0 || per_row < 0 || levels < 0 || !out)
        return opts_usage_error("gen", gen_usage, "dag needs --rows, --per-row, --levels and -o");
    if (levels > rows)
        return opts_usage_error("gen", gen_usage, "--levels %lld is more than --rows %lld",
                                (long long)levels, (long long)rows);
    domino_matrix A = NULL;
    domino_status s = domino_gen_dag(h, (int32_t)rows, (int32_t)per_row, (int32_t)levels,
                                     (int32_t)band, (uint64_t)seed, DOMINO_FLOAT64, &A);
    if (s) return cli_fail(h, s, "gen");
    rc = write_matrix(h, A, out);
    domino_matrix_free(A);
    return rc;
}

int cmd_gen(int argc, char **argv)
{
    if (argc < 2) return opts_usage_error("gen", gen_usage, "expected stencil, rmat or dag");
    const char *kind = argv[1];
    if (strcmp(kind, "--help") == 0 || strcmp(kind, "-h") == 0) {
        fputs(gen_usage, stdout);
        return 0;
    }
    int (*gen)(domino_handle, int, char **) = NULL;
    if (strcmp(kind, "stencil") == 0)
        gen = gen_stencil;
    else if (strcmp(kind, "rmat") == 0)
        gen = gen_rmat;
    else if (strcmp(kind, "dag") == 0)
        gen = gen_dag;
    else
        return opts_usage_error("gen", gen_usage, "unknown generator '%s' (stencil, rmat, dag)", kind);
    domino_handle h = NULL;
    if (domino_create(&h)) {
        fprintf(stderr, "domino gen: cannot create a handle\n");
        return 1;
    }
    domino_set_progress(h, 1);
    int rc = gen(h, argc, argv);
    domino_destroy(h);
    return rc;
}
