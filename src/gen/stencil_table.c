/* stencil_table.c: names, sizes and offsets of the generator stencils */
#include "internal.h"

#include <ctype.h>
#include <string.h>

static const char *const stencil_names[] = {"D2N5",  "D2N9",  "D3N7", "D3N13",
                                            "D3N19", "D3N27", "D3N33"};
static const int stencil_sizes[] = {5, 9, 7, 13, 19, 27, 33};
#define STENCIL_COUNT 7

static int abs_int(int v) { return v < 0 ? -v : v; }

/* 1 if offset (dx, dy, dz) belongs to stencil s */
static int stencil_has(domino_stencil s, int dx, int dy, int dz)
{
    int ax = abs_int(dx), ay = abs_int(dy), az = abs_int(dz);
    int box_max = ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az);
    int manhattan = ax + ay + az;
    int on_axis = (ax != 0) + (ay != 0) + (az != 0) <= 1;
    switch (s) {
    case DOMINO_D2N5: return dz == 0 && manhattan <= 1;
    case DOMINO_D2N9: return dz == 0 && box_max <= 1;
    case DOMINO_D3N7: return manhattan <= 1;
    case DOMINO_D3N13: return on_axis && box_max <= 2;
    case DOMINO_D3N19: return box_max <= 1 && manhattan <= 2;
    case DOMINO_D3N27: return box_max <= 1;
    case DOMINO_D3N33: return box_max <= 1 || (on_axis && box_max == 2);
    }
    return 0;
}

/* parse a stencil name, case-insensitive: "d3n27", "D2N5", ... */
domino_status domino_stencil_parse(const char *name, domino_stencil *s)
{
    if (!name || !s)
        return domino_error(NULL, DOMINO_NULL_POINTER, "domino_stencil_parse: name or s is NULL");
    for (int k = 0; k < STENCIL_COUNT; k++) {
        const char *want = stencil_names[k];
        size_t len = strlen(want), i = 0;
        while (i < len && name[i] && toupper((unsigned char)name[i]) == want[i]) i++;
        if (i == len && name[len] == '\0') {
            *s = (domino_stencil)k;
            return DOMINO_SUCCESS;
        }
    }
    return domino_error(NULL, DOMINO_INVALID_VALUE,
                        "domino_stencil_parse: unknown stencil \"%s\" (d2n5, d2n9, d3n7, d3n13, "
                        "d3n19, d3n27, d3n33)",
                        name);
}

/* "D3N27" etc., "unknown" for a bad value */
const char *domino_stencil_name(domino_stencil s)
{
    if ((int)s < 0 || (int)s >= STENCIL_COUNT) return "unknown";
    return stencil_names[s];
}

/* number of points of s, 0 for a bad value */
int domino_stencil_points(domino_stencil s)
{
    if ((int)s < 0 || (int)s >= STENCIL_COUNT) return 0;
    return stencil_sizes[s];
}

/* offsets of s in increasing linear order (dz, then dy, then dx), written
 * as off[3k..3k+2] = dx, dy, dz; returns the number of points, 0 for a bad
 * value or NULL off */
int domino_stencil_offsets(domino_stencil s, int *off)
{
    if (!off || (int)s < 0 || (int)s >= STENCIL_COUNT) return 0;
    int count = 0;
    for (int dz = -2; dz <= 2; dz++)
        for (int dy = -2; dy <= 2; dy++)
            for (int dx = -2; dx <= 2; dx++) {
                if (!stencil_has(s, dx, dy, dz)) continue;
                off[3 * count] = dx;
                off[3 * count + 1] = dy;
                off[3 * count + 2] = dz;
                count++;
            }
    return count;
}
