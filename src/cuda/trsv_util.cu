/* trsv_util.cu: analysis kernels shared by the GPU triangular-solve engines:
 * diagonal check, status reset, stable triangle transpose, triangle copy
 * and row reversal, offset narrowing, and the copy-bandwidth probe. */
#include "gpu_internal.h"
#include "device_util.cuh"

#include <cub/cub.cuh>

__global__ void status_reset_kernel(domino_solve_status *st) { solve_status_reset(st); }

extern "C" cudaError_t domino_launch_status_reset(cudaStream_t stream, domino_solve_status *st)
{
    status_reset_kernel<<<1, 1, 0, stream>>>(st);
    return cudaGetLastError();
}

/* thread per logical row t (row n - 1 - t of an upper triangle): the
 * smallest row with no diagonal entry / a zero diagonal sum, the count of
 * rows with entries outside the triangle and, with longer >= 0, the most
 * rows of more than `longer` entries among a warp's 32 logical rows (as
 * long_rows_kernel).  Sorted rows (duplicates next to each other) are read
 * from the triangle's end: the diagonal there in one load, else a binary
 * search; unsorted rows are read whole. */
template <typename T>
__global__ void diag_check_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                  const int32_t *__restrict__ ind, const T *__restrict__ val,
                                  int upper, int sorted, int32_t longer, domino_solve_status *st)
{
    int32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    bool is_long = false;
    if (t < n) {
        int32_t i = upper ? n - 1 - t : t;
        int64_t b = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]);
        is_long = longer >= 0 && e - b > longer;
        bool found = false, outside = false;
        T d = 0;
        if (sorted && b < e) {
            int32_t j = __ldg(&ind[upper ? b : e - 1]); /* the entry at the triangle's end */
            outside = upper ? j < i : j > i;
            int64_t k = upper ? b : e - 1; /* where the run of column i begins (upper) or ends */
            int step = upper ? 1 : -1;
            if (outside) { /* the run's first entry: the first column >= i */
                int64_t lo = b, hi = e;
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (__ldg(&ind[mid]) < i) lo = mid + 1;
                    else hi = mid;
                }
                k = lo;
                step = 1;
            }
            for (; k >= b && k < e && __ldg(&ind[k]) == i; k += step) {
                found = true;
                d += __ldg(&val[k]);
            }
        } else {
            for (int64_t k = b; k < e; k++) {
                int32_t j = __ldg(&ind[k]);
                if (j == i) {
                    found = true;
                    d += __ldg(&val[k]);
                }
                outside |= upper ? j < i : j > i;
            }
        }
        if (!found) atomicMin(&st->missing_diag, i);
        else if (d == (T)0) atomicMin(&st->zero_pivot, i);
        if (outside) atomicAdd(&st->outside_rows, 1);
    }
    if (longer < 0) return;
    unsigned w = __ballot_sync(0xffffffffu, is_long); /* every thread of the warp gets here */
    if ((threadIdx.x & 31) == 0 && w) atomicMax(&st->long_rows, __popc(w));
}

extern "C" cudaError_t domino_launch_diag_check(cudaStream_t stream, domino_type type, int32_t n,
                                                const int64_t *ptr, const int32_t *ind,
                                                const void *val, int upper, int sorted,
                                                int32_t longer, domino_solve_status *st)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((int64_t)n + 255) / 256);
    if (type == DOMINO_FLOAT64)
        diag_check_kernel<double><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const double *)val, upper,
                                                              sorted, longer, st);
    else
        diag_check_kernel<float><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const float *)val, upper,
                                                             sorted, longer, st);
    return cudaGetLastError();
}

/* st->long_rows = max over warps of the rows longer than `longer` among a
 * warp's 32 logical rows (thread t: logical row t) */
__global__ void long_rows_kernel(int32_t n, const int64_t *__restrict__ ptr, int upper, int32_t longer,
                                 domino_solve_status *st)
{
    int32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    bool is_long = false;
    if (t < n) {
        int32_t i = upper ? n - 1 - t : t;
        is_long = __ldg(&ptr[i + 1]) - __ldg(&ptr[i]) > longer;
    }
    unsigned b = __ballot_sync(0xffffffffu, is_long); /* every thread of the warp gets here */
    if ((threadIdx.x & 31) == 0 && b) atomicMax(&st->long_rows, __popc(b));
}

extern "C" cudaError_t domino_launch_long_rows(cudaStream_t stream, int32_t n, const int64_t *ptr, int upper,
                                               int32_t longer, domino_solve_status *st)
{
    if (n == 0) return cudaSuccess;
    long_rows_kernel<<<(int)(((int64_t)n + 255) / 256), 256, 0, stream>>>(n, ptr, upper, longer, st);
    return cudaGetLastError();
}

/* count the triangle entries of each column: cnt[j] += 1 for (i, j) in T */
__global__ void column_count_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                    const int32_t *__restrict__ ind, int upper,
                                    unsigned long long *cnt)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int64_t k = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]); k < e; k++) {
        int32_t j = __ldg(&ind[k]);
        if (upper ? j >= i : j <= i) atomicAdd(&cnt[j], 1ULL);
    }
}

/* scatter entries of T into the rows of T^T; order inside a row fixed later */
template <typename T>
__global__ void column_scatter_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                      const int32_t *__restrict__ ind, const T *__restrict__ val,
                                      int upper, unsigned long long *next, int32_t *tind, T *tval)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int64_t k = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]); k < e; k++) {
        int32_t j = __ldg(&ind[k]);
        if (upper ? j >= i : j <= i) {
            unsigned long long pos = atomicAdd(&next[j], 1ULL);
            tind[pos] = i;
            tval[pos] = __ldg(&val[k]);
        }
    }
}

extern "C" size_t domino_scan_scratch_bytes(int32_t n)
{
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (int64_t *)NULL, (int64_t *)NULL, (int64_t)n + 1);
    return bytes;
}

/* sort the entries of each row of T^T by index (stable), so the pull
 * engines sum in a fixed order and results are deterministic */
template <typename T>
static cudaError_t sort_rows(cudaStream_t stream, int32_t n, int64_t nnz, const int64_t *tptr,
                             int32_t *tind, T *tval)
{
    int32_t *ind_out = NULL;
    T *val_out = NULL;
    void *tmp = NULL;
    size_t tmp_bytes = 0;
    cudaError_t e = cub::DeviceSegmentedSort::StableSortPairs(
        NULL, tmp_bytes, tind, tind, tval, tval, nnz, n, tptr, tptr + 1, stream);
    if (e) return e;
    if ((e = cudaMallocAsync((void **)&ind_out, nnz * sizeof(int32_t) + 16, stream))) goto done;
    if ((e = cudaMallocAsync((void **)&val_out, nnz * sizeof(T) + 16, stream))) goto done;
    if ((e = cudaMallocAsync(&tmp, tmp_bytes + 16, stream))) goto done;
    e = cub::DeviceSegmentedSort::StableSortPairs(tmp, tmp_bytes, tind, ind_out, tval, val_out,
                                                  nnz, n, tptr, tptr + 1, stream);
    if (e) goto done;
    if ((e = cudaMemcpyAsync(tind, ind_out, nnz * sizeof(int32_t), cudaMemcpyDeviceToDevice, stream)))
        goto done;
    e = cudaMemcpyAsync(tval, val_out, nnz * sizeof(T), cudaMemcpyDeviceToDevice, stream);
done:
    if (ind_out) cudaFreeAsync(ind_out, stream);
    if (val_out) cudaFreeAsync(val_out, stream);
    if (tmp) cudaFreeAsync(tmp, stream);
    return e;
}

extern "C" cudaError_t domino_launch_triangle_transpose(
    cudaStream_t stream, domino_type type, int32_t n, const int64_t *ptr, const int32_t *ind,
    const void *val, int upper, int64_t *tptr, int32_t *tind, void *tval, int64_t *work,
    void *scan_tmp, size_t scan_tmp_bytes, int64_t *nnz_out_host)
{
    cudaError_t e;
    int blocks = (int)(((int64_t)n + 255) / 256);
    unsigned long long *cnt = (unsigned long long *)work;
    if ((e = cudaMemsetAsync(cnt, 0, ((size_t)n + 1) * sizeof(int64_t), stream))) return e;
    if (n > 0) column_count_kernel<<<blocks, 256, 0, stream>>>(n, ptr, ind, upper, cnt);
    if ((e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_tmp_bytes, (int64_t *)cnt, tptr,
                                           (int64_t)n + 1, stream)))
        return e;
    if ((e = cudaMemcpyAsync(nnz_out_host, tptr + n, sizeof(int64_t), cudaMemcpyDeviceToHost, stream)))
        return e;
    if ((e = cudaMemcpyAsync(cnt, tptr, ((size_t)n + 1) * sizeof(int64_t), cudaMemcpyDeviceToDevice,
                             stream)))
        return e;
    if (n == 0) return cudaSuccess;
    if (type == DOMINO_FLOAT64) {
        column_scatter_kernel<double><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const double *)val,
                                                                  upper, cnt, tind, (double *)tval);
        if ((e = cudaStreamSynchronize(stream))) return e;
        return sort_rows<double>(stream, n, *nnz_out_host, tptr, tind, (double *)tval);
    }
    column_scatter_kernel<float><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const float *)val, upper,
                                                             cnt, tind, (float *)tval);
    if ((e = cudaStreamSynchronize(stream))) return e;
    return sort_rows<float>(stream, n, *nnz_out_host, tptr, tind, (float *)tval);
}

/* thread per row: cnt[i] = entries of row i in the triangle */
__global__ void row_count_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                 const int32_t *__restrict__ ind, int upper, int64_t *cnt)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n) return;
    int64_t c = 0;
    if (i < n)
        for (int64_t k = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]); k < e; k++) {
            int32_t j = __ldg(&ind[k]);
            c += upper ? j >= i : j <= i;
        }
    cnt[i] = c; /* cnt[n] = 0: the scan's total lands in tptr[n] */
}

/* thread per row: row i's triangle entries into tptr[i].., in stored order,
 * reversed when it holds rev_lo to rev_hi of them */
template <typename T>
__global__ void row_copy_kernel(int32_t n, const int64_t *__restrict__ ptr,
                                const int32_t *__restrict__ ind, const T *__restrict__ val,
                                int upper, int64_t rev_lo, int64_t rev_hi,
                                const int64_t *__restrict__ tptr, int32_t *tind, T *tval)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t len = tptr[i + 1] - tptr[i];
    bool reverse = len >= rev_lo && len <= rev_hi;
    int64_t at = reverse ? tptr[i + 1] - 1 : tptr[i], step = reverse ? -1 : 1;
    for (int64_t k = __ldg(&ptr[i]), e = __ldg(&ptr[i + 1]); k < e; k++) {
        int32_t j = __ldg(&ind[k]);
        if (upper ? j >= i : j <= i) {
            tind[at] = j;
            tval[at] = __ldg(&val[k]);
            at += step;
        }
    }
}

extern "C" cudaError_t domino_launch_triangle_copy(cudaStream_t stream, domino_type type, int32_t n,
                                                   const int64_t *ptr, const int32_t *ind,
                                                   const void *val, int upper, int64_t rev_lo,
                                                   int64_t rev_hi, int64_t *tptr, int32_t *tind, void *tval,
                                                   int64_t *work, void *scan_tmp,
                                                   size_t scan_tmp_bytes, int64_t *nnz_out_host)
{
    cudaError_t e;
    int blocks = (int)(((int64_t)n + 1 + 255) / 256);
    row_count_kernel<<<blocks, 256, 0, stream>>>(n, ptr, ind, upper, work);
    if ((e = cub::DeviceScan::ExclusiveSum(scan_tmp, scan_tmp_bytes, work, tptr, (int64_t)n + 1, stream)))
        return e;
    if ((e = cudaMemcpyAsync(nnz_out_host, tptr + n, sizeof(int64_t), cudaMemcpyDeviceToHost, stream)))
        return e;
    if (n == 0) return cudaSuccess;
    if (type == DOMINO_FLOAT64)
        row_copy_kernel<double><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const double *)val, upper,
                                                            rev_lo, rev_hi, tptr, tind, (double *)tval);
    else
        row_copy_kernel<float><<<blocks, 256, 0, stream>>>(n, ptr, ind, (const float *)val, upper,
                                                           rev_lo, rev_hi, tptr, tind, (float *)tval);
    return cudaGetLastError();
}

/* thread per row: its entries reversed in place when it holds rev_lo to
 * rev_hi of them */
template <typename T>
__global__ void reverse_rows_kernel(int32_t n, const int64_t *__restrict__ ptr, int64_t rev_lo,
                                    int64_t rev_hi, int32_t *ind, T *val)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t len = ptr[i + 1] - ptr[i];
    if (len < rev_lo || len > rev_hi) return;
    for (int64_t a = ptr[i], b = ptr[i + 1] - 1; a < b; a++, b--) {
        int32_t tj = ind[a];
        ind[a] = ind[b];
        ind[b] = tj;
        T tv = val[a];
        val[a] = val[b];
        val[b] = tv;
    }
}

extern "C" cudaError_t domino_launch_reverse_rows(cudaStream_t stream, domino_type type, int32_t n,
                                                  const int64_t *ptr, int64_t rev_lo, int64_t rev_hi,
                                                  int32_t *ind, void *val)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((int64_t)n + 255) / 256);
    if (type == DOMINO_FLOAT64)
        reverse_rows_kernel<double><<<blocks, 256, 0, stream>>>(n, ptr, rev_lo, rev_hi, ind, (double *)val);
    else
        reverse_rows_kernel<float><<<blocks, 256, 0, stream>>>(n, ptr, rev_lo, rev_hi, ind, (float *)val);
    return cudaGetLastError();
}

__global__ void offsets_to_int32_kernel(int32_t n1, const int64_t *in, int32_t *out)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n1) out[i] = (int32_t)in[i];
}

extern "C" cudaError_t domino_launch_offsets_to_int32(cudaStream_t stream, int32_t n1,
                                                      const int64_t *in, int32_t *out)
{
    if (n1 > 0) offsets_to_int32_kernel<<<(n1 + 255) / 256, 256, 0, stream>>>(n1, in, out);
    return cudaGetLastError();
}

/* median of 5 copies of 1 GiB (256 MiB where memory is short), read + write */
extern "C" double domino_measure_copy_bandwidth(cudaStream_t stream)
{
    size_t bytes = (size_t)1 << 30;
    void *a = NULL, *b = NULL;
    cudaEvent_t e0, e1;
    double best = 0;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
        cudaFree(a);
        cudaGetLastError();
        a = NULL;
        bytes >>= 2;
        if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
            cudaFree(a);
            cudaGetLastError();
            return 0;
        }
    }
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaMemsetAsync(a, 1, bytes, stream);
    cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
    float times[5];
    for (int r = 0; r < 5; r++) {
        cudaEventRecord(e0, stream);
        cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
        cudaEventRecord(e1, stream);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&times[r], e0, e1);
    }
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && times[j] < times[j - 1]; j--) {
            float t = times[j]; times[j] = times[j - 1]; times[j - 1] = t;
        }
    best = 2.0 * (double)bytes / (times[2] * 1e-3) / 1e9;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    return best;
}
