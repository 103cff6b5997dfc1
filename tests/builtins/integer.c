/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/integer: refcl-builtins.bc's integer functions (every type and
 * width, against C references written here from the spec's definitions),
 * relational functions (1 on scalars, -1 on vectors), select, vload and
 * vstore at unaligned offsets in each address space, conversions and the
 * 32-bit atomics, one by one and contended by several threads. integer.cl
 * is built as OpenCL C 3.0 (math.cl as 1.2) with the library linked in and
 * dlopen'ed.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

_Atomic int test_failures;

#define COUNT 960
typedef void int_fn(const void *, const void *, const void *, void *, int);
static void *program;

struct type {
    const char *name;
    int bits;
    bool is_signed;
};
static const struct type types[] = {
    {"char", 8, true},   {"uchar", 8, false}, {"short", 16, true},
    {"ushort", 16, false}, {"int", 32, true}, {"uint", 32, false},
    {"long", 64, true},  {"ulong", 64, false}};
static const int widths[] = {1, 2, 3, 4, 8, 16};

/* Element @i of an array of @t, as a signed or unsigned value in
 * __int128, and back (wrapping to @t). */
static __int128 get(const struct type *t, const void *p, int i)
{
    switch (t->bits) {
    case 8:
        return t->is_signed ? (__int128)((const int8_t *)p)[i]
                            : (__int128)((const uint8_t *)p)[i];
    case 16:
        return t->is_signed ? (__int128)((const int16_t *)p)[i]
                            : (__int128)((const uint16_t *)p)[i];
    case 32:
        return t->is_signed ? (__int128)((const int32_t *)p)[i]
                            : (__int128)((const uint32_t *)p)[i];
    default:
        return t->is_signed ? (__int128)((const int64_t *)p)[i]
                            : (__int128)((const uint64_t *)p)[i];
    }
}

static __int128 wrap(const struct type *t, __int128 v)
{
    unsigned __int128 mask = ((unsigned __int128)1 << t->bits) - 1;
    unsigned __int128 u = (unsigned __int128)v & mask;
    if (t->is_signed && (u >> (t->bits - 1)))
        return (__int128)u - ((__int128)1 << t->bits);
    return (__int128)u;
}

static void put(const struct type *t, void *p, int i, __int128 v)
{
    v = wrap(t, v);
    switch (t->bits) {
    case 8:
        ((uint8_t *)p)[i] = (uint8_t)v;
        break;
    case 16:
        ((uint16_t *)p)[i] = (uint16_t)v;
        break;
    case 32:
        ((uint32_t *)p)[i] = (uint32_t)v;
        break;
    default:
        ((uint64_t *)p)[i] = (uint64_t)v;
    }
}

static __int128 lowest(const struct type *t)
{
    return t->is_signed ? -((__int128)1 << (t->bits - 1)) : 0;
}

static __int128 highest(const struct type *t)
{
    return t->is_signed ? ((__int128)1 << (t->bits - 1)) - 1
                        : ((__int128)1 << t->bits) - 1;
}

static __int128 saturate(const struct type *t, __int128 v)
{
    return v < lowest(t) ? lowest(t) : v > highest(t) ? highest(t) : v;
}

static __int128 bits_of(const struct type *t, __int128 v)
{
    return (__int128)((unsigned __int128)wrap(t, v) &
                      (((unsigned __int128)1 << t->bits) - 1));
}

/* The functions of integer.cl, from the spec's words. */
static __int128 reference(const char *f, const struct type *t, __int128 a,
                          __int128 b, __int128 c, bool vector)
{
    unsigned __int128 ua = (unsigned __int128)bits_of(t, a);
    int n = t->bits;
    if (!strcmp(f, "abs"))
        return a < 0 ? -a : a;
    if (!strcmp(f, "abs_diff"))
        return a > b ? a - b : b - a;
    if (!strcmp(f, "add_sat"))
        return saturate(t, a + b);
    if (!strcmp(f, "sub_sat"))
        return saturate(t, a - b);
    if (!strcmp(f, "hadd"))
        return (a + b) >> 1;
    if (!strcmp(f, "rhadd"))
        return (a + b + 1) >> 1;
    if (!strcmp(f, "min"))
        return b < a ? b : a;
    if (!strcmp(f, "max"))
        return a < b ? b : a;
    if (!strcmp(f, "clamp")) {
        __int128 lo = b < c ? b : c, hi = b < c ? c : b;
        return a < lo ? lo : a > hi ? hi : a;
    }
    if (!strcmp(f, "mul_hi") || !strcmp(f, "mad_hi")) {
        /* Unsigned 64-bit products need all 128 bits. */
        __int128 high = t->is_signed
                            ? (a * b) >> n
                            : (__int128)(((unsigned __int128)a *
                                          (unsigned __int128)b) >> n);
        return f[1] == 'u' ? high : high + c;
    }
    if (!strcmp(f, "mad_sat")) {
        /* Unsigned 64-bit products and sums fit unsigned 128 bits. */
        if (t->is_signed)
            return saturate(t, a * b + c);
        unsigned __int128 s = (unsigned __int128)a * (unsigned __int128)b +
                              (unsigned __int128)c;
        return s > (unsigned __int128)highest(t) ? highest(t) : (__int128)s;
    }
    if (!strcmp(f, "rotate")) {
        int s = (int)(bits_of(t, b) % n);
        return (__int128)((ua << s | ua >> (n - s)) &
                          (((unsigned __int128)1 << n) - 1));
    }
    if (!strcmp(f, "clz")) {
        int k = n;
        while (k > 0 && !((ua >> (k - 1)) & 1))
            k--;
        return n - k;
    }
    if (!strcmp(f, "ctz")) {
        int k = 0;
        while (k < n && !((ua >> k) & 1))
            k++;
        return k;
    }
    if (!strcmp(f, "popcount")) {
        int k = 0;
        for (int i = 0; i < n; i++)
            k += (int)((ua >> i) & 1);
        return k;
    }
    if (!strcmp(f, "bitselect"))
        return (a & ~c) | (b & c);
    if (!strcmp(f, "select")) /* scalar: c != 0; vector: c's top bit */
        return (vector ? (bits_of(t, c) >> (n - 1)) & 1 : c != 0) ? b : a;
    if (!strcmp(f, "mul24"))
        return (a & 0x7fffff) * (b & 0x7fffff);
    return (a & 0x7fffff) * (b & 0x7fffff) + c; /* mad24 */
}

static void fill(const struct type *t, void *a, void *b, void *c)
{
    const __int128 edges[] = {0, 1, -1, 2, 3, 7, lowest(t), highest(t),
                              highest(t) - 1, lowest(t) + 1, 0x55, -0x80};
    const int count = (int)(sizeof(edges) / sizeof(edges[0]));
    for (int i = 0; i < COUNT; i++) {
        bool edge = i < count * count;
        __int128 r = ((__int128)rand() << 40) ^ ((__int128)rand() << 20) ^
                     rand();
        put(t, a, i, edge ? edges[i % count] : r);
        put(t, b, i, edge ? edges[i / count] : r * 7919 + 13);
        put(t, c, i, edge ? edges[(i * 5) % count] : r * 31 + 5);
    }
}

static void check_function(const char *f, const struct type *t, int width,
                           const void *a, const void *b, const void *c)
{
    char name[64];
    snprintf(name, sizeof(name), "%s_%s%d", f, t->name, width);
    int_fn *fn = (int_fn *)dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        test_failures++;
        return;
    }
    static int64_t r[COUNT];
    fn(a, b, c, r, COUNT);
    int failures = 0;
    for (int i = 0; i < COUNT && failures < 3; i++) {
        __int128 x = get(t, a, i), y = get(t, b, i), z = get(t, c, i);
        __int128 want = wrap(t, reference(f, t, x, y, z, width > 1));
        __int128 got = get(t, r, i);
        if (got != want) {
            fprintf(stderr, "%s[%d](%lld, %lld, %lld) = %lld, expected %lld\n",
                    name, i, (long long)x, (long long)y, (long long)z,
                    (long long)got, (long long)want);
            test_failures++;
            failures++;
        }
    }
}

static void check_integers(void)
{
    static const char *functions[] = {
        "abs",   "abs_diff", "add_sat", "sub_sat", "hadd",     "rhadd",
        "min",   "max",      "clamp",   "mul_hi",  "mad_hi",   "mad_sat",
        "rotate",
        "clz",   "ctz",      "popcount", "bitselect", "select"};
    static int64_t a[COUNT], b[COUNT], c[COUNT];
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        fill(&types[t], a, b, c);
        for (size_t f = 0; f < sizeof(functions) / sizeof(functions[0]); f++)
            for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
                check_function(functions[f], &types[t], widths[w], a, b, c);
        if (!strcmp(types[t].name, "int"))
            for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
                check_function("mul24", &types[t], widths[w], a, b, c);
                check_function("mad24", &types[t], widths[w], a, b, c);
            }
    }
}

static void *must(const char *name)
{
    void *fn = dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        exit(1);
    }
    return fn;
}

static void check_upsample(void)
{
    int8_t hi8[4] = {1, -1, 0, -128};
    uint8_t lo8[4] = {2, 0xff, 0x80, 0};
    int16_t r16[4];
    ((void (*)(const void *, const void *, void *))must("upsample_short4"))(
        hi8, lo8, r16);
    CHECK(r16[0] == 0x0102 && r16[1] == -1 && r16[2] == 0x80 &&
          r16[3] == INT16_MIN);
    uint16_t hi16 = 0xbeef, lo16 = 0xcafe;
    uint32_t r32;
    ((void (*)(const void *, const void *, void *))must("upsample_uint1"))(
        &hi16, &lo16, &r32);
    CHECK_EQ(r32, 0xbeefcafeu);
    int32_t hi32[3] = {-1, 1, INT32_MIN};
    uint32_t lo32[3] = {0xffffffffu, 2, 0};
    int64_t r64[3];
    ((void (*)(const void *, const void *, void *))must("upsample_long3"))(
        hi32, lo32, r64);
    CHECK(r64[0] == -1 && r64[1] == 0x100000002ll && r64[2] == INT64_MIN);
}

/* bitselect of float and double: (a & ~c) | (b & c) of the bits (the
 * CTS's relational_bitselect values first; a value conversion gave b). */
static void check_float_bitselect(void)
{
    const uint32_t a = 0xcedaf0d1u, b = 0x4e8a481eu, c = 0xcd6979dbu;
    float fa, fb, fc, fr;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    memcpy(&fc, &c, 4);
    ((void (*)(const float *, const float *, const float *, float *))must(
        "bitselect_float1"))(&fa, &fb, &fc, &fr);
    uint32_t r;
    memcpy(&r, &fr, 4);
    CHECK_EQ(r, (a & ~c) | (b & c));
    CHECK_EQ(r, 0x4e9ac81au);
    const uint64_t da[3] = {0xfbbfac33aa55aa55ull, 0x3ff0000000000000ull, 1},
                   db[3] = {0xe85f9926ffff0000ull, 0xbff8000000000000ull, 2},
                   dc[3] = {0xac8d224c0f0f0f0full, 0x8000000000000000ull, 3};
    double xa[3], xb[3], xc[3], xr[3];
    memcpy(xa, da, sizeof(xa));
    memcpy(xb, db, sizeof(xb));
    memcpy(xc, dc, sizeof(xc));
    ((void (*)(const double *, const double *, const double *, double *))must(
        "bitselect_double3"))(xa, xb, xc, xr);
    for (int i = 0; i < 3; i++) {
        uint64_t bits;
        memcpy(&bits, &xr[i], 8);
        CHECK_EQ(bits, (da[i] & ~dc[i]) | (db[i] & dc[i]));
    }
}

static void check_relational(void)
{
    float a = NAN, b = 1;
    int r[12];
    void (*rel)(const float *, const float *, int *) =
        (void (*)(const float *, const float *, int *))must(
            "relational_float1");
    rel(&a, &b, r);
    const int nan_expected[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    for (int i = 0; i < 12; i++)
        CHECK_EQ(r[i], nan_expected[i]);
    a = -INFINITY;
    rel(&a, &b, r);
    const int inf_expected[12] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    for (int i = 0; i < 12; i++)
        CHECK_EQ(r[i], inf_expected[i]);

    double x[4] = {1, NAN, -0.0, 0x1p-1074}, y[4] = {1, 2, 0, 1};
    int64_t q[24];
    ((void (*)(const double *, const double *, int64_t *))must(
        "relational_double4"))(x, y, q);
    const int64_t expected[24] = {-1, 0, -1, 0,  0, -1, 0, 0,
                                  0,  0, 0,  0,  0, 0,  -1, 0,
                                  0,  0, 0,  -1, -1, 0, 0,  0};
    for (int i = 0; i < 24; i++)
        CHECK_EQ(q[i], expected[i]);

    int v[4] = {1, -5, 3, 0}, any_all[6];
    ((void (*)(const int *, int *))must("any_all"))(v, any_all);
    const int any_all_expected[6] = {1, 0, 0, 1, 1, 0};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(any_all[i], any_all_expected[i]);

    float fa[4] = {1, 2, 3, 4}, fb[4] = {5, 6, 7, 8}, fr[4];
    uint32_t fc[4] = {0x80000000u, 1, 0xffffffffu, 0x7fffffffu};
    ((void (*)(const float *, const float *, const uint32_t *, float *))must(
        "select_float4"))(fa, fb, fc, fr);
    CHECK(fr[0] == 5 && fr[1] == 2 && fr[2] == 7 && fr[3] == 4);
    check_float_bitselect();
}

static void check_vload(void)
{
    float f[40], fr[19];
    for (int i = 0; i < 40; i++)
        f[i] = (float)i * 1.5f;
    ((void (*)(const float *, float *, size_t))must("vload_global"))(f, fr, 1);
    for (int i = 0; i < 16; i++)
        CHECK(fr[i] == f[1 + i]);
    for (int i = 0; i < 3; i++)
        CHECK(fr[16 + i] == f[4 + i]);

    double d[12], dr[8];
    for (int i = 0; i < 12; i++)
        d[i] = -i;
    ((void (*)(const double *, double *, size_t))must("vload_constant"))(
        d, dr, 3);
    for (int i = 0; i < 8; i++)
        CHECK(dr[i] == d[3 + i]);

    int16_t s[8] = {10, 11, 12, 13, 14, 15, 16, 17}, sr[8] = {0};
    ((void (*)(int16_t *, int16_t *, size_t))must("vload_local"))(s, sr, 5);
    /* r[0..1] = p[5..6]; vstore3 at 1 of r + 1: r[4..6] = p[5..7]. */
    CHECK(sr[0] == 15 && sr[1] == 16 && sr[2] == 0 && sr[3] == 0);
    CHECK(sr[4] == 15 && sr[5] == 16 && sr[6] == 17 && sr[7] == 0);

    uint8_t u[20], ur[20];
    for (int i = 0; i < 20; i++)
        u[i] = (uint8_t)(100 + i);
    ((void (*)(const uint8_t *, uint8_t *))must("vload_private"))(u, ur);
    for (int i = 0; i < 20; i++)
        CHECK_EQ(ur[i], i >= 3 && i < 7 ? 100 + i + 2 : 100 + i);
}

static void check_convert(void)
{
    float f[4] = {-1.75f, 2.5f, 1e9f, -0.0f};
    double d[4] = {255.9, 0.2, 17, -3.99};
    int i[4] = {16777217, -3, 0, 2147483647}, ri[5];
    float rf[4];
    uint8_t ru[3];
    double rd[2];
    ((void (*)(const float *, const double *, const int *, int *, float *,
               uint8_t *, double *))must("convert"))(f, d, i, ri, rf, ru, rd);
    CHECK(ri[0] == -1 && ri[1] == 2 && ri[2] == 1000000000 && ri[3] == 0);
    CHECK_EQ(ri[4], -3);
    /* To nearest even: 16777217 -> 16777216, 2^31 - 1 -> 2^31. */
    CHECK(rf[0] == 16777216.0f && rf[1] == -3.0f && rf[2] == 0.0f &&
          rf[3] == 2147483648.0f);
    CHECK(ru[0] == 255 && ru[1] == 0 && ru[2] == 17);
    CHECK(rd[0] == 16777217.0 && rd[1] == -3.0);
}

#define THREADS 4
#define ROUNDS 100000
static void (*contend)(int *, int);
static int counter;

static void *contender(void *unused)
{
    (void)unused;
    contend(&counter, ROUNDS);
    return NULL;
}

static void check_atomics(void)
{
    int g[2] = {3, 0}, r[18];
    uint32_t l = 5;
    ((void (*)(int *, uint32_t *, int *))must("atomics_once"))(g, &l, r);
    /* 3 +5 -2 xchg10 inc dec cmpxchg(10->20) cmpxchg(10: no) min-4 max7
     * and6 or9 xor3 atom_add1. */
    const int expected[14] = {3, 8, 6, 10, 11, 10, 20, 20, -4, 7, 6, 15, 12, 13};
    for (int i = 0; i < 14; i++)
        CHECK_EQ(r[i], expected[i]);
    CHECK_EQ((uint32_t)r[14], 5u);
    CHECK_EQ((uint32_t)r[15], 0x80000000u);
    CHECK_EQ((uint32_t)r[16], 3u);
    CHECK_EQ(r[17], 0);
    float stored;
    memcpy(&stored, &g[1], sizeof(stored));
    CHECK(stored == 2.5f);

    contend = (void (*)(int *, int))must("atomics_contend");
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK_EQ(pthread_create(&threads[t], NULL, contender, NULL), 0);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    CHECK_EQ(counter, THREADS * ROUNDS * 3);
    ((void (*)(void))must("fence"))();
}

int main(void)
{
    program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW | RTLD_LOCAL);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    srand(2);
    check_integers();
    check_upsample();
    check_relational();
    check_vload();
    check_convert();
    check_atomics();
    dlclose(program);
    return TEST_RESULT();
}
