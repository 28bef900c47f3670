/* barriers.cuh: the two named barriers of 256 threads the microbenchmarks
 * time (barrier 1): bar.red.or (returns whether any thread passed a
 * nonzero v) and bar.sync */
#ifndef DOMINO_MICRO_BARRIERS_CUH
#define DOMINO_MICRO_BARRIERS_CUH

__device__ __forceinline__ int red_or(int v)
{
    int r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\tbar.red.or.pred q, 1, 256, p;\n\t"
                 "selp.s32 %0, 1, 0, q;\n\t}" : "=r"(r) : "r"(v) : "memory");
    return r;
}
__device__ __forceinline__ void bar1(void) { asm volatile("bar.sync 1, 256;" ::: "memory"); }

#endif
