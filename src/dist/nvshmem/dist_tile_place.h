/* dist_tile_place.h: putting tiles of a global CSR into symmetric windows (internal) */
#ifndef DOMINO_DIST_TILE_PLACE_H
#define DOMINO_DIST_TILE_PLACE_H

#include "internal.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* tile (r, c) of the global CSR X cut at rows rs and columns cs: its row
 * offsets narrowed to int32 into ptr, its local column indices into ind
 * and its values into val (device, this PE's windows).  A cut that fails
 * sets *s (named on h); a copy that fails is the returned error. */
cudaError_t dist_place_tile(domino_handle h, domino_matrix X, const int64_t *rs, const int64_t *cs, int r, int c,
                            int32_t *ptr, int32_t *ind, void *val, domino_status *s);

#ifdef __cplusplus
}
#endif
#endif
