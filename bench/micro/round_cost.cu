/* round_cost.cu: cycles per round of the step-block engine's pattern, by
 * variant, on one block of 1024 threads (256 in the rounds, 768 parked at a
 * barrier of their own, as the loader groups are between steps).
 *   0 bar.sync 1,256 alone
 *   1 bar.red.or 1,256 alone
 *   2 chain through shared memory: the round's owner reads the value the
 *     previous round wrote, adds, writes; bar.red.or
 *   3 as 2, and the owner also stores its value to global memory
 *   4 as 2 with bar.sync instead of bar.red.or (no exit test)
 *   5 as 3 with the global store to a buffer read back never, st.global.cg
 * Build: nvcc -O3 -arch=sm_90 -o round_cost round_cost.cu; run: ./round_cost */
#include <stdio.h>
#include <stdint.h>

#include "barriers.cuh"

#define ROUNDS 4096


__global__ void rounds(int variant, double *g, long long *out)
{
    __shared__ double xw[ROUNDS + 1];
    int t = threadIdx.x;
    for (int i = t; i <= ROUNDS; i += blockDim.x) xw[i] = 0.0;
    __syncthreads();
    if (t >= 256) { /* the parked "loaders" */
        asm volatile("bar.sync 2, 768;" ::: "memory");
        return;
    }
    volatile double *v = xw;
    long long c0 = clock64();
    int acc = 0;
    for (int r = 1; r <= ROUNDS; r++) {
        bool own = (r & 255) == t;
        if (variant == 0) { bar1(); continue; }
        if (variant == 1) { acc += red_or(own); continue; }
        if (own) {
            double x = v[r - 1] + 1.0;
            v[r] = x;
            if (variant == 3) g[r] = x;
            if (variant == 5) __stcg(&g[r], x);
        }
        if (variant == 4) bar1();
        else acc += red_or(own);
    }
    long long c1 = clock64();
    if (t == 0) { out[0] = c1 - c0; out[1] = acc; }
}

int main(void)
{
    double *g;
    long long *out, h[2];
    cudaMalloc(&g, (ROUNDS + 1) * sizeof(double));
    cudaMalloc(&out, 2 * sizeof(long long));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const char *names[] = {"bar.sync", "bar.red.or", "chain shared + red.or", "chain + st.global",
                           "chain + bar.sync", "chain + st.global.cg"};
    for (int variant = 0; variant < 6; variant++) {
        rounds<<<1, 1024>>>(variant, g, out); /* warm */
        cudaEventRecord(e0);
        rounds<<<1, 1024>>>(variant, g, out);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        printf("round_cost %-24s %7.1f cycles/round %7.1f ns/round (kernel)\n", names[variant],
               (double)h[0] / ROUNDS, 1e6 * ms / ROUNDS);
    }
    return 0;
}
