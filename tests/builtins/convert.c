/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/convert: every convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn] of
 * refcl-builtins.bc (convert.cl: every pair of the 10 types, widths 1, 3
 * and 16) over edge values and random bit patterns, against exact host
 * arithmetic that needs neither long double nor fesetround (valgrind has
 * neither): a source integer is held in __int128, a floating one in a
 * double; integers are rounded with rint/trunc/ceil/floor and wrapped or
 * clamped in __int128; a floating result is the source's significand cut
 * to the destination's precision by integer arithmetic (or a power-of-two
 * scaling and trunc/ceil/floor), rounded by the mode's rule.
 * Out-of-range conversions without _sat are undefined and skipped.
 */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

_Atomic int test_failures;

#define COUNT 240 /* convert.cl's */

struct type {
    const char *name;
    int bits;       /* of its values */
    int kind;       /* 's'igned, 'u'nsigned, 'f'loating */
};
static const struct type types[] = {
    {"char", 8, 's'},  {"uchar", 8, 'u'},  {"short", 16, 's'},
    {"ushort", 16, 'u'}, {"int", 32, 's'},  {"uint", 32, 'u'},
    {"long", 64, 's'}, {"ulong", 64, 'u'}, {"float", 32, 'f'},
    {"double", 64, 'f'}};
#define TYPES (int)(sizeof(types) / sizeof(types[0]))
static const char *const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
static const int widths[] = {1, 3, 16};

static __int128 lowest(const struct type *t)
{
    return t->kind == 's' ? -((__int128)1 << (t->bits - 1)) : 0;
}

static __int128 highest(const struct type *t)
{
    return t->kind == 's' ? ((__int128)1 << (t->bits - 1)) - 1
                          : ((__int128)1 << t->bits) - 1;
}

/* @v wrapped to the integer type @t. */
static __int128 wrap(const struct type *t, __int128 v)
{
    unsigned __int128 u = (unsigned __int128)v &
                          (((unsigned __int128)1 << t->bits) - 1);
    if (t->kind == 's' && (u >> (t->bits - 1)))
        return (__int128)u - ((__int128)1 << t->bits);
    return (__int128)u;
}

/* A source value, exactly: an integer or a floating value. */
struct value {
    bool is_int;
    __int128 i;
    double f;
};

/* Element @i of an array of @t, exactly. */
static struct value get(const struct type *t, const void *p, int i)
{
    if (t->kind == 'f')
        return (struct value){false, 0, t->bits == 32 ? ((const float *)p)[i]
                                                      : ((const double *)p)[i]};
    int64_t s;
    uint64_t u;
    switch (t->bits) {
    case 8:
        s = ((const int8_t *)p)[i], u = ((const uint8_t *)p)[i];
        break;
    case 16:
        s = ((const int16_t *)p)[i], u = ((const uint16_t *)p)[i];
        break;
    case 32:
        s = ((const int32_t *)p)[i], u = ((const uint32_t *)p)[i];
        break;
    default:
        s = ((const int64_t *)p)[i], u = ((const uint64_t *)p)[i];
    }
    return (struct value){true, t->kind == 's' ? (__int128)s : (__int128)u, 0};
}

static void put_int(const struct type *t, void *p, int i, __int128 v)
{
    uint64_t u = (uint64_t)wrap(t, v);
    switch (t->bits) {
    case 8:
        ((uint8_t *)p)[i] = (uint8_t)u;
        break;
    case 16:
        ((uint16_t *)p)[i] = (uint16_t)u;
        break;
    case 32:
        ((uint32_t *)p)[i] = (uint32_t)u;
        break;
    default:
        ((uint64_t *)p)[i] = u;
    }
}

static uint64_t random64(void)
{
    return (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand();
}

/* Edge values of every type, then random bit patterns. */
static void fill(const struct type *t, void *p)
{
    static const double floats[] = {
        0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997,
        -0.99999994, 127.5, -128.5, 128.0, -129.0, 255.5, 256.0,
        -1.0, 32767.5, 65535.5, 65536.0, 0x1p31 - 64, 0x1p31, -0x1p31,
        -0x1p31 - 256, 0x1p32 - 256, 0x1p32, 0x1p32 - 0.5, 0x1p63,
        0x1p63 - 1024, -0x1p63, -0x1p63 - 4096, 0x1p64, 0x1p64 - 2048,
        1e30, -1e30, 1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-50,
        -(1 + 0x1p-23 + 0x1p-24), 0x1p-130, -0x1p-149, 0x1p-150,
        0x1p-1074, -0x1p-1074, 0x1.fffffffp-127, FLT_MAX, -FLT_MAX,
        0x1.ffffffp127, 0x1.fffffe8p127, DBL_MAX, -DBL_MAX, INFINITY,
        -INFINITY, NAN, -NAN, 3.3e-300, 1234567.875, -7654321.25};
    static const __int128 ints[] = {
        0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769,
        65535, 65536, (1 << 24) + 1, (1 << 24) + 3, (1 << 24) - 1,
        -(1 << 24) - 1, 0x7fffffff, 0x80000000ll, -0x80000001ll,
        0xffffffffll, 0x100000000ll, 0xffffff7fll, 0xffffff80ll,
        0xffffff81ll, (1ll << 53) + 1, (1ll << 53) + 3, -(1ll << 53) - 1,
        INT64_MAX, INT64_MIN, INT64_MIN + 1, (__int128)UINT64_MAX,
        ((__int128)1 << 63) - ((__int128)1 << 39) + ((__int128)1 << 38),
        ((__int128)1 << 64) - ((__int128)1 << 40) + ((__int128)1 << 39),
        ((__int128)1 << 63) - 512, ((__int128)1 << 63) - 513,
        ((__int128)1 << 64) - 1024, 0x123456789abcdefll};
    int nf = (int)(sizeof(floats) / sizeof(floats[0]));
    int ni = (int)(sizeof(ints) / sizeof(ints[0]));
    for (int i = 0; i < COUNT; i++) {
        uint64_t r = random64();
        if (t->kind != 'f') {
            __int128 v = i < ni ? ints[i] : i < ni + 3 ? lowest(t) + (i - ni)
                       : i < ni + 6 ? highest(t) - (i - ni - 3) : (__int128)r;
            put_int(t, p, i, v);
        } else if (t->bits == 32) {
            uint32_t bits = (uint32_t)r;
            float f;
            memcpy(&f, &bits, sizeof(f));
            ((float *)p)[i] = i < nf ? (float)floats[i] : f;
        } else {
            double d;
            memcpy(&d, &r, sizeof(d));
            ((double *)p)[i] = i < nf ? (double)floats[i] : d;
        }
    }
}

enum mode { NEAREST, TOWARD_ZERO, UP, DOWN };

static enum mode mode_of(const char *mode, enum mode fallback)
{
    if (!*mode)
        return fallback;
    return !strcmp(mode, "_rte") ? NEAREST : !strcmp(mode, "_rtz") ? TOWARD_ZERO
         : !strcmp(mode, "_rtp") ? UP : DOWN;
}

/* The integral value next to @v in @mode (exact in a double). */
static double round_integral(double v, enum mode m)
{
    return m == NEAREST ? rint(v) : m == TOWARD_ZERO ? trunc(v)
         : m == UP ? ceil(v) : floor(v);
}

/* The integer conversion of @v to @d: false where it is undefined. */
static bool to_integer(const struct type *d, struct value v, bool sat,
                       const char *mode, __int128 *out)
{
    __int128 x = v.i;
    if (!v.is_int) {
        if (isnan(v.f)) {
            *out = 0;
            return sat;
        }
        double r = round_integral(v.f, mode_of(mode, TOWARD_ZERO));
        if (fabs(r) > 0x1p100) {
            *out = r < 0 ? lowest(d) : highest(d);
            return sat;
        }
        x = (__int128)r;
        if (!sat && (x < lowest(d) || x > highest(d)))
            return false;
    }
    if (sat)
        x = x < lowest(d) ? lowest(d) : x > highest(d) ? highest(d) : x;
    *out = wrap(d, x);
    return true;
}

/* Whether a magnitude cut toward zero moves away from zero in @m, given
 * the sign, the bits cut off (@rest, out of @half * 2) and the kept
 * magnitude's parity. */
static bool away(enum mode m, bool negative, unsigned __int128 rest,
                 unsigned __int128 half, bool odd)
{
    if (!rest)
        return false;
    switch (m) {
    case NEAREST:
        return rest > half || (rest == half && odd);
    case TOWARD_ZERO:
        return false;
    case UP:
        return !negative;
    default:
        return negative;
    }
}

/* The integer @x rounded to @precision bits in @m (exact in a double). */
static double round_int(__int128 x, int precision, enum mode m)
{
    bool negative = x < 0;
    unsigned __int128 u = negative ? -(unsigned __int128)x : (unsigned __int128)x;
    int length = 0;
    while (length < 128 && (u >> length))
        length++;
    int cut = length > precision ? length - precision : 0;
    unsigned __int128 kept = u >> cut, rest = cut ? u & ((((unsigned __int128)1) << cut) - 1) : 0;
    unsigned __int128 half = cut ? ((unsigned __int128)1) << (cut - 1) : 0;
    kept += away(m, negative, rest, half, kept & 1);
    double magnitude = ldexp((double)(uint64_t)kept, cut);
    return negative ? -magnitude : magnitude;
}

/* The double @v rounded to a float in @m: the significand cut to 24 bits
 * (fewer for denormals) by scaling with a power of two, exactly. */
static float round_to_float(double v, enum mode m)
{
    if (isnan(v) || isinf(v) || v == 0)
        return (float)v;
    int e;
    frexp(v, &e);
    int quantum = e - 24 < -149 ? -149 : e - 24;
    double scaled = ldexp(v, -quantum), kept = trunc(scaled);
    double rest = fabs(scaled - kept);
    bool negative = v < 0;
    if (rest != 0 && (m == NEAREST ? rest > 0.5 || (rest == 0.5 && fmod(kept, 2) != 0)
                                   : away(m, negative, 1, 1, false)))
        kept += negative ? -1 : 1;
    double r = ldexp(kept, quantum);
    if (fabs(r) > FLT_MAX) { /* overflow: to inf only when rounding away */
        bool to_inf = m == NEAREST || (m == UP && !negative) || (m == DOWN && negative);
        return negative ? (to_inf ? -INFINITY : -FLT_MAX) : (to_inf ? INFINITY : FLT_MAX);
    }
    return (float)r;
}

/* The result's bits, as the destination stores them. */
static uint64_t expected_bits(const struct type *d, struct value v, bool sat,
                              const char *mode, bool *defined)
{
    *defined = true;
    if (d->kind != 'f') {
        __int128 x = 0;
        *defined = to_integer(d, v, sat, mode, &x);
        return (uint64_t)x & (d->bits == 64 ? UINT64_MAX
                                            : (1ull << d->bits) - 1);
    }
    enum mode m = mode_of(mode, NEAREST);
    uint64_t bits = 0;
    if (d->bits == 32) {
        float f = v.is_int ? (float)round_int(v.i, 24, m) : round_to_float(v.f, m);
        uint32_t b;
        memcpy(&b, &f, sizeof(b));
        bits = b;
    } else {
        double f = v.is_int ? round_int(v.i, 53, m) : v.f;
        memcpy(&bits, &f, sizeof(bits));
    }
    return bits;
}

static uint64_t got_bits(const struct type *d, const void *p, int i)
{
    uint64_t u = 0;
    memcpy(&u, (const char *)p + (size_t)i * (size_t)(d->bits / 8),
           (size_t)(d->bits / 8));
    return u;
}

static bool is_nan_bits(const struct type *d, uint64_t b)
{
    return d->bits == 32 ? (b & 0x7fffffff) > 0x7f800000
                         : (b & INT64_MAX) > 0x7ff0000000000000ull;
}

static void check(void *program, const struct type *d, const struct type *s,
                  const char *sat, const char *mode, int width,
                  const void *in)
{
    char name[64];
    snprintf(name, sizeof(name), "cv_%s%s%s_%s%d", d->name, sat, mode,
             s->name, width);
    void (*fn)(const void *, void *) =
        (void (*)(const void *, void *))dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        test_failures++;
        return;
    }
    static uint64_t out[COUNT];
    fn(in, out);
    int failures = 0;
    for (int i = 0; i < COUNT && failures < 3; i++) {
        bool defined;
        struct value v = get(s, in, i);
        uint64_t want = expected_bits(d, v, *sat, mode, &defined);
        uint64_t got = got_bits(d, out, i);
        if (!defined || got == want ||
            (d->kind == 'f' && is_nan_bits(d, want) && is_nan_bits(d, got)))
            continue;
        fprintf(stderr, "%s(%a, %lld) = 0x%llx, expected 0x%llx\n", name,
                v.f, (long long)v.i, (unsigned long long)got,
                (unsigned long long)want);
        test_failures++;
        failures++;
    }
}

int main(void)
{
    void *program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW | RTLD_LOCAL);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    srand(3);
    static uint64_t in[COUNT];
    for (int s = 0; s < TYPES; s++) {
        fill(&types[s], in);
        for (int d = 0; d < TYPES; d++)
            for (int sat = 0; sat < (types[d].kind == 'f' ? 1 : 2); sat++)
                for (int m = 0; m < 5; m++)
                    for (int w = 0; w < 3; w++)
                        check(program, &types[d], &types[s],
                              sat ? "_sat" : "", modes[m], widths[w], in);
    }
    dlclose(program);
    return TEST_RESULT();
}
