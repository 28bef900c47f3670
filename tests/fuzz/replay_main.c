/* replay_main.c: replay the fuzz corpus, then a fixed-seed mutation loop, without libFuzzer */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_FILES 256     /* corpus files used */
#define REPLAY_MAX_BYTES 65536   /* longest corpus file used */
#define REPLAY_ITERATIONS 200000 /* mutated inputs tried */

/* one corpus file */
typedef struct seed {
    uint8_t *bytes; /* contents */
    size_t size;    /* bytes */
} seed;

/* splitmix64: the mutation loop's own generator, fixed seed */
static uint64_t rng_state = 0x5eed5eed12345678ULL;
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static size_t rng_below(size_t bound)
{
    return bound ? (size_t)(rng_next() % bound) : 0;
}

/* whole file, or NULL */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = malloc(REPLAY_MAX_BYTES);
    *size = buf ? fread(buf, 1, REPLAY_MAX_BYTES, f) : 0;
    fclose(f);
    return buf;
}

/* bytes that make mutations likely to reach deep into the parser */
static const char *const tokens[] = {" ",
                                     "\n",
                                     "\r\n",
                                     "%",
                                     "0",
                                     "1",
                                     "-1",
                                     "9",
                                     "2147483647",
                                     "1e308",
                                     "nan",
                                     "inf",
                                     "-",
                                     ".",
                                     "e",
                                     "symmetric",
                                     "skew-symmetric",
                                     "pattern",
                                     "integer",
                                     "complex",
                                     "general",
                                     "\0",
                                     "99999999999999999999",
                                     "%%MatrixMarket matrix coordinate real general\n"};

/* one random edit of buf (size *size, capacity cap) */
static void mutate(uint8_t *buf, size_t *size, size_t cap)
{
    size_t at = rng_below(*size + 1);
    switch (rng_below(5)) {
    case 0: /* flip a byte */
        if (*size) buf[rng_below(*size)] ^= (uint8_t)(1u << rng_below(8));
        break;
    case 1: /* delete a run */
        if (*size) {
            size_t len = 1 + rng_below(8);
            if (len > *size - at) len = *size - at;
            memmove(buf + at, buf + at + len, *size - at - len);
            *size -= len;
        }
        break;
    case 2: /* truncate */
        *size = at;
        break;
    default: { /* insert a token */
        const char *tok = tokens[rng_below(sizeof tokens / sizeof tokens[0])];
        size_t len = tok[0] ? strlen(tok) : 1;
        if (*size + len > cap) break;
        memmove(buf + at + len, buf + at, *size - at);
        memcpy(buf + at, tok, len);
        *size += len;
    }
    }
}

/* replay argv[1]/ *, then mutate; prints "N passed, 0 failed" (a failure aborts) */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    static seed seeds[REPLAY_MAX_FILES];
    int nseeds = 0;
    long passed = 0;
    DIR *dir = opendir(argv[1]);
    if (!dir) {
        fprintf(stderr, "cannot open corpus directory %s\n", argv[1]);
        return 2;
    }
    struct dirent *e;
    while ((e = readdir(dir)) && nseeds < REPLAY_MAX_FILES) {
        char path[4096];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        seeds[nseeds].bytes = read_file(path, &seeds[nseeds].size);
        if (!seeds[nseeds].bytes) continue;
        LLVMFuzzerTestOneInput(seeds[nseeds].bytes, seeds[nseeds].size);
        passed++;
        nseeds++;
    }
    closedir(dir);
    if (nseeds == 0) {
        fprintf(stderr, "no corpus files in %s\n", argv[1]);
        return 2;
    }
    size_t cap = REPLAY_MAX_BYTES + 1024;
    uint8_t *work = malloc(cap);
    for (long it = 0; work && it < REPLAY_ITERATIONS; it++) {
        const seed *s = &seeds[rng_below((size_t)nseeds)];
        size_t size = s->size;
        memcpy(work, s->bytes, size);
        int edits = 1 + (int)rng_below(4);
        for (int k = 0; k < edits; k++) mutate(work, &size, cap);
        /* exact-size copy so that reading past the end is caught by sanitizers */
        uint8_t *exact = malloc(size ? size : 1);
        memcpy(exact, work, size);
        LLVMFuzzerTestOneInput(exact, size);
        free(exact);
        passed++;
    }
    free(work);
    for (int k = 0; k < nseeds; k++) free(seeds[k].bytes);
    printf("fuzz_mm_replay: %ld passed, 0 failed\n", passed);
    return 0;
}
