/* factor_box.cuh: device helpers shared by the box path of the GPU IC(0) /
 * ILU(0) (factor_box.cu: a thread a row) and by grid lines
 * (factor_box_lines.cu): the 3x3x3 box's slots as compile-time constants
 * (domino_factor_box_* in factor_plan.h), a row's values found by its mask. */
#ifndef DOMINO_FACTOR_BOX_CUH
#define DOMINO_FACTOR_BOX_CUH

#include "factor_plan.h"

#define BOX_THREADS 128     /* threads a block */
#define BOX_LOWER DOMINO_FACTOR_BOX_LOWER
#define FULL_MASK 0xffffffffu

#define box_dx domino_factor_box_dx
#define box_dy domino_factor_box_dy
#define box_dz domino_factor_box_dz
#define box_index domino_factor_box_index
#define box_ilu_slot domino_factor_box_ilu_slot
#define box_ic_slot domino_factor_box_ic_slot

/* position of slot s in a row that starts at p with mask m (27 bits) */
__device__ __forceinline__ int64_t box_at(int64_t p, uint32_t m, int s)
{
    return p + __popc(m & ((1u << s) - 1u));
}

/* Values of row k a step reads: ILU(0) u_kq for the slots t > s that row k
 * meets, IC(0) l_k,s2 for the slots s2 row i meets (compile-time tests) */
__device__ __forceinline__ bool box_reads(int kind, int s, int t)
{
    return kind == 0 ? box_ilu_slot(s, t) >= 0 : (t < BOX_LOWER && box_ic_slot(s, t) >= 0);
}
/* the slot of row k that step s reads for t, and the slot of row i whose
 * mask bit says whether it exists */
__device__ __forceinline__ int box_k_slot(int kind, int s, int t) { return kind == 0 ? box_ilu_slot(s, t) : t; }
__device__ __forceinline__ int box_i_slot(int kind, int s, int t) { return kind == 0 ? t : box_ic_slot(s, t); }

/* 8 bytes from global to shared memory without registers (cp.async, sm_80 on) */
__device__ __forceinline__ void box_copy_async(double *dst, const double *src)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(d), "l"(src) : "memory");
}
__device__ __forceinline__ void box_copy_wait(void)
{
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
}

/* The rows k of row i's steps s in [S0, S1) (row i at x, y, z, mask m;
 * its factor row at pf): row k starts at pf + dk[s - S0], its mask mk. */
template <int S0, int S1>
__device__ __forceinline__ void box_rows(const factor_stencil_args &a, int32_t i, int32_t x, int32_t y, int32_t z,
                                         uint32_t m, int64_t pf, const int64_t *__restrict__ ptr, int32_t *dk,
                                         uint32_t *mk)
{
#pragma unroll
    for (int s = S0; s < S1; s++) {
        const int32_t k = i + box_dx(s) + a.nx * (box_dy(s) + a.ny * box_dz(s));
        dk[s - S0] = (m >> s & 1) ? (int32_t)(__ldg(&ptr[k]) - pf) : 0;
        mk[s - S0] = (m >> s & 1) ? (uint32_t)domino_factor_row_mask(&a, x + box_dx(s), y + box_dy(s),
                                                                     z + box_dz(s))
                                  : 0u;
    }
}
#endif
