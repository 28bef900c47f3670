/* device_util.cuh: memory-model helpers of the CUDA kernels: the "pending"
 * sentinel that makes a value its own ready flag, relaxed GPU-scope loads and
 * stores (L2-coherent), and warp reductions.
 *
 * Why relaxed is enough: a solved x_j is published by one single-copy-atomic
 * store of the value itself; a reader polls that word until it no longer
 * holds the sentinel.  The value is the only datum the flag would guard, so
 * no acquire/release pair is needed (PTX ISA, memory consistency model:
 * morally-strong relaxed accesses to the same location are coherent).
 * Where a flag guards other data (CSC push: partial sums then a counter),
 * the writer fences and the reader acquires. */
#ifndef DOMINO_DEVICE_UTIL_CUH
#define DOMINO_DEVICE_UTIL_CUH

#include <stdint.h>

/* signalling-NaN bit patterns no arithmetic produces */
#define DOMINO_PENDING64 0x7ff4dead0badf00dULL
#define DOMINO_PENDING32 0x7fa0dead

__device__ __forceinline__ bool is_pending(double v)
{
    return (unsigned long long)__double_as_longlong(v) == DOMINO_PENDING64;
}
__device__ __forceinline__ bool is_pending(float v)
{
    return __float_as_int(v) == (int)DOMINO_PENDING32;
}
__device__ __forceinline__ void make_pending(double *v) { *v = __longlong_as_double((long long)DOMINO_PENDING64); }
__device__ __forceinline__ void make_pending(float *v) { *v = __int_as_float((int)DOMINO_PENDING32); }
/* a solved value that happens to carry the sentinel bits becomes a quiet NaN */
__device__ __forceinline__ double publishable(double v) { return is_pending(v) ? __longlong_as_double(0x7ff8000000000000LL) : v; }
__device__ __forceinline__ float publishable(float v) { return is_pending(v) ? __int_as_float(0x7fc00000) : v; }

/* bring the line holding p into L1 (no register written) */
__device__ __forceinline__ void prefetch_l1(const void *p)
{
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

__device__ __forceinline__ double load_relaxed(const double *p)
{
    double v;
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ float load_relaxed(const float *p)
{
    float v;
    asm volatile("ld.relaxed.gpu.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
/* v = *p (load_relaxed) where take, else v unchanged, as one predicated
 * load: no branch, so the warp stays converged for the compiler (a load
 * only some lanes make in a branch leaves ptxas assuming the warp
 * diverged, and the shuffles after it become collective sequences,
 * WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE) */
__device__ __forceinline__ double load_relaxed_if(bool take, const double *p, double v)
{
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\t@q ld.relaxed.gpu.global.f64 %0, [%1];\n\t}"
                 : "+d"(v) : "l"(p), "r"((unsigned)take) : "memory");
    return v;
}
__device__ __forceinline__ float load_relaxed_if(bool take, const float *p, float v)
{
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\t@q ld.relaxed.gpu.global.f32 %0, [%1];\n\t}"
                 : "+f"(v) : "l"(p), "r"((unsigned)take) : "memory");
    return v;
}
__device__ __forceinline__ int32_t load_relaxed_i32(const int32_t *p)
{
    int32_t v;
    asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ int32_t load_acquire_i32(const int32_t *p)
{
    int32_t v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
/* block-scope acquire load and release store of a counter (generic
 * address: shared memory in the step-block kernels; a fence would also
 * wait for the thread's outstanding stores to global memory) */
__device__ __forceinline__ int32_t load_acquire_cta_i32(const int32_t *p)
{
    int32_t v;
    asm volatile("ld.acquire.cta.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void store_release_cta_i32(int32_t *p, int32_t v)
{
    asm volatile("st.release.cta.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
/* the same acquire on a word known to be in shared memory: an LDS, where
 * the generic form is a slower generic load (the one-warp step solver
 * polls its ring tags with it) */
__device__ __forceinline__ int32_t load_acquire_cta_shared_i32(const int32_t *p)
{
    int32_t v;
    asm volatile("ld.acquire.cta.shared.s32 %0, [%1];"
                 : "=r"(v)
                 : "r"((unsigned)__cvta_generic_to_shared(p))
                 : "memory");
    return v;
}
/* relaxed block-scope loads and stores of values in shared memory: the
 * tiled stencil solve's line buffers, whose values are their own flags
 * (plain LDS / STS, no fence).  The load: v = *p where take, else v
 * unchanged, one predicated load as load_relaxed_if. */
__device__ __forceinline__ double load_relaxed_shared_if(bool take, const double *p, double v)
{
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\t@q ld.relaxed.cta.shared.f64 %0, [%1];\n\t}"
                 : "+d"(v)
                 : "r"((unsigned)__cvta_generic_to_shared(p)), "r"((unsigned)take)
                 : "memory");
    return v;
}
__device__ __forceinline__ float load_relaxed_shared_if(bool take, const float *p, float v)
{
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\t@q ld.relaxed.cta.shared.f32 %0, [%1];\n\t}"
                 : "+f"(v)
                 : "r"((unsigned)__cvta_generic_to_shared(p)), "r"((unsigned)take)
                 : "memory");
    return v;
}
__device__ __forceinline__ void store_relaxed_shared(double *p, double v)
{
    asm volatile("st.relaxed.cta.shared.f64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(p)), "d"(v)
                 : "memory");
}
__device__ __forceinline__ void store_relaxed_shared(float *p, float v)
{
    asm volatile("st.relaxed.cta.shared.f32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(p)), "f"(v)
                 : "memory");
}
__device__ __forceinline__ void store_relaxed(double *p, double v)
{
    asm volatile("st.relaxed.gpu.global.f64 [%0], %1;" ::"l"(p), "d"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed(float *p, float v)
{
    asm volatile("st.relaxed.gpu.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
/* relaxed at system scope: a value another GPU reads (or a store that crosses NVLink) */
__device__ __forceinline__ void store_relaxed_sys(double *p, double v)
{
    asm volatile("st.relaxed.sys.global.f64 [%0], %1;" ::"l"(p), "d"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed_sys(float *p, float v)
{
    asm volatile("st.relaxed.sys.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed_i32(int32_t *p, int32_t v)
{
    asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ uint64_t global_timer_ns(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
template <typename T> __device__ __forceinline__ T warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* x[i] once it is published: spin on the sentinel */
template <typename T> __device__ __forceinline__ T wait_published(const T *x, int64_t i)
{
    T v = load_relaxed(&x[i]);
    while (is_pending(v)) {
        __nanosleep(32);
        v = load_relaxed(&x[i]);
    }
    return v;
}

/* a wait's back-off: sleep *ns, then double it up to cap */
__device__ __forceinline__ void back_off(unsigned *ns, int cap)
{
    __nanosleep(*ns);
    if (*ns < (unsigned)cap) *ns <<= 1;
}

/* 1 if a value xv[k] of a neighbour (nb[k] >= 0) is still pending */
template <typename T, typename I, int K>
__device__ __forceinline__ bool any_pending(const I *nb, const T *xv)
{
    bool missing = false;
#pragma unroll
    for (int k = 0; k < K; k++) missing |= nb[k] >= 0 && is_pending(xv[k]);
    return missing;
}

/* Wait until none of the loaded values xv[k] (of x[nb[k]], nb[k] >= 0) is
 * pending: every round reloads all the pending ones together, so a round
 * costs one memory latency however many are missing; rounds back off from
 * 32 ns up to cap. */
template <typename T, typename I, int K>
__device__ __forceinline__ void wait_pending(const T *x, const I *nb, T *xv, int cap)
{
    unsigned ns = 32;
    for (;;) {
        if (!any_pending<T, I, K>(nb, xv)) return;
        back_off(&ns, cap);
#pragma unroll
        for (int k = 0; k < K; k++)
            if (nb[k] >= 0 && is_pending(xv[k])) xv[k] = load_relaxed(&x[nb[k]]);
    }
}

/* wait_pending for a warp whose lanes go on together (a scan or shuffles
 * after it): rounds until no lane misses a value (a vote), the loads
 * predicated (load_relaxed_if), so that the compiler sees no divergence:
 * after wait_pending's per-lane loop ptxas made every later shuffle of
 * the stencil solve a collective sequence */
template <typename T, typename I, int K>
__device__ __forceinline__ void wait_pending_warp(const T *x, const I *nb, T *xv, int cap)
{
    unsigned ns = 32;
    for (;;) {
        if (!__any_sync(0xffffffffu, any_pending<T, I, K>(nb, xv))) return;
        back_off(&ns, cap);
#pragma unroll
        for (int k = 0; k < K; k++)
            xv[k] = load_relaxed_if(nb[k] >= 0 && is_pending(xv[k]), &x[nb[k] >= 0 ? nb[k] : 0], xv[k]);
    }
}

/* wait_pending with the addresses made once, before the first round: the
 * loads' memory clobber made the compiler rebuild them from the kernel
 * parameters every round (54 instructions a round of three values in the
 * factorization row kernel, 44% of its instructions on D3N27 64^3; now 15).
 * The row kernel's waits (bench/results/h100-precond17: 1-7% faster on
 * D3N27, 11-15% on whitaker3 and luxembourg ILU(0)).  The scan path lost
 * 13-22% with it (not understood: its registers did not grow, 59-64
 * either way) and the stencil solve neither gained nor lost, so they keep
 * wait_pending. */
template <typename T, typename I, int K>
__device__ __forceinline__ void wait_pending_pinned(const T *x, const I *nb, T *xv, int cap)
{
    bool need[K];
    bool missing = false;
#pragma unroll
    for (int k = 0; k < K; k++) {
        need[k] = nb[k] >= 0 && is_pending(xv[k]);
        missing |= need[k];
    }
    if (!missing) return;
    const T *at[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        at[k] = x + (nb[k] >= 0 ? nb[k] : 0);
        asm volatile("" : "+l"(at[k])); /* kept in a register, not rebuilt each round */
    }
    unsigned ns = 32;
    while (missing) {
        back_off(&ns, cap);
#pragma unroll
        for (int k = 0; k < K; k++)
            if (need[k]) xv[k] = load_relaxed(at[k]);
        missing = false;
#pragma unroll
        for (int k = 0; k < K; k++) {
            need[k] = need[k] && is_pending(xv[k]);
            missing |= need[k];
        }
    }
}

#endif
