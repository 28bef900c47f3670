/* bench_report.c: write the results of "domino bench" as a table, JSON or CSV */
#define _POSIX_C_SOURCE 200809L
#include "bench_report.h"
#include "cli_util.h"
#include "internal.h"

#include <string.h>
#include <unistd.h>

int bench_report_add(bench_report *r, const bench_row *row)
{
    if (r->count == r->capacity) {
        int capacity = r->capacity ? 2 * r->capacity : 16;
        bench_row *rows = domino_realloc(r->rows, (size_t)capacity * sizeof(bench_row));
        if (!rows) return -1;
        r->rows = rows;
        r->capacity = capacity;
    }
    r->rows[r->count++] = *row;
    return 0;
}

void bench_report_free(bench_report *r)
{
    domino_free(r->rows);
    r->rows = NULL;
    r->count = r->capacity = 0;
}

double bench_bytes(domino_type t, int32_t n, int64_t nnz)
{
    double value = (double)domino_type_size(t);
    return (double)nnz * (value + 4.0) + ((double)n + 1.0) * 8.0 + 2.0 * (double)n * value;
}

const char *bench_bytes_formula(domino_type t)
{
    return t == DOMINO_FLOAT64 ? "(nnz*(8+4) + (n+1)*8 + 2*n*8) / solve time"
                               : "(nnz*(4+4) + (n+1)*8 + 2*n*4) / solve time";
}

void bench_print_table_header(FILE *f, const bench_report *r)
{
    fprintf(f, "# effective GB/s = %s  (values %zu B + int32 column index per entry, int64 row "
               "offsets, vectors b and x of %zu B)\n",
            bench_bytes_formula(r->type), domino_type_size(r->type), domino_type_size(r->type));
    fprintf(f, "# solve ms: median of %d timed runs after warm-up runs (GPU: up to 8); speedup vs cusparse when it "
               "ran, else vs cpu-seq; %s values\n",
            r->repeat, cli_type_name(r->type));
    if (r->has_gpu) fprintf(f, "# device: %s, copy bandwidth %.1f GB/s\n", r->device, r->copy_gbs);
    fprintf(f, "%-26s %10s %11s %8s %-13s %11s %10s %8s %8s %9s  %s\n", "problem", "n", "nnz",
            "levels", "engine", "analysis_ms", "solve_ms", "GB/s", "speedup", "residual", "status");
}

void bench_print_table_row(FILE *f, const bench_row *row)
{
    char engine[80];
    if (strcmp(row->engine, row->used) != 0 && row->used[0])
        snprintf(engine, sizeof(engine), "%s>%s", row->engine, row->used);
    else
        snprintf(engine, sizeof(engine), "%s", row->engine);
    fprintf(f, "%-26s %10d %11lld %8d %-13s %11.3f %10.3f %8.2f %8.2f %9.2e  %s\n", row->problem,
            row->n, (long long)row->nnz, row->nlevels, engine, row->analysis_ms, row->solve_ms,
            row->gbs, row->speedup, row->residual, row->status);
    fflush(f);
}

/* one result as a JSON object */
static void json_row(FILE *f, const bench_row *row)
{
    fprintf(f, "    {\"problem\": ");
    cli_json_string(f, row->problem);
    fprintf(f, ", \"n\": %d, \"nnz\": %lld, \"levels\": %d, \"parallelism\": ", row->n,
            (long long)row->nnz, row->nlevels);
    cli_json_number(f, row->parallelism);
    fprintf(f, ", \"dependency\": ");
    cli_json_number(f, row->dependency);
    fprintf(f, ",\n     \"engine\": ");
    cli_json_string(f, row->engine);
    fprintf(f, ", \"engine_used\": ");
    cli_json_string(f, row->used);
    fprintf(f, ", \"analysis_ms\": ");
    cli_json_number(f, row->analysis_ms);
    fprintf(f, ", \"solve_ms\": ");
    cli_json_number(f, row->solve_ms);
    fprintf(f, ", \"solve_ms_min\": ");
    cli_json_number(f, row->solve_ms_min);
    fprintf(f, ", \"first_solve_ms\": ");
    cli_json_number(f, row->first_ms);
    fprintf(f, ", \"gbs\": ");
    cli_json_number(f, row->gbs);
    fprintf(f, ",\n     \"speedup\": ");
    cli_json_number(f, row->speedup);
    fprintf(f, ", \"speedup_vs\": ");
    cli_json_string(f, row->baseline);
    fprintf(f, ", \"residual\": ");
    cli_json_number(f, row->residual);
    fprintf(f, ", \"max_rel_diff\": ");
    cli_json_number(f, row->diff);
    fprintf(f, ", \"passed\": %s, \"status\": ", row->failed ? "false" : "true");
    cli_json_string(f, row->status);
    fprintf(f, "}");
}

void bench_write_json(FILE *f, const bench_report *r)
{
    char date[64], host[256];
    cli_utc_date(date, sizeof(date));
    if (gethostname(host, sizeof(host)) != 0) strcpy(host, "unknown");
    host[sizeof(host) - 1] = '\0';
    fprintf(f, "{\n  \"command\": ");
    cli_json_string(f, cli_command_line());
    fprintf(f, ",\n  \"date\": \"%s\",\n  \"host\": ", date);
    cli_json_string(f, host);
    fprintf(f, ",\n  \"device\": ");
    if (r->has_gpu) {
        cli_json_string(f, r->device);
        fprintf(f, ",\n  \"device_copy_gbs\": ");
        cli_json_number(f, r->copy_gbs);
    } else {
        fprintf(f, "null,\n  \"device_copy_gbs\": null");
    }
    fprintf(f, ",\n  \"suite\": ");
    cli_json_string(f, r->suite);
    fprintf(f, ",\n  \"type\": \"%s\",\n  \"repeat\": %d,\n  \"gbs_formula\": ",
            cli_type_name(r->type), r->repeat);
    cli_json_string(f, bench_bytes_formula(r->type));
    fprintf(f, ",\n  \"results\": [\n");
    for (int i = 0; i < r->count; i++) {
        json_row(f, &r->rows[i]);
        fprintf(f, "%s\n", i + 1 < r->count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/* a CSV field: quoted when it holds a comma or quote */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void bench_write_csv(FILE *f, const bench_report *r)
{
    fprintf(f, "problem,n,nnz,levels,parallelism,dependency,engine,engine_used,analysis_ms,"
               "solve_ms,solve_ms_min,first_solve_ms,gbs,speedup,speedup_vs,residual,max_rel_diff,passed,status\n");
    for (int i = 0; i < r->count; i++) {
        const bench_row *row = &r->rows[i];
        csv_field(f, row->problem);
        fprintf(f, ",%d,%lld,%d,%.6g,%.6g,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s,%.6g,%.6g,%d,", row->n,
                (long long)row->nnz, row->nlevels, row->parallelism, row->dependency, row->engine,
                row->used, row->analysis_ms, row->solve_ms, row->solve_ms_min, row->first_ms, row->gbs,
                row->speedup, row->baseline, row->residual, row->diff, row->failed ? 0 : 1);
        csv_field(f, row->status);
        fputc('\n', f);
    }
}
