/* warp_round.cu: what a dependency hop costs inside one SM, by the way it
 * is handed over, to choose the step-block engine's next design (its
 * rounds cost ~200-300 ns on an H200, bench/results/h200-stepblock; the
 * thread engine's warp chain ~6 ns a row).  One block; each variant runs
 * HOPS hops of a chain (row r needs row r - 1) and prints cycles a hop.
 *   w-ballot      one warp: a hop = the owner lane adds, __ballot_sync
 *   w-shfl        one warp: x = __shfl_sync(x, r - 1) + 1, uniform
 *   w-shared      one warp: owner reads xw[r-1] from shared, writes xw[r];
 *                 __syncwarp and a ballot end the round (stepblock v3)
 *   w-shared-poll one warp: each lane spins on xw[r-1] (the sentinel) and
 *                 writes xw[r]; 32 hops a pass, no round
 *   b-sync        256 threads: owner reads xw[r-1], writes xw[r]; bar.sync
 *   b-red         the same with bar.red.or (stepblock v2's round)
 *   b-count       the same with bar.sync and an exit count kept in two
 *                 shared counters by parity (no bar.red)
 *   b-poll        256 threads: each thread spins on xw[r-1] (volatile),
 *                 no barrier (8 warps take turns)
 * With LOAD=1 the other 24 warps gather random doubles from a 512 MiB
 * array meanwhile (a loader's traffic).
 * Build: nvcc -O3 -arch=sm_90 -o warp_round warp_round.cu; run: ./warp_round */
#include <stdio.h>
#include <stdint.h>

#include "barriers.cuh"

#define HOPS 4096
#define PENDING (-1.0)


__global__ void hops(int variant, int load, const double *big, size_t big_n, long long *out, double *sink)
{
    __shared__ double xw[HOPS + 1];
    __shared__ int cnt[2];
    const int t = threadIdx.x, lane = t & 31;
    for (int i = t; i <= HOPS; i += blockDim.x) xw[i] = i == 0 ? 0.0 : PENDING;
    if (t < 2) cnt[t] = 0;
    __syncthreads();
    if (t >= 256) { /* background loaders */
        if (load) {
            double s = 0;
            unsigned long long h = 0x9e3779b97f4a7c15ULL * (t + 1);
            for (int k = 0; k < 20000; k++) {
                h ^= h << 13; h ^= h >> 7; h ^= h << 17;
                s += big[h % big_n];
            }
            sink[t] = s;
        }
        return;
    }
    const bool w = variant < 4;
    if (w && t >= 32) return;
    volatile double *v = xw;
    long long c0 = clock64();
    double x = 0;
    int acc = 0;
    if (variant == 0) {
        for (int r = 1; r <= HOPS; r++) {
            if (lane == (r & 31)) x += 1.0;
            acc += __ballot_sync(0xffffffffu, x > 0) & 1;
        }
    } else if (variant == 1) {
        for (int r = 1; r <= HOPS; r++) x = __shfl_sync(0xffffffffu, x, (r - 1) & 31) + 1.0;
    } else if (variant == 2) {
        for (int r = 1; r <= HOPS; r++) {
            if (lane == (r & 31)) v[r] = v[r - 1] + 1.0;
            __syncwarp();
            acc += __ballot_sync(0xffffffffu, 1) & 1;
        }
    } else if (variant == 3) {
        for (int r = 1 + lane; r <= HOPS; r += 32) {
            double p;
            while ((p = v[r - 1]) == PENDING)
                ;
            v[r] = p + 1.0;
        }
    } else if (variant == 4 || variant == 5) {
        for (int r = 1; r <= HOPS; r++) {
            if ((r & 255) == t) v[r] = v[r - 1] + 1.0;
            if (variant == 4) bar1();
            else acc += red_or((r & 255) == t);
        }
    } else if (variant == 6) {
        int seen0 = 0, seen1 = 0;
        for (int r = 1; r <= HOPS; r++) {
            if ((r & 255) == t) {
                v[r] = v[r - 1] + 1.0;
                atomicAdd(&cnt[r & 1], 1);
            }
            bar1();
            int c = *(volatile int *)&cnt[r & 1];
            if (r & 1) acc += c - seen1, seen1 = c; else acc += c - seen0, seen0 = c;
        }
    } else {
        for (int r = 1 + t; r <= HOPS; r += 256) {
            double p;
            while ((p = v[r - 1]) == PENDING)
                ;
            v[r] = p + 1.0;
        }
    }
    long long c1 = clock64();
    if (t == 0) {
        out[0] = c1 - c0;
        out[1] = acc + (long long)x + (long long)xw[HOPS];
    }
}

int main(void)
{
    size_t big_n = (size_t)64 << 20; /* 512 MiB of doubles */
    double *big, *sink;
    long long *out, h[2];
    cudaMalloc(&big, big_n * sizeof(double));
    cudaMemset(big, 0, big_n * sizeof(double));
    cudaMalloc(&sink, 1024 * sizeof(double));
    cudaMalloc(&out, 2 * sizeof(long long));
    const char *names[] = {"w-ballot", "w-shfl", "w-shared", "w-shared-poll",
                           "b-sync", "b-red", "b-count", "b-poll"};
    for (int load = 0; load < 2; load++)
        for (int variant = 0; variant < 8; variant++) {
            hops<<<1, 1024>>>(variant, load, big, big_n, out, sink); /* warm */
            hops<<<1, 1024>>>(variant, load, big, big_n, out, sink);
            cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
            printf("warp_round %-14s load=%d %8.1f cycles a hop%s\n", names[variant], load,
                   (double)h[0] / HOPS, e ? " (error)" : "");
        }
    return 0;
}
