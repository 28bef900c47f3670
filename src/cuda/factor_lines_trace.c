/* factor_lines_trace.c: DOMINO_FACTOR_LINES_TRACE, the per-chunk times of
 * the box path's ILU(0) and IC(0) by grid lines (factor_box_lines_kernel), written as
 * CSV for bench/lines_trace.py.  An experiment's tool: the launch waits for
 * the kernel, and a file that cannot be written is said on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include "factor_plan.h"

cudaError_t domino_factor_lines_trace_write(const char *file, cudaStream_t stream,
                                            const unsigned long long *trace, int32_t chunks, int fields,
                                            const factor_stencil_args *a, int32_t batch,
                                            const int32_t *line_order, int warps)
{
    const int64_t lines = (int64_t)a->ny * a->nz;
    const size_t words = (size_t)lines * (size_t)batch * (size_t)chunks * (size_t)fields;
    unsigned long long *h = malloc(words * sizeof(*h));
    int32_t *order = malloc((size_t)lines * sizeof(*order));
    FILE *f = NULL;
    cudaError_t e = cudaErrorMemoryAllocation;
    if (!h || !order) goto done;
    if ((e = cudaMemcpyAsync(h, trace, words * sizeof(*h), cudaMemcpyDeviceToHost, stream)) ||
        (e = cudaMemcpyAsync(order, line_order, (size_t)lines * sizeof(*order), cudaMemcpyDeviceToHost,
                             stream)) ||
        (e = cudaStreamSynchronize(stream)))
        goto done;
    if (!(f = fopen(file, "w"))) {
        fprintf(stderr, "domino: DOMINO_FACTOR_LINES_TRACE: cannot write %s\n", file);
        goto done;
    }
    /* g_*: globaltimer ns; c_*: SM clock cycles since the chunk began
     * (polled: box_line_wait done; copied: the lines one key behind copied
     * and checked; steps: their steps done; scan: the in-line scan done) */
    fprintf(f, "# nx=%d ny=%d nz=%d batch=%d warps=%d\n", a->nx, a->ny, a->nz, batch, warps);
    fprintf(f, "ticket,b,y,z,chunk,x0,g_start,g_polled,g_end,c_polled,c_copied,c_steps,c_scan,c_end,"
               "rounds,late_steps,sm,walked\n");
    for (int64_t t = 0; t < lines * batch; t++) {
        const int32_t line = order[t / batch], y = line % a->ny, z = line / a->ny;
        for (int32_t c = 0; c < chunks; c++) {
            const unsigned long long *r = h + ((size_t)t * (size_t)chunks + (size_t)c) * (size_t)fields;
            const int32_t x0 = -((y + 2 * z) & 31) + 32 * c;
            if (x0 >= a->nx || r[0] == 0) continue;
            fprintf(f, "%lld,%lld,%d,%d,%d,%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
                    (long long)t, (long long)(t % batch), y, z, c, x0, r[0], r[1], r[2], r[3], r[4], r[5],
                    r[6], r[7], r[8], r[9], r[10], r[11]);
        }
    }
    if (fclose(f)) fprintf(stderr, "domino: DOMINO_FACTOR_LINES_TRACE: cannot write %s\n", file);
    f = NULL;
    e = cudaSuccess;
done:
    if (f) fclose(f);
    free(h);
    free(order);
    return e;
}
