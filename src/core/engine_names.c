/* engine_names.c: names of the GPU triangular-solve engines and default options */
#include "internal.h"

#include <string.h>

static const char *const engine_names[DOMINO_ENGINE_COUNT] = {
    "auto", "levelset", "warp", "thread", "csc", "cusparse", "stencil", "block", "levelblock", "stepblock"};

const char *domino_engine_name(domino_engine e)
{
    if ((int)e < 0 || (int)e >= DOMINO_ENGINE_COUNT) return "unknown";
    return engine_names[e];
}

domino_status domino_engine_parse(const char *name, domino_engine *e)
{
    if (!name || !e) return domino_error(NULL, DOMINO_NULL_POINTER, "domino_engine_parse: NULL argument");
    for (int i = 0; i < DOMINO_ENGINE_COUNT; i++) {
        if (strcmp(name, engine_names[i]) == 0) {
            *e = (domino_engine)i;
            return DOMINO_SUCCESS;
        }
    }
    return domino_error(NULL, DOMINO_INVALID_VALUE,
                        "unknown engine '%s' (auto, levelset, warp, thread, csc, cusparse, stencil, block, "
                        "levelblock, stepblock)", name);
}

void domino_trsv_options_init(domino_trsv_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof(*opt));
    opt->engine = DOMINO_ENGINE_AUTO;
}

void domino_stencil_options_init(domino_stencil_options *opt)
{
    if (!opt) return;
    opt->variant = DOMINO_STENCIL_DOMINO;
    opt->warps_per_queue = 0;
}

const char *domino_stencil_variant_name(domino_stencil_variant v)
{
    static const char *const names[] = {"domino", "partition", "multistage", "compressed"};
    if ((int)v < 0 || (int)v >= DOMINO_STENCIL_VARIANT_COUNT) return "unknown";
    return names[v];
}

void domino_factor_options_init(domino_factor_options *opt)
{
    if (!opt) return;
    opt->pivot_shift = 0.0;
    opt->batch = 1;
    opt->use_cusparse = 0;
}

void domino_gpu_krylov_options_init(domino_gpu_krylov_options *opt)
{
    if (!opt) return;
    domino_krylov_options_init(&opt->krylov);
    opt->baseline_cusparse = 0;
    opt->engine = DOMINO_ENGINE_AUTO;
    opt->deterministic = 0;
}
