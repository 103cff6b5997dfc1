/* SPDX-License-Identifier: Apache-2.0 */
/*
 * builtins/fp16: refcl-builtins.bc's half (cl_khr_fp16) functions against
 * references written from the specs, on the host in long double:
 * - conversions exact: every half to every type (each mode, _sat), and
 *   values of every type (edges, ties between halves and the values one
 *   ulp of their type either side, overflow bounds, random bit patterns)
 *   to half in each mode, at widths 1, 3 and 16; a double one double ulp
 *   off a tie is where rounding through float goes wrong;
 * - half arithmetic as a function writes it (+ - * /) correctly rounded;
 * - each math and common function over every half (two and three
 *   argument ones over edge and random values) within the OpenCL C half
 *   table's ulp bound (0 where it says exact or correctly rounded: fma),
 *   width 8 giving width 1's bits;
 * - relational functions (1 on scalars, -1 on vectors), select, bitselect,
 *   shuffle, shuffle2, vloadN and vstoreN, and the geometric functions
 *   within their half bounds.
 */
#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

_Atomic int test_failures;

enum mode { RTE, RTZ, RTP, RTN, MODES };
static const char *const mode_suffix[] = {"_rte", "_rtz", "_rtp", "_rtn"};
static const int widths[] = {1, 3, 16};
#define WIDTHS (sizeof(widths) / sizeof(widths[0]))
#define PATTERNS 65536
#define MAX_INPUTS (1 << 17)

static void *program;
static int reported; /* failures printed so far, to keep the log short */

static void *symbol(const char *name)
{
    void *fn = dlsym(program, name);
    if (!fn) {
        fprintf(stderr, "%s: not in the test program\n", name);
        test_failures++;
    }
    return fn;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    test_failures++;
    if (reported++ >= 40)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

/* A half's value (NaN for NaNs). */
static long double decode(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    long double sign = h & 0x8000 ? -1 : 1;
    if (e == 0x1f)
        return m ? copysignl(NAN, sign) : sign * INFINITY;
    return sign * (e ? ldexpl(1024 + m, e - 25) : ldexpl(m, -24));
}

/* The bits of a half-representable value @v (exact). */
static uint16_t encode(long double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    if (isnan(v))
        return 0x7e00;
    if (isinf(a))
        return sign | 0x7c00;
    if (a < 0x1p-14L)
        return sign | (uint16_t)(a * 0x1p24L);
    int e = ilogbl(a);
    return sign | (uint16_t)((e + 15) << 10) |
           (uint16_t)(ldexpl(a, 10 - e) - 1024);
}

/* @v rounded to half in @mode, by the IEEE 754 rules: the multiples of
 * half's quantum at |v| around it, then overflow. */
static uint16_t round_half(long double v, enum mode mode)
{
    if (isnan(v))
        return 0x7e00;
    bool neg = signbit(v);
    long double a = fabsl(v);
    if (isinf(a))
        return encode(v);
    long double q = ldexpl(1, a < 0x1p-14L ? -24 : ilogbl(a) - 10);
    long double m = a / q, lo = floorl(m), frac = m - lo;
    bool away_mode = mode == RTP ? !neg : mode == RTN ? neg : false;
    bool up = mode == RTE ? frac > 0.5L || (frac == 0.5L && fmodl(lo, 2) == 1)
              : mode == RTZ ? false
                            : frac > 0 && away_mode;
    long double r = (lo + up) * q;
    if (r > 65504)
        r = mode == RTE || away_mode ? INFINITY : 65504;
    return encode(neg ? -r : r);
}

static bool same_half(uint16_t got, uint16_t want)
{
    bool nan_got = (got & 0x7fff) > 0x7c00, nan_want = (want & 0x7fff) > 0x7c00;
    return nan_got || nan_want ? nan_got && nan_want : got == want;
}

/* ---- inputs ------------------------------------------------------------- */
static uint64_t state = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Values of a floating type around each half: the half, the tie above it
 * and the values one ulp of the type either side of the tie. */
static int floating_inputs(long double *v, bool is_float)
{
    int n = 0;
    for (uint32_t h = 0; h < 0x7c00; h += h < 0x400 ? 1 : 3) {
        for (int s = 0; s < 2; s++) {
            long double lo = decode((uint16_t)h), hi = decode((uint16_t)(h + 1));
            if (h == 0x7bff)
                hi = 65536;
            long double tie = (lo + hi) / 2, sign = s ? -1 : 1;
            double t = (double)tie;
            v[n++] = sign * lo;
            v[n++] = sign * tie;
            if (is_float) {
                v[n++] = sign * nextafterf((float)t, 0);
                v[n++] = sign * nextafterf((float)t, INFINITY);
            } else {
                v[n++] = sign * nextafter(t, 0);
                v[n++] = sign * nextafter(t, INFINITY);
            }
        }
    }
    long double edges[] = {INFINITY, -INFINITY, NAN, 65520, -65520, 65536,
                           1e10L, -1e30L, 0x1p-25L, -0x1p-25L, 0x1p-26L,
                           0x1.8p-25L, 1e-30L, -0.0L, 3, -3};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        v[n++] = edges[i];
    while (n < MAX_INPUTS - 16) {
        uint64_t r = next_random();
        if (is_float) {
            uint32_t bits = (uint32_t)r;
            float f;
            memcpy(&f, &bits, 4);
            v[n++] = f;
            /* Half's range, where rounding is interesting. */
            bits = (bits & 0x80ffffffu) | ((0x60u + (uint32_t)(r >> 40) % 0x20) << 24);
            memcpy(&f, &bits, 4);
            v[n++] = f;
        } else {
            double d;
            memcpy(&d, &r, 8);
            v[n++] = d;
            r = (r & 0x800fffffffffffffu) |
                ((uint64_t)(0x3e0 + (r >> 40) % 0x40) << 52);
            memcpy(&d, &r, 8);
            v[n++] = d;
        }
    }
    return n - n % 48;
}

/* ---- conversions ----------------------------------------------------------- */
struct int_type {
    const char *name;
    int size;
    bool is_signed;
};
static const struct int_type int_types[] = {
    {"char", 1, true},  {"uchar", 1, false}, {"short", 2, true},
    {"ushort", 2, false}, {"int", 4, true},  {"uint", 4, false},
    {"long", 8, true},  {"ulong", 8, false},
};

static long double int_get(const struct int_type *t, const void *p, int i)
{
    const char *b = (const char *)p + (size_t)i * (size_t)t->size;
    switch (t->size) {
    case 1: return t->is_signed ? (long double)*(const int8_t *)b : *(const uint8_t *)b;
    case 2: return t->is_signed ? (long double)*(const int16_t *)b : *(const uint16_t *)b;
    case 4: return t->is_signed ? (long double)*(const int32_t *)b : *(const uint32_t *)b;
    default: return t->is_signed ? (long double)*(const int64_t *)b : *(const uint64_t *)b;
    }
}

typedef void to_half_fn(const void *, uint16_t *, int);

static void check_to_half(const char *type, const void *x, int n,
                          long double (*get)(const void *, int, const void *),
                          const void *ctx)
{
    uint16_t *r = malloc((size_t)n * 2);
    for (int mode = -1; mode < MODES; mode++) {
        for (size_t w = 0; w < WIDTHS; w++) {
            char name[64];
            snprintf(name, sizeof(name), "to_half%s_%s%d",
                     mode < 0 ? "" : mode_suffix[mode], type, widths[w]);
            to_half_fn *fn = (to_half_fn *)symbol(name);
            if (!fn)
                continue;
            int count = n - n % widths[w];
            memset(r, 0x5a, (size_t)n * 2);
            fn(x, r, count);
            for (int i = 0; i < count; i++) {
                long double v = get(x, i, ctx);
                uint16_t want = round_half(v, mode < 0 ? RTE : (enum mode)mode);
                if (!same_half(r[i], want))
                    fail("%s(%.21Lg) = 0x%04x, expected 0x%04x\n", name, v,
                         r[i], want);
            }
        }
    }
    free(r);
}

static long double get_float(const void *x, int i, const void *ctx)
{
    (void)ctx;
    return ((const float *)x)[i];
}

static long double get_double(const void *x, int i, const void *ctx)
{
    (void)ctx;
    return ((const double *)x)[i];
}

static long double get_int(const void *x, int i, const void *ctx)
{
    return int_get(ctx, x, i);
}

static void check_conversions_to_half(long double *values)
{
    int n = floating_inputs(values, true);
    float *f = malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++)
        f[i] = (float)values[i];
    check_to_half("float", f, n, get_float, NULL);
    free(f);
    n = floating_inputs(values, false);
    double *d = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++)
        d[i] = (double)values[i];
    check_to_half("double", d, n, get_double, NULL);
    free(d);
    /* Integers: every value near 0 and the bounds, ties of large halves,
     * random bit patterns. */
    int64_t *bits = malloc(MAX_INPUTS * 8);
    for (size_t t = 0; t < sizeof(int_types) / sizeof(int_types[0]); t++) {
        const struct int_type *it = &int_types[t];
        n = 0;
        char *p = (char *)bits;
        for (int i = 0; i < 4800; i++) {
            uint64_t v = i < 1200 ? (uint64_t)(i - 600)
                         : i < 2400 ? (uint64_t)(65504 - 600 + (i - 1200))
                         : i < 3600 ? (uint64_t)(2048 + (i - 2400) * 3)
                                    : next_random() >> (next_random() % 64);
            memcpy(p + (size_t)n * (size_t)it->size, &v, (size_t)it->size);
            n++;
        }
        n -= n % 48;
        check_to_half(it->name, bits, n, get_int, it);
    }
    free(bits);
}

typedef void from_half_fn(const uint16_t *, void *, int);

/* @v rounded to an integer in @mode (toward zero by default). */
static long double round_int(long double v, int mode)
{
    switch (mode) {
    case RTE: {
        long double f = floorl(v), d = v - f;
        return d > 0.5L || (d == 0.5L && fmodl(f, 2) != 0) ? f + 1 : f;
    }
    case RTP: return ceill(v);
    case RTN: return floorl(v);
    default: return truncl(v);
    }
}

static void check_from_half(uint16_t *patterns)
{
    void *out = malloc(PATTERNS * 8);
    for (size_t t = 0; t < sizeof(int_types) / sizeof(int_types[0]); t++) {
        const struct int_type *it = &int_types[t];
        long double lo = it->is_signed ? -ldexpl(1, 8 * it->size - 1) : 0;
        long double hi = ldexpl(1, 8 * it->size - it->is_signed) - 1;
        for (int sat = 0; sat < 2; sat++)
            for (int mode = -1; mode < MODES; mode++)
                for (size_t w = 0; w < WIDTHS; w++) {
                    char name[64];
                    snprintf(name, sizeof(name), "from_half_%s%s%s%d",
                             it->name, sat ? "_sat" : "",
                             mode < 0 ? "" : mode_suffix[mode], widths[w]);
                    from_half_fn *fn = (from_half_fn *)symbol(name);
                    if (!fn)
                        continue;
                    int count = PATTERNS - PATTERNS % widths[w];
                    fn(patterns, out, count);
                    for (int i = 0; i < count; i++) {
                        long double v = decode(patterns[i]);
                        long double want = isnan(v) ? 0 : round_int(v, mode);
                        /* Out of range without _sat is undefined. */
                        if (!sat && (isnan(v) || want < lo || want > hi))
                            continue;
                        want = want < lo ? lo : want > hi ? hi : want;
                        long double got = int_get(it, out, i);
                        if (got != want)
                            fail("%s(%Lg) = %Lg, expected %Lg\n", name, v,
                                 got, want);
                    }
                }
    }
    /* To float, double and half: exact. */
    static const char *const floats[] = {"float", "double", "half"};
    for (int f = 0; f < 3; f++)
        for (int mode = -1; mode < MODES; mode++)
            for (size_t w = 0; w < WIDTHS; w++) {
                char name[64];
                snprintf(name, sizeof(name), "from_half_%s%s%d", floats[f],
                         mode < 0 ? "" : mode_suffix[mode], widths[w]);
                from_half_fn *fn = (from_half_fn *)symbol(name);
                if (!fn)
                    continue;
                int count = PATTERNS - PATTERNS % widths[w];
                fn(patterns, out, count);
                for (int i = 0; i < count; i++) {
                    long double v = decode(patterns[i]);
                    long double got =
                        f == 0 ? ((float *)out)[i]
                        : f == 1 ? ((double *)out)[i]
                                 : decode(((uint16_t *)out)[i]);
                    bool ok = isnan(v) ? isnan(got)
                                       : got == v && signbit(got) == signbit(v);
                    if (!ok)
                        fail("%s(0x%04x) = %La\n", name, patterns[i], got);
                }
            }
    free(out);
}

/* ---- arithmetic and math ---------------------------------------------------- */
/* |got - want| in half ulps of want (the spec's definition: the gap
 * between the halves around it); infinite where no bound can hold. */
static double ulp_error(uint16_t got_bits, long double want)
{
    long double got = decode(got_bits);
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got) ? 0 : INFINITY;
    if (isinf(got))
        return (isinf(want) || fabsl(want) > 65504) &&
                       signbit(got) == signbit(want)
                   ? 0
                   : INFINITY;
    if (isinf(want))
        return INFINITY;
    long double a = fabsl(want);
    long double ulp = ldexpl(1, a < 0x1p-14L ? -24 : ilogbl(a) - 10);
    return (double)(fabsl(got - want) / ulp);
}

/* Edge and random halves: every finite exponent, ±0, ±inf, NaN. */
static int some_halves(uint16_t *h, int n)
{
    static const uint16_t edges[] = {0, 0x8000, 0x7c00, 0xfc00, 0x7e00,
                                     0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff,
                                     0x0400, 0x7bff, 0xfbff, 0x3800, 0x4000,
                                     0xc000, 0x3555, 0x4248};
    int k = 0;
    for (; k < (int)(sizeof(edges) / sizeof(edges[0])); k++)
        h[k] = edges[k];
    for (; k < n; k++)
        h[k] = (uint16_t)next_random();
    return n;
}

typedef void math1_fn(const uint16_t *, uint16_t *, int);
typedef void math2_fn(const uint16_t *, const uint16_t *, uint16_t *, int);
typedef void math3_fn(const uint16_t *, const uint16_t *, const uint16_t *,
                      uint16_t *, int);

struct math1 {
    const char *name;
    long double (*ref)(long double);
    double bound;
};

static long double pi_times(long double x) { return x * 3.14159265358979323846264338327950288L; }
static long double sinpi_ref(long double x)
{
    long double r = fmodl(x, 2);
    if (isinf(x))
        return NAN;
    return x == truncl(x) ? copysignl(0, x) : sinl(pi_times(r));
}
static long double cospi_ref(long double x)
{
    long double r = fmodl(fabsl(x), 2);
    return r == 0.5L || r == 1.5L ? 0 : cosl(pi_times(r));
}
static long double tanpi_ref(long double x) { return sinpi_ref(x) / cospi_ref(x); }
static long double asinpi_ref(long double x) { return asinl(x) / pi_times(1); }
static long double acospi_ref(long double x) { return acosl(x) / pi_times(1); }
static long double atanpi_ref(long double x) { return atanl(x) / pi_times(1); }
static long double exp10_ref(long double x) { return powl(10, x); }
static long double rsqrt_ref(long double x) { return 1 / sqrtl(x); }
static long double rint_ref(long double x) { return copysignl(round_int(x, RTE), x); }
static long double sign_ref(long double x) { return x > 0 ? 1 : x < 0 ? -1 : isnan(x) ? 0 : x; }
static long double degrees_ref(long double x) { return x * 180 / pi_times(1); }
static long double radians_ref(long double x) { return pi_times(x) / 180; }

static const struct math1 math1[] = {
    {"acos", acosl, 2}, {"acosh", acoshl, 2}, {"acospi", acospi_ref, 2},
    {"asin", asinl, 2}, {"asinh", asinhl, 2}, {"asinpi", asinpi_ref, 2},
    {"atan", atanl, 2}, {"atanh", atanhl, 2}, {"atanpi", atanpi_ref, 2},
    {"cbrt", cbrtl, 2}, {"ceil", ceill, 0}, {"cos", cosl, 2},
    {"cosh", coshl, 2}, {"cospi", cospi_ref, 2}, {"erfc", erfcl, 4},
    {"erf", erfl, 4}, {"exp", expl, 2}, {"exp2", exp2l, 2},
    {"exp10", exp10_ref, 2}, {"expm1", expm1l, 2}, {"fabs", fabsl, 0},
    {"floor", floorl, 0}, {"log", logl, 2}, {"log2", log2l, 2},
    {"log10", log10l, 2}, {"log1p", log1pl, 2}, {"logb", logbl, 0},
    {"rint", rint_ref, 0}, {"round", roundl, 0}, {"rsqrt", rsqrt_ref, 1},
    {"sin", sinl, 2}, {"sinh", sinhl, 2}, {"sinpi", sinpi_ref, 2},
    {"sqrt", sqrtl, 1.5}, {"tan", tanl, 2.5}, {"tanh", tanhl, 2},
    {"tanpi", tanpi_ref, 2}, {"tgamma", tgammal, 4}, {"trunc", truncl, 0},
    {"sign", sign_ref, 0}, {"degrees", degrees_ref, 2},
    {"radians", radians_ref, 2}, {"lgamma", lgammal, 4},
};

/* Runs @name_1 and @name_8 (same bits) and returns width 1's results. */
static bool run_math(const char *name, int arity, const uint16_t *x,
                     const uint16_t *y, const uint16_t *z, uint16_t *r,
                     uint16_t *r8, int n)
{
    char s1[64], s8[64];
    snprintf(s1, sizeof(s1), "%s_1", name);
    snprintf(s8, sizeof(s8), "%s_8", name);
    void *f1 = symbol(s1), *f8 = symbol(s8);
    if (!f1 || !f8)
        return false;
    if (arity == 1) {
        ((math1_fn *)f1)(x, r, n);
        ((math1_fn *)f8)(x, r8, n);
    } else if (arity == 2) {
        ((math2_fn *)f1)(x, y, r, n);
        ((math2_fn *)f8)(x, y, r8, n);
    } else {
        ((math3_fn *)f1)(x, y, z, r, n);
        ((math3_fn *)f8)(x, y, z, r8, n);
    }
    for (int i = 0; i < n; i++)
        if (!same_half(r[i], r8[i]))
            fail("%s: width 8 gives 0x%04x, width 1 0x%04x (input %d)\n",
                 name, r8[i], r[i], i);
    return true;
}

static void check_math1(uint16_t *patterns, uint16_t *r, uint16_t *r8)
{
    for (size_t f = 0; f < sizeof(math1) / sizeof(math1[0]); f++) {
        if (!run_math(math1[f].name, 1, patterns, NULL, NULL, r, r8, PATTERNS))
            continue;
        double worst = 0;
        for (int i = 0; i < PATTERNS; i++) {
            long double x = decode(patterns[i]), want = math1[f].ref(x);
            double e = ulp_error(r[i], want);
            /* lgamma's sign of 0 and the poles: libm's choice. */
            if (e > math1[f].bound + (math1[f].bound == 0 ? 0 : 1e-9))
                fail("%s(%La) = %La, expected %La (%.2f ulp)\n",
                     math1[f].name, x, decode(r[i]), want, e);
            else if (e > worst && isfinite(e))
                worst = e;
            /* Exact functions keep a zero's sign. */
            if (math1[f].bound == 0 && want == 0 && decode(r[i]) == 0 &&
                signbit(want) != signbit(decode(r[i])))
                fail("%s(%La) = %La: wrong sign of zero\n", math1[f].name, x,
                     decode(r[i]));
        }
        printf("%-8s worst %.3f ulp (bound %g)\n", math1[f].name, worst,
               math1[f].bound);
    }
}

struct math2 {
    const char *name;
    long double (*ref)(long double, long double);
    double bound;
};

static long double maxmag_ref(long double x, long double y)
{
    return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y);
}
static long double minmag_ref(long double x, long double y)
{
    return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y);
}
static long double atan2pi_ref(long double y, long double x) { return atan2l(y, x) / pi_times(1); }
static long double powr_ref(long double x, long double y)
{
    if (x < 0 || isnan(x) || isnan(y) || (x == 0 && y == 0) ||
        (isinf(x) && y == 0) || (x == 1 && isinf(y)))
        return NAN;
    return powl(x, y);
}
static long double step_ref(long double e, long double x) { return x < e ? 0 : 1; }
static long double max_ref(long double x, long double y) { return y < x ? x : y; }
static long double min_ref(long double x, long double y) { return y < x ? y : x; }
static long double nextafter_ref(long double x, long double y)
{
    if (isnan(x) || isnan(y))
        return NAN;
    if (x == y)
        return y;
    uint16_t b = encode(x);
    if (x == 0)
        return y > 0 ? 0x1p-24L : -0x1p-24L;
    b = (uint16_t)((y > x) == (x > 0) ? b + 1 : b - 1);
    return decode(b);
}

static const struct math2 math2[] = {
    {"atan2", atan2l, 2}, {"atan2pi", atan2pi_ref, 2},
    {"copysign", copysignl, 0}, {"fdim", fdiml, 0.5}, {"fmax", fmaxl, 0},
    {"fmin", fminl, 0}, {"fmod", fmodl, 0}, {"hypot", hypotl, 2},
    {"maxmag", maxmag_ref, 0}, {"minmag", minmag_ref, 0},
    {"nextafter", nextafter_ref, 0}, {"pow", powl, 4}, {"powr", powr_ref, 4},
    {"remainder", remainderl, 0}, {"step", step_ref, 0},
};

static void check_math2(uint16_t *x, uint16_t *y, uint16_t *r, uint16_t *r8,
                        int n)
{
    for (size_t f = 0; f < sizeof(math2) / sizeof(math2[0]); f++) {
        if (!run_math(math2[f].name, 2, x, y, NULL, r, r8, n))
            continue;
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), b = decode(y[i]);
            long double want = math2[f].ref(a, b);
            double e = ulp_error(r[i], want);
            if (e > math2[f].bound)
                fail("%s(%La, %La) = %La, expected %La (%.2f ulp)\n",
                     math2[f].name, a, b, decode(r[i]), want, e);
        }
    }
    /* max and min: y if x < y (max), x otherwise; NaN undefined. */
    static const char *const mm[] = {"max", "min"};
    for (int f = 0; f < 2; f++) {
        if (!run_math(mm[f], 2, x, y, NULL, r, r8, n))
            continue;
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), b = decode(y[i]);
            if (isnan(a) || isnan(b) || (a == 0 && b == 0))
                continue;
            long double want = f ? min_ref(a, b) : max_ref(a, b);
            if (decode(r[i]) != want)
                fail("%s(%La, %La) = %La\n", mm[f], a, b, decode(r[i]));
        }
    }
}

/* fma exactly rounded; mad within the halves around the exact value;
 * clamp exact; mix and smoothstep (implementation-defined) close to the
 * spec's formulas. */
static void check_math3(uint16_t *x, uint16_t *y, uint16_t *z, uint16_t *r,
                        uint16_t *r8, int n)
{
    if (run_math("fma", 3, x, y, z, r, r8, n))
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), b = decode(y[i]), c = decode(z[i]);
            /* a * b is exact in long double; the sum is exact where it can
             * decide a rounding (as in the library's double). */
            long double want = a * b + c;
            uint16_t w = isnan(want) ? 0x7e00 : round_half(want, RTE);
            if (!same_half(r[i], w))
                fail("fma(%La, %La, %La) = %La, expected %La\n", a, b, c,
                     decode(r[i]), decode(w));
        }
    /* mad: "implementation-defined" for half; refcl's is a * b + c in
     * float (fused or not) rounded to half: one of the two halves around
     * the exact value, or the exact one. */
    if (run_math("mad", 3, x, y, z, r, r8, n))
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), b = decode(y[i]), c = decode(z[i]);
            long double exact = a * b + c;
            if (!same_half(r[i], round_half(exact, RTZ)) &&
                !same_half(r[i], round_half(exact, RTE)) &&
                !same_half(r[i], round_half(exact, exact < 0 ? RTN : RTP)) &&
                !(isnan(exact) && (r[i] & 0x7fff) > 0x7c00))
                fail("mad(%La, %La, %La) = %La\n", a, b, c, decode(r[i]));
        }
    if (run_math("clamp", 3, x, y, z, r, r8, n))
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), lo = decode(y[i]), hi = decode(z[i]);
            if (isnan(a) || isnan(lo) || isnan(hi) || lo > hi || a == 0)
                continue;
            long double want = fminl(fmaxl(a, lo), hi);
            if (decode(r[i]) != want)
                fail("clamp(%La, %La, %La) = %La\n", a, lo, hi, decode(r[i]));
        }
    if (run_math("mix", 3, x, y, z, r, r8, n))
        for (int i = 0; i < n; i++) {
            long double a = decode(x[i]), b = decode(y[i]), t = decode(z[i]);
            if (!(t >= 0 && t <= 1) || !isfinite(a) || !isfinite(b))
                continue;
            /* Implementation-defined accuracy: within 2 ulp of the
             * larger of x and y (float's y - x loses x's low bits). */
            long double want = a + (b - a) * t;
            long double scale = fmaxl(fabsl(a), fabsl(b));
            if (fabsl(decode(r[i]) - want) >
                2 * ldexpl(1, scale < 0x1p-14L ? -24 : ilogbl(scale) - 10))
                fail("mix(%La, %La, %La) = %La, expected %La\n", a, b, t,
                     decode(r[i]), want);
        }
    if (run_math("smoothstep", 3, x, y, z, r, r8, n))
        for (int i = 0; i < n; i++) {
            long double e0 = decode(x[i]), e1 = decode(y[i]), v = decode(z[i]);
            if (!(e0 < e1) || !isfinite(e1 - e0) || !isfinite(v))
                continue;
            long double t = fminl(fmaxl((v - e0) / (e1 - e0), 0), 1);
            long double want = t * t * (3 - 2 * t);
            if (ulp_error(r[i], want) > 2)
                fail("smoothstep(%La, %La, %La) = %La, expected %La\n", e0, e1,
                     v, decode(r[i]), want);
        }
}

/* Products that are exactly a tie between two halves (12 significant
 * bits, the last one set), plus a c of either sign far below them: the
 * exact sum rounds away from the tie, but a float fma rounds it to the
 * tie itself (24 bits) and then to half's even neighbour; half of these
 * fail with fmaf. */
static int fma_ties(uint16_t *x, uint16_t *y, uint16_t *z, int n)
{
    static const uint16_t tiny[] = {0x0001, 0x8001, 0x0100, 0x8100, 0x1000,
                                    0x9000};
    int k = 0;
    while (k < n) {
        uint16_t a = (uint16_t)(0x3c00 | (next_random() & 0x3ff));
        uint16_t b = (uint16_t)((0x3000 + (next_random() % 16) * 0x400) |
                                (next_random() & 0x3ff));
        long double p = decode(a) * decode(b);
        long double h = ldexpl(p, 11 - ilogbl(p));
        if (h != floorl(h) || fmodl(h, 2) != 1)
            continue;
        for (size_t t = 0; t < sizeof(tiny) / sizeof(tiny[0]) && k < n; t++) {
            x[k] = a;
            y[k] = b;
            z[k++] = tiny[t];
        }
    }
    return n;
}

/* ---- functions with int arguments or two results ------------------------------ */
static long double rootn_ref(long double x, int k)
{
    if (k == 0 || (x < 0 && k % 2 == 0))
        return NAN;
    if (x == 0)
        return k > 0 ? x : copysignl(INFINITY, x);
    long double r = powl(fabsl(x), 1.0L / k);
    return x < 0 ? -r : r;
}

static void check_ints(const uint16_t *x, const uint16_t *y, int n)
{
    int *k = malloc((size_t)n * sizeof(int));
    uint16_t *r = malloc((size_t)n * 9 * 2);
    int *ri = malloc((size_t)n * 3 * sizeof(int));
    for (int i = 0; i < n; i++)
        k[i] = (int)(next_random() % 61) - 30;
    void (*fn)(const uint16_t *, const uint16_t *, const int *, uint16_t *,
               int *, int) = symbol("ints");
    if (!fn)
        return;
    fn(x, y, k, r, ri, n);
    for (int i = 0; i < n; i++) {
        long double a = decode(x[i]), b = decode(y[i]);
        uint16_t *o = r + 9 * i;
        int *oi = ri + 3 * i;
        if (!same_half(o[0], round_half(ldexpl(a, k[i]), RTE)))
            fail("ldexp(%La, %d) = %La\n", a, k[i], decode(o[0]));
        if (ulp_error(o[1], k[i] == 0 ? 1 : powl(a, k[i])) > 4)
            fail("pown(%La, %d) = %La\n", a, k[i], decode(o[1]));
        if (ulp_error(o[2], rootn_ref(a, k[i])) > 4)
            fail("rootn(%La, %d) = %La, expected %La\n", a, k[i],
                 decode(o[2]), rootn_ref(a, k[i]));
        int e;
        long double m = frexpl(a, &e);
        if (!same_half(o[3], encode(m)) || (isfinite(a) && oi[0] != e))
            fail("frexp(%La) = %La, %d\n", a, decode(o[3]), oi[0]);
        int want_ilogb = a == 0 ? INT_MIN : isnan(a) ? INT_MAX
                         : isinf(a) ? INT_MAX : ilogbl(a);
        if (oi[1] != want_ilogb)
            fail("ilogb(%La) = %d\n", a, oi[1]);
        if (ulp_error(o[4], sinl(a)) > 2 || ulp_error(o[5], cosl(a)) > 2)
            fail("sincos(%La) = %La, %La\n", a, decode(o[4]), decode(o[5]));
        long double fl = floorl(a);
        long double fr = isnan(a) ? a : isinf(a) ? copysignl(0, a)
                                                 : fminl(decode(round_half(a - fl, RTE)), 0x1.ffcp-1L);
        if (!same_half(o[6], encode(fr)) || !same_half(o[7], encode(fl)))
            fail("fract(%La) = %La, %La\n", a, decode(o[6]), decode(o[7]));
        long double rem = remainderl(a, b);
        if (!same_half(o[8], encode(rem)))
            fail("remquo(%La, %La) = %La, expected %La\n", a, b, decode(o[8]),
                 rem);
        else if (isfinite(a) && b != 0 && !isnan(b)) {
            /* The quotient's sign and its lower 7 bits. */
            long double q = (a - rem) / b;
            long long qi = (long long)fabsl(q) & 0x7f;
            int got = oi[2];
            if (got != 0 && (got < 0) != (q < 0))
                fail("remquo(%La, %La): quotient %d\n", a, b, got);
            else if ((abs(got) & 0x7f) != qi)
                fail("remquo(%La, %La): quotient %d, expected %lld\n", a, b,
                     got, qi);
        }
    }
    free(k);
    free(r);
    free(ri);
}

static void check_modf_nan(const uint16_t *patterns)
{
    uint16_t *r = malloc(PATTERNS * 3 * 2);
    void (*fn)(const uint16_t *, uint16_t *, int) = symbol("modf_nan");
    if (!fn)
        return;
    fn(patterns, r, PATTERNS);
    for (int i = 0; i < PATTERNS; i++) {
        long double a = decode(patterns[i]), ip = truncl(a);
        long double frac = isinf(a) ? copysignl(0, a) : isnan(a) ? a : a - ip;
        frac = copysignl(frac, a);
        if (!same_half(r[3 * i], encode(frac)) ||
            (!isnan(a) && r[3 * i] != encode(frac)) ||
            !same_half(r[3 * i + 1], encode(ip)))
            fail("modf(%La) = %La, %La\n", a, decode(r[3 * i]),
                 decode(r[3 * i + 1]));
        /* nan(code): a quiet NaN. */
        if ((r[3 * i + 2] & 0x7e00) != 0x7e00)
            fail("nan(0x%04x) = 0x%04x\n", patterns[i], r[3 * i + 2]);
    }
    free(r);
}

/* ---- relational, vectors, geometric ---------------------------------------------- */
static void check_relational(const uint16_t *x, const uint16_t *y, int n)
{
    short *r = malloc((size_t)n * 28 * sizeof(short));
    void (*fn)(const uint16_t *, const uint16_t *, short *, int) =
        symbol("relational");
    if (!fn)
        return;
    fn(x, y, r, n);
    for (int i = 0; i < n; i++) {
        long double a = decode(x[i]), b = decode(y[i]);
        bool want[14] = {a == b, a != b, a > b, a >= b, a < b, a <= b,
                         a < b || a > b, !isnan(a) && !isnan(b),
                         isnan(a) || isnan(b), isnan(a), isinf(a),
                         isfinite(a), isnormal(a) && fabsl(a) >= 0x1p-14L,
                         (x[i] & 0x8000) != 0};
        for (int f = 0; f < 14; f++) {
            /* vstore4 of function f's short4 at 14 * (i / 4) + f. */
            short vec = r[56 * (i / 4) + 4 * f + i % 4];
            short scalar = r[14 * n + 14 * i + f];
            if (vec != (want[f] ? -1 : 0) || scalar != want[f])
                fail("relational %d (%La, %La): vector %d, scalar %d\n", f, a,
                     b, vec, scalar);
        }
    }
    free(r);
}

static void check_vectors(void)
{
    uint16_t x[64], r[64];
    for (int i = 0; i < 64; i++)
        x[i] = (uint16_t)(0x3c00 + i);
    memset(r, 0, sizeof(r));
    void (*fn)(const uint16_t *, uint16_t *) = symbol("vectors");
    if (!fn)
        return;
    fn(x, r);
    static const int sel[8] = {0, 1, 0, 1, 1, 0, 0, 1};
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(r[i], x[8 * sel[i] + i]);
        uint16_t c = x[16 + i];
        CHECK_EQ(r[8 + i], (uint16_t)((x[i] & ~c) | (x[8 + i] & c)));
    }
    static const int sh[4] = {7, 0, 2, 3}, sh2[4] = {7, 0, 12, 3};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(r[16 + i], x[sh[i]]);
        CHECK_EQ(r[20 + i], x[sh2[i]]);
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(r[24 + 1 + 3 + i], x[1 + 3 + i]);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(r[32 + 1 + i], x[1 + i]);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(r[49 + i], x[i]);
    CHECK_EQ(r[32], 0);
    CHECK_EQ(r[52], 0);
}

static void check_geometric(const uint16_t *x, const uint16_t *y, int n)
{
    uint16_t *r = malloc((size_t)n * 4 * 2);
    void (*fn)(const uint16_t *, const uint16_t *, uint16_t *, int) =
        symbol("geometric");
    if (!fn)
        return;
    fn(x, y, r, n);
    for (int i = 0; i + 4 <= n; i += 4) {
        long double a[4], b[4], dot = 0, len = 0, dist = 0, max = 0;
        bool finite = true;
        for (int c = 0; c < 4; c++) {
            a[c] = decode(x[i + c]);
            b[c] = decode(y[i + c]);
            finite = finite && isfinite(a[c]) && isfinite(b[c]);
            dot += a[c] * b[c];
            len += a[c] * a[c];
            dist += (a[c] - b[c]) * (a[c] - b[c]);
            max = fmaxl(max, fmaxl(fabsl(a[c]), fabsl(b[c])));
        }
        if (!finite)
            continue;
        uint16_t *o = r + 4 * i;
        /* "dot: absolute error tolerance of max * max * (2n - 1) *
         * HALF_EPSILON"; length 0.25 + 0.5n ulp, distance 2n, normalize
         * 1 + n per component. */
        long double got_dot = decode(o[0]);
        if (!(fabsl(got_dot - dot) <= max * max * 7 * 0x1p-10L) &&
            !(isinf(got_dot) && fabsl(dot) > 65504))
            fail("dot #%d = %La, expected %La\n", i / 4, got_dot, dot);
        if (ulp_error(o[1], sqrtl(len)) > 2.25)
            fail("length #%d = %La, expected %La\n", i / 4, decode(o[1]),
                 sqrtl(len));
        if (ulp_error(o[2], sqrtl(dist)) > 8)
            fail("distance #%d = %La, expected %La\n", i / 4, decode(o[2]),
                 sqrtl(dist));
        for (int c = 0; c < 4 && len > 0 && isfinite(sqrtl(len)); c++)
            if (ulp_error(o[4 + c], a[c] / sqrtl(len)) > 5)
                fail("normalize #%d.%d = %La, expected %La\n", i / 4, c,
                     decode(o[4 + c]), a[c] / sqrtl(len));
        long double cross[4] = {a[1] * b[2] - a[2] * b[1],
                                a[2] * b[0] - a[0] * b[2],
                                a[0] * b[1] - a[1] * b[0], 0};
        for (int c = 0; c < 4; c++) {
            long double got = decode(o[8 + c]);
            if (!(fabsl(got - cross[c]) <= max * max * 3 * 0x1p-10L) &&
                !(isinf(got) && fabsl(cross[c]) > 65504))
                fail("cross #%d.%d = %La, expected %La\n", i / 4, c, got,
                     cross[c]);
        }
        if (!same_half(o[3], round_half(a[0] * b[0], RTE)))
            fail("dot(%La, %La) = %La\n", a[0], b[0], decode(o[3]));
        if (ulp_error(o[12], sqrtl(a[0] * a[0] + a[1] * a[1])) > 1.25 ||
            ulp_error(o[13], sqrtl(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])) > 1.75)
            fail("length of 2 or 3 #%d: %La %La\n", i / 4, decode(o[12]),
                 decode(o[13]));
    }
    free(r);
}

static void check_arith(const uint16_t *x, const uint16_t *y, int n)
{
    uint16_t *r = malloc((size_t)n * 4 * 2);
    void (*fn)(const uint16_t *, const uint16_t *, uint16_t *, int) =
        symbol("arith");
    if (!fn)
        return;
    fn(x, y, r, n);
    for (int i = 0; i < n; i++) {
        long double a = decode(x[i]), b = decode(y[i]);
        long double want[4] = {a + b, a - b, a * b, a / b};
        for (int op = 0; op < 4; op++) {
            /* long double's quotient has 64 bits: one rounding more is
             * harmless at half's 11. */
            uint16_t w = isnan(want[op]) ? 0x7e00 : round_half(want[op], RTE);
            if (!same_half(r[4 * i + op], w))
                fail("%La %c %La = %La, expected %La\n", a, "+-*/"[op], b,
                     decode(r[4 * i + op]), decode(w));
        }
    }
    free(r);
}

int main(void)
{
    if (!test_long_double_extended()) {
        fprintf(stderr, "long double is not extended precision here "
                        "(valgrind?): no reference to check against\n");
        return TEST_SKIP;
    }
    program = dlopen(BUILTINS_TEST_PROGRAM, RTLD_NOW);
    if (!program) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    uint16_t *patterns = malloc(PATTERNS * 2);
    CHECK(patterns != NULL);
    for (int i = 0; i < PATTERNS; i++)
        patterns[i] = (uint16_t)i;
    long double *values = malloc(MAX_INPUTS * sizeof(long double));
    check_conversions_to_half(values);
    check_from_half(patterns);
    free(values);

    enum { N = 1 << 16 };
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2), *z = malloc(N * 2);
    uint16_t *r = malloc(N * 2), *r8 = malloc(N * 2);
    check_math1(patterns, r, r8);
    some_halves(x, N);
    some_halves(y, N);
    some_halves(z, N);
    /* Every edge against every edge. */
    for (int i = 0; i < 18 * 18; i++) {
        x[i] = x[i / 18];
        y[i] = y[i % 18];
    }
    check_math2(x, y, r, r8, N);
    check_arith(x, y, N);
    check_relational(x, y, N);
    check_geometric(x, y, N);
    check_ints(x, y, N);
    check_modf_nan(patterns);
    check_math3(x, y, z, r, r8, N);
    fma_ties(x, y, z, N);
    check_math3(x, y, z, r, r8, N);
    check_vectors();
    free(patterns);
    free(x);
    free(y);
    free(z);
    free(r);
    free(r8);
    if (test_failures)
        fprintf(stderr, "%d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
