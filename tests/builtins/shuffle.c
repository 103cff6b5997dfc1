/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/shuffle: shuffle(x, mask) and shuffle2(x, y, mask) of every
 * element type, input width m and result width n (2, 4, 8, 16), with
 * random masks whose bits above the index are set (the spec: only the
 * ilogb(2m-1) + 1 low bits of each mask element count, one more for
 * shuffle2), against the spec's definition computed here on bytes.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

_Atomic int test_failures;

struct type {
    const char *name;
    size_t size;
};
static const struct type types[] = {
    {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
    {"uint", 4}, {"long", 8}, {"ulong", 8}, {"float", 4}, {"double", 8}};
static const int widths[] = {2, 4, 8, 16};

/* Mask element @i (of @size bytes, little-endian host) as an index. */
static unsigned index_of(const uint8_t *mask, size_t size, int i)
{
    uint64_t v = 0;
    memcpy(&v, mask + (size_t)i * size, size);
    return (unsigned)(v & 0xffff);
}

static void check(void *program, const struct type *t, int m, int n)
{
    char name[64];
    snprintf(name, sizeof(name), "sh_%s_%d_%d", t->name, m, n);
    void (*fn)(const void *, const void *, const void *, void *, void *) =
        (void (*)(const void *, const void *, const void *, void *,
                  void *))dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        test_failures++;
        return;
    }
    uint8_t x[16 * 8], y[16 * 8], mask[16 * 8], r[16 * 8], r2[16 * 8];
    for (int round = 0; round < 8; round++) {
        for (size_t i = 0; i < sizeof(x); i++) {
            x[i] = (uint8_t)rand(), y[i] = (uint8_t)rand();
            mask[i] = (uint8_t)rand();
        }
        fn(x, y, mask, r, r2);
        for (int i = 0; i < n; i++) {
            unsigned k = index_of(mask, t->size, i);
            unsigned one = k % (unsigned)m, two = k % (2u * (unsigned)m);
            const uint8_t *from = two < (unsigned)m ? x + two * t->size
                                                    : y + (two - (unsigned)m) * t->size;
            if (memcmp(r + (size_t)i * t->size, x + one * t->size, t->size) ||
                memcmp(r2 + (size_t)i * t->size, from, t->size)) {
                fprintf(stderr, "%s: element %d (mask %u) differs\n", name, i, k);
                test_failures++;
                return;
            }
        }
    }
}

int main(void)
{
    void *program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW | RTLD_LOCAL);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    srand(4);
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
        for (int m = 0; m < 4; m++)
            for (int n = 0; n < 4; n++)
                check(program, &types[t], widths[m], widths[n]);
    dlclose(program);
    return TEST_RESULT();
}
